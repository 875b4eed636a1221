import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DedupeMethod, ScanResult } from '../../app/contract/space.js';
import { dedupeGroups } from '../../app/core/space/dedupe.js';
import { scanFolder } from '../../app/core/space/scan.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import {
  folderTimes,
  freeBytes,
  plainCopy,
  randomFile,
  readQuietly,
  reflinkCopy,
  setXattr,
  snapshot,
} from '../helpers/space-files.js';

const block = 4096;
const journalDir = mkdtempSync(path.join(tmpdir(), 'plumb-space-journal-'));
after(() => rmSync(journalDir, { recursive: true, force: true }));

/** The duplicate groups of a scan as sorted lists of names relative to `root`. */
function groupNames(result: ScanResult, root: string): string[][] {
  return result.groups
    .map((g) => g.files.map((f) => path.relative(root, f.path)).sort())
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function tempFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => path.basename(name).startsWith('.plumb-clone-'));
}

/** A folder of copies with metadata worth keeping: modes, xattrs, old times. */
function makeCopies(dir: string): string[] {
  const original = randomFile(path.join(dir, 'photo.raw'), 3 * 1024 * 1024 + 77);
  const copies = [
    plainCopy(original, path.join(dir, 'backup', 'photo.raw')),
    plainCopy(original, path.join(dir, 'old', 'photo copy.raw')),
  ];
  chmodSync(copies[0]!, 0o600);
  setXattr(copies[1]!, 'user.xdg.tags', 'holiday');
  execFileSync('touch', ['-d', '2019-05-04 12:34:56.123456789', copies[1]!]);
  execFileSync('touch', ['-a', '-d', '2020-01-02 03:04:05.5', copies[1]!]);
  const small = randomFile(path.join(dir, 'notes.txt'), 5000);
  return [original, ...copies, small, plainCopy(small, path.join(dir, 'old', 'notes.txt'))];
}

