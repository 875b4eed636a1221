import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { ScanResult, SparseFile } from '../../app/contract/space.js';
import { runPlumb } from '../helpers/cli.js';
import { loopSkipReason, mountLoopFs } from '../helpers/loopfs.js';
import { plainCopy, randomFile, snapshotTree } from '../helpers/space-files.js';

const work = mkdtempSync(path.join(tmpdir(), 'plumb-space-cli-'));
after(() => rmSync(work, { recursive: true, force: true }));
const env = { PLUMB_STATE_DIR: path.join(work, 'state') };

describe('plumb space: command line', () => {
  test('bad usage exits 2 with one line; a missing folder exits 1', () => {
    for (const args of [
      ['space'],
      ['space', 'frobnicate'],
      ['space', 'scan'],
      ['space', 'scan', work, '--apply'],
      ['space', 'dedupe', work, '--method', 'magic'],
      ['space', 'sparse', path.join(work, 'x'), '--punch', '--create', '1MB'],
      ['space', 'sparse', path.join(work, 'x'), '--create', 'lots'],
      ['space', 'sparse', path.join(work, 'x'), '--apply'],
    ]) {
      const result = runPlumb(args, { env });
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    }
    const missing = runPlumb(['space', 'scan', path.join(work, 'nope')], { env });
    assert.equal(missing.status, 1);
    assert.equal(missing.stderr.trim().split('\n').length, 1);
    assert.match(missing.stderr, /ENOENT|No such/);
  });

  const noClonesSkip = loopSkipReason('ext4');
  if (noClonesSkip) console.log(`# skipping the ext4 (no clones) case: ${noClonesSkip}`);
  test(
    'on a file system without clones, nothing is claimed reclaimable and nothing is tried',
    { skip: noClonesSkip },
    () => {
      // ext4 has no clones wherever the temporary folder is (XFS or Btrfs would have them).
      const fs = mountLoopFs('ext4', { sizeBytes: 64 * 1024 * 1024 });
      try {
        const root = path.join(fs.dir, 'noclones');
        const a = randomFile(path.join(root, 'a'), 200_000);
        plainCopy(a, path.join(root, 'b'));
        const scan = runPlumb(['space', 'scan', root, '--json'], { env });
        assert.equal(scan.status, 0, scan.stderr);
        const result = JSON.parse(scan.stdout) as ScanResult;
        assert.equal(result.sharingSupported, false);
        assert.equal(result.groups.length, 1);
        assert.equal(result.totals.nominalBytes, 200_000);
        assert.equal(result.totals.reclaimableBytes, 0);
        const dedupe = runPlumb(['space', 'dedupe', root, '--apply'], { env });
        assert.equal(dedupe.status, 0, dedupe.stderr);
        assert.match(dedupe.stdout, /cannot share storage/);
      } finally {
        fs.unmount();
      }
    },
  );

  test('sparse: create, list, punch zeros (a dry run, then content and times kept), copy keeping holes', () => {
    const dir = path.join(work, 'sparse');
    const created = runPlumb(
      ['space', 'sparse', path.join(dir, 'disk.img'), '--create', '64MiB', '--json'],
      {
        env,
      },
    );
    assert.equal(created.status, 1, 'the folder must exist: nothing is created outside it');
    // Said in words (issue 15), not as the raw code.
    assert.match(created.stderr, /does not exist .*Check the path/);
    randomFile(path.join(dir, 'seed'), 1);
    const ok = runPlumb(
      ['space', 'sparse', path.join(dir, 'disk.img'), '--create', '64MiB', '--json'],
      { env },
    );
    assert.equal(ok.status, 0, ok.stderr);
    const disk = JSON.parse(ok.stdout) as SparseFile;
    assert.equal(disk.logicalBytes, 64 * 1024 * 1024);
    assert.equal(disk.allocatedBytes, 0);
    assert.deepEqual(disk.data, []);

    // A dense file with a run of zeros in the middle.
    const dense = path.join(dir, 'dense.bin');
    const data = Buffer.alloc(3 * 1024 * 1024);
    data.fill(7, 0, 1024 * 1024);
    data.fill(9, 2 * 1024 * 1024);
    writeFileSync(dense, data);
    const before = snapshotTree(dir).get(dense)!;
    const allocated = statSync(dense).blocks;
    const dryRun = runPlumb(['space', 'sparse', dense, '--punch'], { env });
    assert.equal(dryRun.status, 0, dryRun.stderr);
    assert.match(dryRun.stdout, /1\.05 MB of zero blocks would become holes .*--apply/);
    assert.equal(statSync(dense).blocks, allocated, 'a dry run changes nothing');
    const punched = runPlumb(['space', 'sparse', dense, '--punch', '--apply'], { env });
    assert.equal(punched.status, 0, punched.stderr);
    assert.match(punched.stdout, /rewrite it in full/);
    assert.deepEqual(snapshotTree(dir).get(dense), before);
    assert.ok(statSync(dense).blocks * 512 <= 2 * 1024 * 1024 + 64 * 1024);

    const listed = runPlumb(['space', 'sparse', dir, '--json'], { env });
    assert.equal(listed.status, 0, listed.stderr);
    const files = (JSON.parse(listed.stdout) as SparseFile[])
      .map((f) => path.basename(f.path))
      .sort();
    assert.deepEqual(files, ['dense.bin', 'disk.img']);

    const copied = runPlumb(
      ['space', 'sparse', dense, '--copy-to', path.join(dir, 'copy.bin'), '--json'],
      { env },
    );
    assert.equal(copied.status, 0, copied.stderr);
    const copy = JSON.parse(copied.stdout) as SparseFile;
    assert.deepEqual(copy.data, [
      { offset: 0, length: 1024 * 1024 },
      { offset: 2 * 1024 * 1024, length: 1024 * 1024 },
    ]);
    assert.equal(snapshotTree(dir).get(path.join(dir, 'copy.bin'))!.sha256, before.sha256);
    const again = runPlumb(['space', 'sparse', dense, '--copy-to', path.join(dir, 'copy.bin')], {
      env,
    });
    assert.equal(again.status, 1);
    assert.match(again.stderr, /already exists/);

    // A copy into a folder that does not exist names that folder, not a temporary file's name.
    const missing = path.join(dir, 'no-such-folder');
    const nowhere = runPlumb(
      ['space', 'sparse', dense, '--copy-to', path.join(missing, 'copy.bin')],
      { env },
    );
    assert.equal(nowhere.status, 1);
    assert.equal(
      nowhere.stderr.trim(),
      `plumb space: The folder ${missing} does not exist: create it first, or choose another place for the copy.`,
    );

    // A plain small file named alone is not "a sparse file".
    const note = path.join(dir, 'note.txt');
    writeFileSync(note, 'hello world');
    const alone = runPlumb(['space', 'sparse', note, '--json'], { env });
    assert.equal(alone.status, 0, alone.stderr);
    assert.deepEqual(JSON.parse(alone.stdout), []);

    // Longer than the whole disk: allowed (disk images are made so), never silent.
    const volume = statfsSync(dir);
    const huge = runPlumb(
      [
        'space',
        'sparse',
        path.join(dir, 'huge.img'),
        '--create',
        `${volume.blocks * volume.bsize * 4}B`,
      ],
      { env },
    );
    if (huge.status === 0) {
      assert.match(
        huge.stdout,
        /Note: It is longer than its whole disk \([\d.]+ [KMGT]?B\): it can never be filled there/,
      );
    } else {
      // ext4 caps one file at 16 TiB: said in words.
      assert.match(
        huge.stderr,
        /would be longer than its file system allows for one file\. Choose a smaller size\./,
      );
    }
  });
});

