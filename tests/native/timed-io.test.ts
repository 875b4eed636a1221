import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { loadNative } from '../../app/core/native/load.js';
import { loopSkipReason, mountLoopFs, mountTmpfs, tmpfsSkipReason } from '../helpers/loopfs.js';

const native = loadNative();
const MiB = 1024 * 1024;
let dir = '';

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'plumb-timed-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function phasesAddUp(seconds: {
  open: number;
  transfer: number;
  flush: number;
  close: number;
  total: number;
}): void {
  for (const value of Object.values(seconds)) assert.ok(value >= 0 && Number.isFinite(value));
  const sum = seconds.open + seconds.transfer + seconds.flush + seconds.close;
  assert.ok(Math.abs(sum - seconds.total) < 1e-6, `phases ${sum} vs total ${seconds.total}`);
}

test('ext4: timedWrite and timedRead go direct, with phase timings and progress events', async () => {
  const file = path.join(dir, 'direct.bin');
  const bytes = 64 * MiB + 1000; // not a multiple of the alignment: padded, then cut to size
  const progress: number[] = [];
  const written = await native.timedWrite(file, bytes, {
    chunkBytes: MiB,
    onProgress: (p) => progress.push(p.bytesDone),
  });
  assert.equal(written.cacheMode, 'direct');
  assert.equal(written.bytes, bytes);
  assert.equal(written.chunkBytes, MiB);
  assert.ok(written.alignment !== null && written.alignment >= 512);
  assert.ok(written.seconds.transfer > 0);
  phasesAddUp(written.seconds);
  assert.equal(statSync(file).size, bytes);
  for (let i = 1; i < progress.length; i += 1) assert.ok(progress[i]! >= progress[i - 1]!);

  const read = await native.timedRead(file);
  assert.equal(read.cacheMode, 'direct');
  assert.equal(read.bytes, bytes);
  assert.equal(read.seconds.flush, 0);
  phasesAddUp(read.seconds);
});

test('written data is incompressible and no two 4 KiB blocks are equal', async () => {
  const file = path.join(dir, 'random.bin');
  await native.timedWrite(file, 16 * MiB, { chunkBytes: MiB });
  const data = readFileSync(file);
  const compressed = deflateSync(data, { level: 6 });
  assert.ok(compressed.length > data.length * 0.99, `compressed to ${compressed.length}`);
  const seen = new Set<string>();
  for (let at = 0; at < data.length; at += 4096) {
    seen.add(
      createHash('sha1')
        .update(data.subarray(at, at + 4096))
        .digest('hex'),
    );
  }
  assert.equal(seen.size, data.length / 4096);
});

test('files under a chunk, direct, at the default chunk: exact size, every block its own', async () => {
  // Small files are written from buffers of their own size (rounded up to 1 MiB), not the chunk's.
  for (const bytes of [0, 1000, 10_000, MiB + 1, 3 * MiB]) {
    const file = path.join(dir, `small-${bytes}.bin`);
    const written = await native.timedWrite(file, bytes, {});
    assert.equal(written.bytes, bytes);
    assert.equal(written.cacheMode, 'direct');
    assert.equal(statSync(file).size, bytes);
    const data = readFileSync(file);
    const blocks = new Set<string>();
    for (let at = 0; at + 4096 <= data.length; at += 4096)
      blocks.add(
        createHash('sha1')
          .update(data.subarray(at, at + 4096))
          .digest('hex'),
      );
    assert.equal(blocks.size, Math.floor(bytes / 4096), `${bytes} bytes: a block repeats`);
  }
});

test('buffered: true is honoured and reported', async () => {
  const file = path.join(dir, 'buffered.bin');
  const written = await native.timedWrite(file, 4 * MiB, { buffered: true });
  assert.equal(written.cacheMode, 'buffered');
  assert.equal(written.alignment, null);
  const read = await native.timedRead(file, { buffered: true });
  assert.equal(read.cacheMode, 'buffered');
  assert.equal(read.bytes, 4 * MiB);
});

test('tmpfs: direct I/O would only pretend there, so the result says buffered', async (t) => {
  const reason = tmpfsSkipReason();
  if (reason) return t.skip(reason);
  const fs = mountTmpfs(32 * MiB);
  try {
    const file = path.join(fs.dir, 'f.bin');
    const written = await native.timedWrite(file, 8 * MiB);
    assert.equal(written.cacheMode, 'buffered');
    const read = await native.timedRead(file);
    assert.equal(read.cacheMode, 'buffered');
    assert.equal(read.bytes, 8 * MiB);
  } finally {
    fs.unmount();
  }
});