describe(
  'space scan and dedupe on an xfs reflink file system',
  { skip: loopSkipReason('xfs') },
  () => {
    let fs: MountedFs;
    before(() => {
      fs = mountLoopFs('xfs', { sizeBytes: 320 * 1024 * 1024, mkfsArgs: ['-m', 'reflink=1'] });
    });
    after(() => fs.unmount());

    test('duplicates are found exactly, traps included', async () => {
      const root = path.join(fs.dir, 'traps');
      const a = randomFile(path.join(root, 'a1'), 300_000);
      plainCopy(a, path.join(root, 'a2'));
      plainCopy(a, path.join(root, 'sub', 'a3'));
      linkSync(a, path.join(root, 'sub', 'a1-hardlink')); // the same file: counted once
      symlinkSync(a, path.join(root, 'a1-symlink')); // never followed
      // Same size, same first and last 4 KiB, one different byte in the middle.
      const t1 = readQuietly(randomFile(path.join(root, 't1'), 300_000));
      t1[150_000] = t1[150_000]! ^ 1;
      writeFileSync(path.join(root, 't2'), t1);
      const s = randomFile(path.join(root, 's1'), 1000);
      plainCopy(s, path.join(root, 's2'));
      randomFile(path.join(root, 's3'), 1000); // same size, other bytes
      writeFileSync(path.join(root, 'e1'), '');
      writeFileSync(path.join(root, 'e2'), ''); // empty files are never duplicates
      const b = randomFile(path.join(root, 'b1'), 1024 * 1024);
      reflinkCopy(b, path.join(root, 'b2-clone'));
      plainCopy(b, path.join(root, 'b3-copy'));

      const result = await scanFolder({ path: root });
      assert.deepEqual(groupNames(result, root), [
        ['a1', 'a2', 'sub/a3'],
        ['b1', 'b2-clone', 'b3-copy'],
        ['s1', 's2'],
      ]);
      assert.equal(result.skipped.symlinks, 1);
      assert.equal(result.skipped.extraHardLinks, 1);
      assert.equal(result.sharingSupported, true);
      const groupB = result.groups.find((g) => g.files.some((f) => f.path.endsWith('b1')))!;
      // One copy of 1 MiB is reclaimable; the clone is already shared.
      assert.equal(groupB.reclaimableBytes, 1024 * 1024);
      assert.equal(groupB.sharedBytes, 1024 * 1024);
      const groupA = result.groups.find((g) => g.files.some((f) => f.path.endsWith('a2')))!;
      assert.equal(groupA.files.find((f) => f.path === a)?.links, 2);
      assert.equal(result.totals.nominalBytes, 2 * 300_000 + 2 * 1024 * 1024 + 1000);
    });

    for (const method of ['dedupe-range', 'clone-rename'] as DedupeMethod[]) {
      test(`${method}: frees what it predicted, keeps content and metadata`, async () => {
        const root = path.join(fs.dir, `apply-${method}`);
        const files = makeCopies(root);
        const before = files.map(snapshot);
        // Folder access times move whenever a folder is listed (the scan does); modification times must not.
        const folderMtimes = () =>
          ['backup', 'old'].map((f) => folderTimes(path.join(root, f)).mtimeNs);
        const folders = folderMtimes();
        const scan = await scanFolder({ path: root });
        const predicted = scan.totals.reclaimableBytes!;
        assert.ok(predicted >= 2 * 3 * 1024 * 1024, `predicted ${predicted}`);
        const free = freeBytes(fs.dir);
        const report = await dedupeGroups(scan.groups, { apply: true, method, journalDir });
        const measuredHere = freeBytes(fs.dir) - free;
        assert.equal(report.counts.done, 3);
        assert.equal(report.counts.failed, 0);
        assert.equal(report.predictedBytes, predicted);
        const tolerance = block * report.counts.done;
        assert.ok(
          Math.abs(report.measuredFreedBytes! - predicted) <= tolerance,
          `measured ${report.measuredFreedBytes}`,
        );
        assert.ok(Math.abs(measuredHere - predicted) <= tolerance, `statfs says ${measuredHere}`);
        assert.deepEqual(files.map(snapshot), before);
        assert.deepEqual(folderMtimes(), folders);
        assert.deepEqual(tempFiles(root), []);
        assert.deepEqual(readdirSync(journalDir), []);
        const again = await scanFolder({ path: root });
        assert.equal(again.totals.reclaimableBytes, 0);
      });
    }

    test('already-cloned copies are reported as freeing nothing, and left alone', async () => {
      const root = path.join(fs.dir, 'clones');
      const original = randomFile(path.join(root, 'disk.img'), 2 * 1024 * 1024);
      reflinkCopy(original, path.join(root, 'disk copy.img'));
      reflinkCopy(original, path.join(root, 'disk copy 2.img'));
      const scan = await scanFolder({ path: root });
      assert.equal(scan.groups.length, 1);
      assert.equal(scan.totals.nominalBytes, 4 * 1024 * 1024);
      assert.equal(scan.totals.reclaimableBytes, 0);
      assert.equal(scan.totals.sharedBytes, 4 * 1024 * 1024);
      const report = await dedupeGroups(scan.groups, { apply: false });
      assert.equal(report.counts.planned, 0);
      assert.ok(
        report.actions.every((a) => a.status === 'skipped' && /already shares/.test(a.reason!)),
      );
    });

    test('a file modified between scan and apply is skipped and keeps its new content', async () => {
      const root = path.join(fs.dir, 'modified');
      const original = randomFile(path.join(root, 'a'), 500_000);
      const copy = plainCopy(original, path.join(root, 'b'));
      const scan = await scanFolder({ path: root });
      const changed = readQuietly(copy);
      changed[1000] = changed[1000]! ^ 0xff;
      writeFileSync(copy, changed);
      const after = snapshot(copy);
      for (const method of ['dedupe-range', 'clone-rename'] as DedupeMethod[]) {
        const report = await dedupeGroups(scan.groups, { apply: true, method, journalDir });
        assert.equal(report.counts.skipped, 1, method);
        assert.match(report.actions[0]!.reason!, /changed since the scan/);
        assert.deepEqual(snapshot(copy), after);
      }
    });

    test('permission errors (immutable file, read-only mount) are reported and change nothing', async () => {
      const root = path.join(fs.dir, 'denied');
      const original = randomFile(path.join(root, 'a'), 400_000);
      const copy = plainCopy(original, path.join(root, 'b'));
      const before = snapshot(copy);
      execFileSync('chattr', ['+i', copy]);
      try {
        for (const method of ['dedupe-range', 'clone-rename'] as DedupeMethod[]) {
          const scan = await scanFolder({ path: root });
          const report = await dedupeGroups(scan.groups, { apply: true, method, journalDir });
          // The kernel's dedupe writes the file itself: the plan knows it may not, and skips it
          // before trying; a clone is made in the folder, so only the swap meets the refusal.
          const [status, reason] =
            method === 'dedupe-range'
              ? ['skipped', /^Plumb may not change this file$/]
              : ['failed', /./];
          assert.equal(report.actions[0]!.status, status, method);
          assert.match(report.actions[0]!.reason!, reason, method);
          assert.equal(report.actions[0]!.code, 'EPERM', `${method}: ${report.actions[0]!.reason}`);
          assert.deepEqual(snapshot(copy), before);
          assert.deepEqual(tempFiles(root), []);
        }
      } finally {
        execFileSync('chattr', ['-i', copy]);
      }
      const scan = await scanFolder({ path: root });
      fs.remount(true);
      try {
        const report = await dedupeGroups(scan.groups, {
          apply: true,
          method: 'clone-rename',
          journalDir,
        });
        // Known before anything is tried: skipped, in words, not failed.
        assert.equal(report.counts.skipped, 1);
        assert.equal(report.actions[0]!.code, 'EROFS');
        assert.match(report.actions[0]!.reason!, /its disk is read-only/);
        assert.deepEqual(snapshot(copy), before);
      } finally {
        fs.remount(false);
      }
    });
  },
);