describe('plumb space dedupe: dry run on xfs', { skip: loopSkipReason('xfs') }, () => {
  test('prints exactly what would happen and changes nothing', () => {
    const fs = mountLoopFs('xfs', { sizeBytes: 320 * 1024 * 1024, mkfsArgs: ['-m', 'reflink=1'] });
    try {
      const a = randomFile(path.join(fs.dir, 'a.bin'), 1024 * 1024);
      plainCopy(a, path.join(fs.dir, 'copies', 'a.bin'));
      const before = snapshotTree(fs.dir);
      const dry = runPlumb(['space', 'dedupe', fs.dir], { env });
      assert.equal(dry.status, 0, dry.stderr);
      assert.deepEqual(dry.stdout.trim().split('\n'), [
        `would clone  ${path.join(fs.dir, 'copies', 'a.bin')}  from  ${a}  (frees 1.05 MB)`,
        'Dry run (dedupe-range): 1 copies would become clones of their keeper, freeing 1.05 MB; 0 skipped. ' +
          'Nothing was changed; run again with --apply to do it.',
      ]);
      assert.deepEqual(snapshotTree(fs.dir), before);
      const applied = runPlumb(['space', 'dedupe', fs.dir, '--apply'], { env });
      assert.equal(applied.status, 0, applied.stderr);
      assert.match(applied.stdout, /Predicted 1\.05 MB, measured 1\.05 MB freed/);
      assert.deepEqual(snapshotTree(fs.dir), before);
    } finally {
      fs.unmount();
    }
  });
});
