import assert from 'node:assert/strict';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PlumbNative } from '../../native/index.js';
import {
  loopSkipReason,
  mountLoopFs,
  mountTmpfs,
  tmpfsSkipReason,
  type MountedFs,
} from '../helpers/loopfs.js';
import {
  folderTimes,
  freeBytes,
  plainCopy,
  randomFile,
  reflinkCopy,
  setXattr,
  sha256,
  snapshot,
} from '../helpers/space-files.js';

const native = createRequire(import.meta.url)(
  '../../native/build/Release/plumb.node',
) as PlumbNative;
const block = 4096;

describe('space primitives on an xfs reflink file system', { skip: loopSkipReason('xfs') }, () => {
  let fs: MountedFs;
  before(() => {
    fs = mountLoopFs('xfs', { sizeBytes: 320 * 1024 * 1024, mkfsArgs: ['-m', 'reflink=1'] });
  });
  after(() => fs.unmount());
  const at = (name: string) => path.join(fs.dir, name);

  test('sharingSupport says yes here; flushVolume syncs it', async () => {
    assert.equal(await native.sharingSupport(randomFile(at('probe'), 10)), true);
    await native.flushVolume(fs.dir);
    await assert.rejects(native.flushVolume(at('missing')), { code: 'ENOENT' });
  });

  test('fileSharing shows physical extents, and the shared flag only on clones', async () => {
    const original = randomFile(at('fs/original'), 3 * 1024 * 1024 + 123);
    const copy = plainCopy(original, at('fs/copy'));
    const clone = reflinkCopy(original, at('fs/clone'));
    const [o, p, c] = await Promise.all([original, copy, clone].map((f) => native.fileSharing(f)));
    assert.equal(o!.logicalBytes, 3 * 1024 * 1024 + 123);
    assert.ok(o!.extents && o!.extents.length > 0);
    assert.equal(p!.sharedBytes, 0);
    assert.equal(c!.sharedBytes, c!.allocatedBytes);
    assert.deepEqual(
      c!.extents!.map((e) => e.physical),
      o!.extents!.map((e) => e.physical),
    );
    assert.notEqual(p!.extents![0]!.physical, o!.extents![0]!.physical);
    assert.equal(o!.compressed, false);
    assert.equal(o!.cloneId, null); // a macOS-only fact: unknown here, not invented
  });

  test('fileSharingMany gives what fileSharing gives, in columns, in order', async () => {
    const original = randomFile(at('many/original'), 2 * 1024 * 1024 + 5);
    const copy = plainCopy(original, at('many/copy'));
    const clone = reflinkCopy(original, at('many/clone'));
    const empty = at('many/empty');
    writeFileSync(empty, '');
    const paths = [original, at('many/missing'), copy, clone, empty];
    const many = await native.fileSharingMany(paths, { threads: 2 });
    assert.deepEqual([...many.failed], [0, 1, 0, 0, 0]);
    assert.equal(many.extentStarts.length, paths.length + 1);
    for (const [index, file] of paths.entries()) {
      if (many.failed[index] === 1) {
        assert.equal(many.hasExtents[index], 0);
        assert.equal(many.extentStarts[index + 1], many.extentStarts[index]);
        continue;
      }
      const one = await native.fileSharing(file);
      assert.equal(many.allocatedBytes[index], one.allocatedBytes);
      assert.equal(many.compressed[index], one.compressed === null ? 2 : Number(one.compressed));
      assert.equal(many.cloneIds[index], one.cloneId);
      assert.ok(Number.isNaN(many.privateBytes[index]) && one.privateBytes === null);
      assert.equal(many.hasExtents[index], one.extents ? 1 : 0);
      const rows: { physical: number; length: number; shared: boolean }[] = [];
      for (let row = many.extentStarts[index]!; row < many.extentStarts[index + 1]!; row += 1) {
        const [physical, length, shared] = many.extents.subarray(row * 3, row * 3 + 3);
        rows.push({ physical: physical!, length: length!, shared: shared === 1 });
      }
      assert.deepEqual(
        rows,
        (one.extents ?? []).map((e) => ({
          physical: e.physical,
          length: e.length,
          shared: e.shared,
        })),
      );
    }
    // The clone's extents are the original's, flagged shared; the copy's are its own.
    assert.equal(many.extents[many.extentStarts[3]! * 3 + 2], 1);
    assert.equal(many.extents[many.extentStarts[3]! * 3], many.extents[0]);
    assert.notEqual(many.extents[many.extentStarts[2]! * 3], many.extents[0]);
    const none = await native.fileSharingMany([]);
    assert.equal(none.failed.length, 0);
    assert.deepEqual([...none.extentStarts], [0]);
  });

  test('fileSharingMany: cancel rejects with ECANCELED, before or during the work', async () => {
    const file = randomFile(at('many-cancel/file'), 10_000);
    const before = native.createCancel();
    before.cancel();
    await assert.rejects(native.fileSharingMany([file], { cancel: before }), {
      code: 'ECANCELED',
    });
    const during = native.createCancel();
    const pending = native.fileSharingMany(
      Array.from({ length: 200_000 }, () => file),
      { threads: 1, cancel: during },
    );
    // Uncancelled, this takes about a second; the cancel is answered within about 100 ms (a shared
    // VM gets some slack).
    let cancelledAt = 0;
    setTimeout(() => {
      cancelledAt = performance.now();
      during.cancel();
    }, 20);
    await assert.rejects(pending, { code: 'ECANCELED' });
    const answeredMs = performance.now() - cancelledAt;
    assert.ok(cancelledAt > 0 && answeredMs < 250, `answered ${answeredMs} ms after the cancel`);
  });

  test('dedupeFile shares a copy with the original, frees its blocks and leaves its times', async () => {
    const original = randomFile(at('dd/original'), 40 * 1024 * 1024 + 5); // more than two 16 MiB chunks
    const copy = plainCopy(original, at('dd/copy'));
    const beforeCopy = snapshot(copy);
    const inode = statSync(copy).ino;
    const allocated = (await native.fileSharing(copy)).allocatedBytes;
    const free = freeBytes(fs.dir);
    const outcome = await native.dedupeFile(original, copy);
    assert.deepEqual(outcome, { bytesDeduped: 40 * 1024 * 1024 + 5, differs: false });
    const freed = freeBytes(fs.dir) - free;
    assert.ok(Math.abs(freed - allocated) <= block, `freed ${freed} of ${allocated} allocated`);
    assert.deepEqual(snapshot(copy), beforeCopy);
    assert.equal(statSync(copy).ino, inode);
    const sharing = await native.fileSharing(copy);
    assert.equal(sharing.sharedBytes, sharing.allocatedBytes);
  });

  test('dedupeFile refuses different content: the kernel compares, nothing changes', async () => {
    const a = randomFile(at('diff/a'), 1024 * 1024);
    const bytes = readFileSync(a);
    bytes[600 * 1024] = bytes[600 * 1024]! ^ 0xff;
    writeFileSync(at('diff/b'), bytes);
    const before = sha256(at('diff/b'));
    const outcome = await native.dedupeFile(a, at('diff/b'));
    assert.equal(outcome.differs, true);
    assert.ok(outcome.bytesDeduped < 1024 * 1024);
    assert.equal(sha256(at('diff/b')), before);
    const sizeDiffers = await native.dedupeFile(a, randomFile(at('diff/c'), 10));
    assert.deepEqual(sizeDiffers, { bytesDeduped: 0, differs: true });
  });

  test('cloneFile makes a new clone and never overwrites', async () => {
    const source = randomFile(at('cl/source'), 200_000);
    await native.cloneFile(source, at('cl/clone'));
    assert.equal(sha256(at('cl/clone')), sha256(source));
    assert.equal((await native.fileSharing(at('cl/clone'))).extents![0]!.shared, true);
    await assert.rejects(native.cloneFile(source, at('cl/clone')), { code: 'EEXIST' });
    await assert.rejects(native.cloneFile(at('cl/missing'), at('cl/other')), { code: 'ENOENT' });
    assert.equal(existsSync(at('cl/other')), false);
  });

  test('copyMetadata carries mode, owner, xattrs and exact times', async () => {
    const from = randomFile(at('md/from'), 1000);
    chmodSync(from, 0o640);
    setXattr(from, 'user.tag', 'red');
    setXattr(from, 'user.where', 'downloaded');
    await native.setTimes(from, 1_600_000_000_123_456_789n, 1_500_000_000_987_654_321n);
    const to = randomFile(at('md/to'), 1000);
    setXattr(to, 'user.stale', 'x');
    await native.copyMetadata(from, to);
    const [a, b] = [snapshot(from), snapshot(to)];
    assert.equal(b.mode, a.mode);
    assert.equal(b.uid, a.uid);
    assert.equal(b.xattrs, a.xattrs);
    assert.equal(b.mtimeNs, 1_500_000_000_987_654_321n);
    assert.equal(b.atimeNs, 1_600_000_000_123_456_789n);
  });

  test('replaceWithClone swaps in the clone, or changes nothing when the file is open or moved', async () => {
    const keeper = randomFile(at('rp/keeper'), 300_000);
    const target = plainCopy(keeper, at('rp/target'));
    const facts = () => {
      const s = statSync(target, { bigint: true });
      return { ino: s.ino, size: Number(s.size), mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs };
    };
    const fresh = async () => {
      await native.cloneFile(keeper, at('rp/.plumb-clone-x'));
      await native.copyMetadata(target, at('rp/.plumb-clone-x'));
      return at('rp/.plumb-clone-x');
    };
    const swap = at('rp/.plumb-clone-x-swap');
    // Open elsewhere (another open file description, as another program's): skipped.
    let clone = await fresh();
    const expected = facts();
    const held = openSync(target, 'a');
    try {
      assert.deepEqual(await native.replaceWithClone(clone, target, swap, expected), {
        outcome: 'in-use',
        keptPath: null,
      });
    } finally {
      closeSync(held);
    }
    assert.equal(statSync(target).ino, Number(expected.ino));
    // A time that is not the one recorded: changed, nothing moved.
    const moved = { ...expected, mtimeNs: expected.mtimeNs + 1n };
    assert.equal((await native.replaceWithClone(clone, target, swap, moved)).outcome, 'changed');
    assert.equal(statSync(target).ino, Number(expected.ino));
    assert.equal(existsSync(clone), true);
    // Untouched: the clone takes the name, the original is gone, the content is the same.
    const before = snapshot(target);
    assert.equal(
      (await native.replaceWithClone(clone, target, swap, expected)).outcome,
      'replaced',
    );
    assert.deepEqual(snapshot(target), before);
    assert.notEqual(statSync(target).ino, Number(expected.ino));
    assert.equal(existsSync(clone), false);
    assert.ok((await native.fileSharing(target)).sharedBytes! >= 300_000, 'shares the keeper');
    // Bad arguments are refused before anything is touched.
    clone = await fresh();
    assert.throws(
      () =>
        native.replaceWithClone(clone, target, swap, { ...facts(), ino: 1 as unknown as bigint }),
      TypeError,
    );
  });

  test('setTimes sets folder times to the nanosecond', async () => {
    const dir = path.dirname(randomFile(at('times/x'), 1));
    await native.setTimes(dir, 1_700_000_000_000_000_001n, 1_650_000_000_000_000_002n);
    assert.deepEqual(folderTimes(dir), {
      atimeNs: 1_700_000_000_000_000_001n,
      mtimeNs: 1_650_000_000_000_000_002n,
    });
  });

  test('sparse files: create, map, punch the zero blocks, allocated size follows', async () => {
    const file = at('sparse/file');
    mkdirSync(path.dirname(file), { recursive: true });
    await native.createSparseFile(file, 8 * 1024 * 1024);
    let map = await native.dataRanges(file);
    assert.deepEqual(map.data, []);
    assert.equal(map.logicalBytes, 8 * 1024 * 1024);
    assert.equal(map.allocatedBytes, 0);
    await assert.rejects(native.createSparseFile(file, 10), { code: 'EEXIST' });

    const dense = randomFile(at('sparse/dense'), 1024 * 1024);
    const zeroed = readFileSync(dense);
    zeroed.fill(0, 256 * 1024, 768 * 1024);
    writeFileSync(dense, zeroed);
    utimesSync(dense, new Date('2021-02-03T04:05:06Z'), new Date('2020-01-02T03:04:05Z'));
    const times = statSync(dense, { bigint: true });
    const result = await native.punchZeros(dense, [{ offset: 0, length: 1024 * 1024 }], 4096);
    assert.deepEqual(result, { outcome: 'done', punchedBytes: 512 * 1024 });
    map = await native.dataRanges(dense);
    assert.deepEqual(map.data, [
      { offset: 0, length: 256 * 1024 },
      { offset: 768 * 1024, length: 256 * 1024 },
    ]);
    assert.equal(map.allocatedBytes, 512 * 1024);
    const now = statSync(dense, { bigint: true });
    assert.equal(now.mtimeNs, times.mtimeNs);
    assert.equal(now.atimeNs, times.atimeNs);
    assert.ok(readFileSync(dense).equals(zeroed), 'it reads the same');
  });
});