describe('space dedupe on a full xfs file system', { skip: loopSkipReason('xfs') }, () => {
  test('ENOSPC is reported per file and every file stays intact', async () => {
    const fs = mountLoopFs('xfs', { sizeBytes: 320 * 1024 * 1024, mkfsArgs: ['-m', 'reflink=1'] });
    try {
      const root = path.join(fs.dir, 'full');
      const original = randomFile(path.join(root, 'a'), 1024 * 1024);
      const copies = [
        plainCopy(original, path.join(root, 'b')),
        plainCopy(original, path.join(root, 'c')),
      ];
      const before = copies.map(snapshot);
      const scan = await scanFolder({ path: root });
      // Fill the data space, then the last free blocks with small files, until nothing fits.
      try {
        execFileSync('dd', ['if=/dev/urandom', `of=${path.join(fs.dir, 'fill')}`, 'bs=1M'], {
          stdio: 'ignore',
        });
      } catch {
        // dd stops with ENOSPC
      }
      mkdirSync(path.join(fs.dir, 'crumbs'));
      for (let i = 0; ; i += 1) {
        try {
          writeFileSync(path.join(fs.dir, 'crumbs', String(i)), Buffer.alloc(4096, i));
        } catch {
          break;
        }
      }
      const report = await dedupeGroups(scan.groups, {
        apply: true,
        method: 'clone-rename',
        journalDir,
      });
      assert.equal(report.counts.failed, 2);
      assert.ok(
        report.actions.every((a) => a.code === 'ENOSPC'),
        JSON.stringify(report.actions),
      );
      assert.deepEqual(copies.map(snapshot), before);
      assert.deepEqual(tempFiles(root), []);
    } finally {
      fs.unmount();
    }
  });
});
