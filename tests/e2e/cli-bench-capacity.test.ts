/**
 * `plumb bench DIR --plan capacity` as a user runs it (the built-in plan, the default reserve), on
 * a fake "2 GB" stick (wrapfs: offsets beyond a real size drawn at random, below what the check
 * fills, wrap to the start) and on a genuine 2 GB disk. The fake fails, with the bad bytes
 * predicted from where ext4 put each block; the genuine one passes, having filled what the guard
 * allows; cancelled while it reads back, it leaves nothing and saves nothing.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, statfsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatBytes } from '../../app/common/format.js';
import { reserveBytes } from '../../app/common/reserve.js';
import { ResultDocument } from '../../app/contract/bench-result.js';
import { baseSeed, seededRandom } from '../helpers/synthetic-samples.js';
import { plumbBin, runPlumb } from '../helpers/cli.js';
import { loopSkipReason, mountLoopFs } from '../helpers/loopfs.js';
import {
  fakeDiskSkipReason,
  keptFiles,
  makeFakeDisk,
  predictWrap,
} from '../helpers/verify-disks.js';

const GiB = 1024 ** 3;
/** What the stick claims (and the genuine disk is). */
const claimedBytes = 2 * GiB;
const seed = baseSeed();
const random = seededRandom(seed);

let work: string;
let env: NodeJS.ProcessEnv;
before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'plumb-capacity-e2e-'));
  env = { PLUMB_DATA_DIR: path.join(work, 'data') };
});
after(async () => {
  await rm(work, { recursive: true, force: true });
});

/** What the guard lets a run write on `dir` with the default reserve, as the engine works it out. */
function allowanceOf(dir: string): number {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize - reserveBytes(stats.blocks * stats.bsize);
}

const testFolders = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('plumb-test-'));