describe(
  'space primitives where the file system cannot share storage',
  { skip: tmpfsSkipReason() },
  () => {
    let fs: MountedFs;
    before(() => {
      fs = mountTmpfs(16 * 1024 * 1024);
    });
    after(() => fs.unmount());

    test('tmpfs: no sharing, unknown extents, dedupe and clone refused with EOPNOTSUPP', async () => {
      const a = randomFile(path.join(fs.dir, 'a'), 10_000);
      const b = plainCopy(a, path.join(fs.dir, 'b'));
      assert.equal(await native.sharingSupport(a), false);
      const sharing = await native.fileSharing(a);
      assert.equal(sharing.extents, null);
      assert.equal(sharing.sharedBytes, null);
      await assert.rejects(native.dedupeFile(a, b), { code: 'ENOTSUP' });
      await assert.rejects(native.cloneFile(a, path.join(fs.dir, 'c')), { code: 'ENOTSUP' });
      assert.equal(existsSync(path.join(fs.dir, 'c')), false);
    });
  },
);

test('space primitives reject bad arguments with TypeError', () => {
  assert.throws(() => native.fileSharing(42 as unknown as string), TypeError);
  assert.throws(() => native.fileSharingMany(['/a', 42] as unknown as string[]), TypeError);
  assert.throws(() => native.fileSharingMany(['/a'], { threads: 0 }), TypeError);
  assert.throws(() => native.dedupeFile('/a', undefined as unknown as string), TypeError);
  assert.throws(() => native.setTimes('/a', 1 as unknown as bigint, 2n), TypeError);
  assert.throws(() => native.punchZeros('/a', [{ offset: -1, length: 10 }], 4096), TypeError);
  assert.throws(() => native.punchZeros('/a', 'all' as unknown as [], 4096), TypeError);
  assert.throws(() => native.punchZeros('/a', [], 0), TypeError);
  assert.throws(() => native.createSparseFile('/a', 1.5), TypeError);
});
