/**
 * `plumb space sparse FILE --punch` (issue 24): a dry run that changes nothing, then `--apply`
 * makes every whole block of zeros a hole, however many runs of them there are, with the content
 * (sha256) and the access and modification times unchanged, on ext4, XFS and Btrfs; and so does
 * macOS's way, a punched clone swapped in, where the file system has clones. The runs are drawn at
 * random (count, lengths, places; seeded, the seed printed, PLUMB_TEST_SEED replays it).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PunchReport } from '../../app/contract/space.js';
import { newSeed, seededRandom } from '../../app/core/bench/seeded-random.js';
import { loadNative } from '../../app/core/native/load.js';
import { punchZeros } from '../../app/core/space/sparse.js';
import { runPlumb } from '../helpers/cli.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { sha256 } from '../helpers/space-files.js';

const seed = Number(process.env.PLUMB_TEST_SEED ?? newSeed());
console.log(`# seed ${seed} (replay with PLUMB_TEST_SEED=${seed})`);

const pageBytes = 4096;

interface ZeroFile {
  file: string;
  /** Whole zero blocks, as [offset, length], merged where they touch. */
  zeroBlocks: [number, number][];
}

/**
 * A file of random bytes with runs of zeros at random places and of random lengths, most starting
 * or ending inside a block: only their whole blocks (of the file system's size) can become holes.
 */
function zeroRunFile(file: string, random: () => number): ZeroFile {
  const data = Buffer.alloc((256 + Math.floor(random() * 1024)) * pageBytes);
  for (let at = 0; at < data.length; at += 4) data.writeUInt32LE((random() * 2 ** 32) >>> 0, at);
  const runs = 2 + Math.floor(random() * 40);
  for (let r = 0; r < runs; r += 1) {
    const length = Math.floor(random() * 24 * pageBytes) + 1;
    const start = Math.floor(random() * (data.length - length));
    data.fill(0, start, start + length);
  }
  writeFileSync(file, data);
  const block = statSync(file).blksize;
  const zeroBlocks: [number, number][] = [];
  for (let at = 0; at < data.length; at += block) {
    if (!data.subarray(at, at + block).every((b) => b === 0)) continue;
    const last = zeroBlocks[zeroBlocks.length - 1];
    if (last && last[0] + last[1] === at) last[1] += block;
    else zeroBlocks.push([at, block]);
  }
  return { file, zeroBlocks };
}

function times(file: string): { atimeNs: bigint; mtimeNs: bigint } {
  const s = statSync(file, { bigint: true });
  return { atimeNs: s.atimeNs, mtimeNs: s.mtimeNs };
}

/** What a file was before its punch. */
interface Before {
  sum: string;
  times: { atimeNs: bigint; mtimeNs: bigint };
  allocated: number;
}

/** Every zero block is a hole, and the content and the times are as they were. */
async function assertAllPunched(
  file: string,
  zeroBlocks: [number, number][],
  before: Before,
  report: PunchReport,
  where: string,
): Promise<void> {
  const zeroBytes = zeroBlocks.reduce((total, [, length]) => total + length, 0);
  assert.equal(report.stopped, null, where);
  assert.equal(report.punchedBytes, zeroBytes, where);
  assert.deepEqual(times(file), before.times, `${where}: access and modification times kept`);
  assert.equal(sha256(file), before.sum, `${where}: the content is the same`);
  // None of the zero blocks lies inside a data range.
  const map = await loadNative().dataRanges(file);
  for (const [offset, length] of zeroBlocks) {
    const inData = map.data.find((d) => d.offset < offset + length && offset < d.offset + d.length);
    assert.equal(inData, undefined, `${where}: zeros at ${offset} (+${length}) are still data`);
  }
  assert.ok(
    report.allocatedAfter <= before.allocated - zeroBytes + 64 * 1024,
    `${where}: allocated ${before.allocated} → ${report.allocatedAfter}, ${zeroBytes} punched`,
  );
}

for (const fsType of ['ext4', 'xfs', 'btrfs']) {
  describe(`punching zero runs on ${fsType}`, { skip: loopSkipReason(fsType) }, () => {
    let fs: MountedFs;
    const random = seededRandom(seed + fsType.length);
    before(() => {
      fs = mountLoopFs(fsType, { sizeBytes: 320 * 1024 * 1024 });
    });
    after(() => fs.unmount());

    test('a dry run changes nothing; --apply frees every zero block, content and times kept', async () => {
      for (let n = 0; n < 6; n += 1) {
        const { file, zeroBlocks } = zeroRunFile(path.join(fs.dir, `file-${n}.bin`), random);
        // Times unlike any the punch could set by itself (atime after mtime, years ago).
        utimesSync(
          file,
          new Date('2023-05-06T07:08:09.123Z'),
          new Date('2022-01-02T03:04:05.678Z'),
        );
        const sum = sha256(file);
        const before = times(file);
        const allocated = statSync(file).blocks * 512;
        const zeroBytes = zeroBlocks.reduce((total, [, length]) => total + length, 0);
        const where = `${fsType} file ${n}: ${zeroBlocks.length} zero runs, seed ${seed}`;

        const dry = runPlumb(['space', 'sparse', file, '--punch', '--json']);
        assert.equal(dry.status, 0, dry.stderr);
        const planned = JSON.parse(dry.stdout) as PunchReport;
        assert.equal(planned.dryRun, true);
        assert.equal(planned.zeroBytes, zeroBytes, where);
        assert.equal(
          statSync(file).blocks * 512,
          allocated,
          `${where}: the dry run changed nothing`,
        );
        assert.deepEqual(times(file), before, `${where}: the dry run kept the times`);

        const run = runPlumb(['space', 'sparse', file, '--punch', '--apply', '--json']);
        assert.equal(run.status, 0, `${where}: ${run.stderr}`);
        const report = JSON.parse(run.stdout) as PunchReport;
        await assertAllPunched(file, zeroBlocks, { sum, times: before, allocated }, report, where);
      }
    });

    // macOS's way (a punched clone swapped in), where this file system has clones to test it.
    const cloneSkip = fsType === 'ext4' ? 'ext4 has no clones' : undefined;
    test('clone-rename punches the same, content and times kept', { skip: cloneSkip }, async () => {
      const journalDir = mkdtempSync(path.join(tmpdir(), 'plumb-punch-journal-'));
      try {
        for (let n = 0; n < 3; n += 1) {
          const { file, zeroBlocks } = zeroRunFile(path.join(fs.dir, `clone-${n}.bin`), random);
          utimesSync(file, new Date('2023-05-06T07:08:09Z'), new Date('2022-01-02T03:04:05Z'));
          const before = {
            sum: sha256(file),
            times: times(file),
            allocated: statSync(file).blocks * 512,
          };
          const report = await punchZeros(file, true, { method: 'clone-rename', journalDir });
          const where = `${fsType} clone ${n}: ${zeroBlocks.length} zero runs, seed ${seed}`;
          await assertAllPunched(file, zeroBlocks, before, report, where);
          assert.deepEqual(
            readdirSync(fs.dir).filter((name) => name.startsWith('.plumb-')),
            [],
            `${where}: no temporary left`,
          );
        }
        assert.deepEqual(
          readdirSync(journalDir).filter((name) => name.endsWith('.jsonl')),
          [],
        );
      } finally {
        rmSync(journalDir, { recursive: true, force: true });
      }
    });
  });
}