test('xfs loop mount: direct write and read', async (t) => {
  const reason = loopSkipReason('xfs');
  if (reason) return t.skip(reason);
  const fs = mountLoopFs('xfs', { sizeBytes: 320 * MiB });
  try {
    const file = path.join(fs.dir, 'f.bin');
    const written = await native.timedWrite(file, 32 * MiB);
    assert.equal(written.cacheMode, 'direct');
    const read = await native.timedRead(file, { chunkBytes: 256 * 1024 });
    assert.equal(read.cacheMode, 'direct');
    assert.equal(read.bytes, 32 * MiB);
  } finally {
    fs.unmount();
  }
});

test('ENOSPC on a 64 MiB file system: a clean error and no partial file', async (t) => {
  const reason = loopSkipReason('ext4');
  if (reason) return t.skip(reason);
  const fs = mountLoopFs('ext4', { sizeBytes: 64 * MiB });
  try {
    const file = path.join(fs.dir, 'too-big.bin');
    await assert.rejects(native.timedWrite(file, 128 * MiB), (error: NodeJS.ErrnoException) => {
      assert.equal(error.code, 'ENOSPC');
      assert.equal(error.syscall, 'write');
      assert.equal(error.path, file);
      assert.match(error.message, /free some space/);
      return true;
    });
    assert.equal(existsSync(file), false);
  } finally {
    fs.unmount();
  }
});

test('read-only mount: EROFS with syscall and path', async (t) => {
  const reason = loopSkipReason('ext4');
  if (reason) return t.skip(reason);
  const fs = mountLoopFs('ext4', { sizeBytes: 64 * MiB });
  try {
    writeFileSync(path.join(fs.dir, 'existing.bin'), Buffer.alloc(8192, 1));
    fs.remount(true);
    const file = path.join(fs.dir, 'new.bin');
    await assert.rejects(native.timedWrite(file, MiB), {
      code: 'EROFS',
      syscall: 'open',
      path: file,
    });
    const read = await native.timedRead(path.join(fs.dir, 'existing.bin'));
    assert.equal(read.bytes, 8192);
  } finally {
    fs.unmount();
  }
});

test('missing file and directory errors carry code, syscall and path', async () => {
  const missing = path.join(dir, 'nope', 'file.bin');
  await assert.rejects(native.timedRead(missing), {
    code: 'ENOENT',
    syscall: 'open',
    path: missing,
  });
  await assert.rejects(native.timedWrite(missing, 10), { code: 'ENOENT', syscall: 'open' });
  await assert.rejects(native.timedRead(dir), { code: 'EISDIR' });
});

// The engine checks for a cancel before each chunk (4 MiB by default: 8 ms at 500 MB/s), so a
// cancel stops a write in tens of milliseconds; the bound leaves room for a busy machine (a
// fresh-clone CI run of 2026-12-03 took 375 ms with another test's I/O beside it), while a cancel
// that waited for the write (64 GiB) would take minutes.
test('cancel mid-write stops within a second and removes the partial file', async () => {
  const file = path.join(dir, 'cancelled.bin');
  const cancel = native.createCancel();
  let cancelledAt = 0;
  const run = native.timedWrite(file, 64 * 1024 * MiB, {
    chunkBytes: MiB,
    cancel,
    onProgress: (p) => {
      if (p.bytesDone > 0 && !cancel.cancelled) {
        cancelledAt = performance.now();
        cancel.cancel();
      }
    },
  });
  await assert.rejects(run, { code: 'ECANCELED', path: file });
  const stoppedAfter = performance.now() - cancelledAt;
  assert.ok(cancel.cancelled);
  assert.ok(stoppedAfter < 1000, `stopped ${stoppedAfter.toFixed(1)} ms after cancel`);
  assert.equal(existsSync(file), false);
});

test('an exception in onProgress stops the transfer and rejects with it', async () => {
  const file = path.join(dir, 'throws.bin');
  await assert.rejects(
    native.timedWrite(file, 64 * 1024 * MiB, {
      chunkBytes: MiB,
      onProgress: () => {
        throw new Error('listener failed');
      },
    }),
    /listener failed/,
  );
  assert.equal(existsSync(file), false);
});