describe('plumb bench --plan capacity', () => {
  it('fails a fake stick that stores less than it claims, with the bytes that came back wrong', async (t) => {
    const reason = fakeDiskSkipReason();
    if (reason) return t.skip(reason);
    // Real size drawn from 10 % to 70 % of what the default reserve lets the check fill (~0.9 GB).
    const realBytes = Math.round(((0.1 + 0.6 * random()) * 0.9e9) / 4096) * 4096;
    const disk = makeFakeDisk(realBytes, claimedBytes);
    try {
      const allowance = allowanceOf(disk.dir);
      console.log(
        `# the stick keeps ${formatBytes(realBytes)} of ${formatBytes(claimedBytes)}; ${formatBytes(allowance)} may be written`,
      );
      assert.ok(allowance > realBytes, 'the check fills past the real size');
      const out = path.join(work, 'fake.json');
      const result = runPlumb(
        ['bench', disk.dir, '--plan', 'capacity', '--keep-files', '--json', out],
        { env },
      );
      assert.equal(result.status, 0, result.stderr);
      const document = ResultDocument.parse(JSON.parse(await readFile(out, 'utf8')));
      const verify = document.verify!;
      assert.equal(verify.verdict, 'failed');
      assert.ok(verify.bytesChecked >= 0.95 * allowance, `filled ${verify.bytesChecked}`);

      const { placed, bad, last } = predictWrap(keptFiles(disk.dir), realBytes);
      assert.equal(
        verify.bytesChecked,
        placed.reduce((sum, p) => sum + p.bytes, 0),
      );
      // Blocks the wrap put onto ext4's own metadata may be rewritten by it: those may be bad too.
      const predicted = bad.reduce((sum, p) => sum + p.bytes, 0);
      const slack = placed
        .filter(
          (p) => last.get(p.key) === p && p.physical >= realBytes && p.key < disk.metadataBytes,
        )
        .reduce((sum, p) => sum + p.bytes, 0);
      assert.ok(
        verify.badBytes >= predicted && verify.badBytes <= predicted + slack,
        `bad bytes ${verify.badBytes}, predicted ${predicted} (+ up to ${slack} on metadata)`,
      );
      // The verdict in words, where a user reads it: the summary and the saved message.
      const at = verify.firstBad!.runOffset;
      const verdict = new RegExp(
        `Capacity check failed: ${formatBytes(verify.badBytes)} of ${formatBytes(verify.bytesChecked)} read back wrong from ${at === 0 ? 'the start' : `${formatBytes(at)} on`}: `,
      );
      assert.match(verify.message, verdict);
      if (verify.firstBad!.found.kind === 'other-block')
        assert.match(verify.message, /: this drive stores less than it reports\./);
      // The writing is a free sustained test: sampled, with a headline rate.
      assert.ok((document.samplesByPhase?.write?.t.length ?? 0) > 10);
      assert.ok((document.headline?.write.rate ?? 0) > 0);
      const listed = runPlumb(['results', 'list'], { env });
      assert.match(listed.stdout, new RegExp(`^${document.id} .*\\(Capacity check failed\\)`, 'm'));
    } finally {
      disk.remove();
    }
  });

  it('passes a genuine disk of the same size, having filled what may be used, and removes its files', async (t) => {
    const reason = loopSkipReason('ext4');
    if (reason) return t.skip(reason);
    const fs = mountLoopFs('ext4', { sizeBytes: claimedBytes });
    try {
      const allowance = allowanceOf(fs.dir);
      const result = runPlumb(['bench', fs.dir, '--plan', 'capacity'], { env });
      assert.equal(result.status, 0, result.stderr);
      const id = /Saved as (\S+)/.exec(result.stdout)?.[1];
      assert.ok(id, result.stdout);
      const shown = runPlumb(['results', 'show', id, '--json'], { env });
      const document = ResultDocument.parse(JSON.parse(shown.stdout));
      const verify = document.verify!;
      const written = document.files.reduce((sum, f) => sum + f.bytes, 0);
      assert.deepEqual(
        { verdict: verify.verdict, badBytes: verify.badBytes, checked: verify.bytesChecked },
        { verdict: 'passed', badBytes: 0, checked: written },
      );
      assert.ok(written >= 0.95 * allowance && written <= allowance, `filled ${written}`);
      assert.ok(
        result.stdout.includes(
          `Verify: passed. Capacity checked: ${formatBytes(written)} written and read back intact.`,
        ),
        result.stdout,
      );
      assert.deepEqual(testFolders(fs.dir), [], 'its files are removed');
      assert.ok(allowanceOf(fs.dir) >= allowance - 1e6, 'the space is back');
    } finally {
      fs.unmount();
    }
  });

  it('cancelled with Ctrl-C while reading back: nothing left on the disk, nothing saved', async (t) => {
    const reason = loopSkipReason('ext4');
    if (reason) return t.skip(reason);
    // Twice the size: a read-back of about 2.6 GB takes long enough to be interrupted surely.
    const fs = mountLoopFs('ext4', { sizeBytes: 2 * claimedBytes });
    const data = path.join(work, 'cancel-data');
    try {
      const child = spawn(process.execPath, [plumbBin, 'bench', fs.dir, '--plan', 'capacity'], {
        env: { ...process.env, PLUMB_DATA_DIR: data },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await new Promise<void>((resolve) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          // The read-back phase has begun (the plain progress lines name each phase).
          if (/^read:$/m.test(stderr)) resolve();
        });
        void exited.then(() => resolve());
      });
      assert.equal(child.exitCode, null, `it ended before reading back: ${stderr}`);
      child.kill('SIGINT');
      assert.equal(await exited, 1, stderr);
      assert.match(stderr, /Cancelled; the test files were removed\.\n$/);
      assert.deepEqual(testFolders(fs.dir), []);
      const listed = runPlumb(['results', 'list', '--json'], { env: { PLUMB_DATA_DIR: data } });
      assert.equal(listed.status, 0, listed.stderr);
      assert.deepEqual(JSON.parse(listed.stdout), [], 'nothing saved');
    } finally {
      fs.unmount();
    }
  });
});