test('a 4Kn disk: alignment 4096 is used, and a chunk size it cannot take is an EINVAL', async (t) => {
  const reason = loopSkipReason('xfs');
  if (reason) return t.skip(reason);
  const fs = mountLoopFs('xfs', {
    sizeBytes: 320 * MiB,
    sectorSize: 4096,
    mkfsArgs: ['-s', 'size=4096'],
  });
  try {
    const info = await native.volumeInfo(fs.dir);
    assert.equal(info.directIoAlignment, 4096);
    const file = path.join(fs.dir, 'f.bin');
    const written = await native.timedWrite(file, MiB + 512);
    assert.equal(written.alignment, 4096);
    assert.equal(statSync(file).size, MiB + 512);
    await assert.rejects(
      native.timedWrite(path.join(fs.dir, 'odd.bin'), MiB, { chunkBytes: 512 }),
      {
        code: 'EINVAL',
        message: /not a multiple of the 4096-byte alignment/,
      },
    );
    assert.equal(existsSync(path.join(fs.dir, 'odd.bin')), false);
  } finally {
    fs.unmount();
  }
});

test('the clock that times each call costs well under a microsecond', () => {
  const nanos = native.clockOverheadNanos();
  assert.ok(nanos > 0 && nanos < 1000, `${nanos} ns per reading`);
});

test('evictCache drops the files from the page cache (fincore shows none resident)', async (t) => {
  const fincore = (file: string) =>
    execFileSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', file], {
      encoding: 'utf8',
    }).trim();
  try {
    execFileSync('fincore', ['--version']);
  } catch {
    return t.skip('fincore (util-linux) is not installed');
  }
  const files = [1, 2].map((i) => path.join(dir, `evict-${i}.bin`));
  for (const file of files) {
    writeFileSync(file, randomBytes(4 * 1024 * 1024 + Math.floor(Math.random() * 65536)));
    execFileSync('sync', [file]); // clean pages: dirty ones are not dropped by DONTNEED
    readFileSync(file); // and resident
    assert.notEqual(fincore(file), '0', `${file} is cached before`);
  }
  const evicted = await native.evictCache(files);
  assert.deepEqual(evicted, { method: 'posix_fadvise(POSIX_FADV_DONTNEED)', files: 2 });
  for (const file of files) assert.equal(fincore(file), '0', `${file} is not cached after`);
  const missing = path.join(dir, 'evict-missing.bin');
  await assert.rejects(native.evictCache([missing]), (error: NodeJS.ErrnoException) => {
    assert.equal(error.code, 'ENOENT');
    assert.equal(error.path, missing);
    return true;
  });
});

test('samples inside the file: from the start to the end, at least every sampleBytes, in bulk', async () => {
  const file = path.join(dir, 'sampled.bin');
  const bytes = 48 * MiB + 4096;
  const written = await native.timedWrite(file, bytes, { chunkBytes: MiB, sampleBytes: 3 * MiB });
  const { seconds, bytes: moved } = written.samples;
  assert.ok(seconds instanceof Float64Array && moved instanceof Float64Array);
  assert.equal(seconds.length, moved.length);
  assert.equal(moved[0], 0, 'the first sample is where the transfer began');
  assert.equal(moved.at(-1), bytes, 'the last is where it ended');
  assert.ok(seconds[0]! >= written.seconds.open - 1e-9);
  // The last one is taken after the flush: the flush's time counts for the bytes before it.
  assert.ok(Math.abs(seconds.at(-1)! - (written.seconds.total - written.seconds.close)) < 1e-3);
  for (let i = 1; i < moved.length; i += 1) {
    assert.ok(seconds[i]! >= seconds[i - 1]! && moved[i]! > moved[i - 1]!, `sample ${i}`);
    // At most one 1 MiB chunk beyond the bound (samples are taken between chunks).
    assert.ok(moved[i]! - moved[i - 1]! <= 4 * MiB, `gap ${moved[i]! - moved[i - 1]!}`);
  }
  const read = await native.timedRead(file, { chunkBytes: MiB, sampleBytes: 3 * MiB });
  assert.equal(read.samples.bytes[0], 0);
  assert.equal(read.samples.bytes.at(-1), bytes);
  assert.ok(read.samples.bytes.length >= Math.floor(bytes / (4 * MiB)));

  // Off (only to measure what sampling costs): none taken.
  const off = await native.timedRead(file, { sampleSeconds: 0 });
  assert.equal(off.samples.seconds.length, 0);
  assert.throws(() => native.timedRead(file, { sampleSeconds: 0.0001 }), /sampleSeconds/);
  assert.throws(() => native.timedRead(file, { sampleBytes: 10 }), /sampleBytes/);
});
