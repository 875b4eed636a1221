// The Windows engine, run by Windows' node.exe (under Wine on Linux CI, `node scripts/check-windows.mjs`;
// natively on a Windows machine): the addon's primitives on real files of the volume holding the
// temporary folder, then the CLI as it ships. Plain JavaScript: no TypeScript loader runs here.
// Where Wine lacks an API a case depends on, it is skipped naming the API; on Windows it must pass.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const addonPath =
  process.env.PLUMB_NATIVE_PATH ?? path.join(root, 'native', 'build', 'Release', 'plumb.node');
const native = createRequire(import.meta.url)(addonPath);
const MiB = 1024 * 1024;

/** Wine's own files in the Windows folder: present under Wine, never on Windows. */
const underWine = existsSync(
  path.join(process.env.windir ?? 'C:\\windows', 'system32', 'winecfg.exe'),
);

let dir;
before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-win-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function randomBytes(bytes) {
  const data = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i += 4) data.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
  return data;
}

describe('volume facts', () => {
  test('volumeInfo names the drive, its file system and sizes', async () => {
    const info = await native.volumeInfo(dir);
    assert.equal(info.path, dir);
    assert.match(info.mountPoint, /^[A-Z]:\\$/);
    assert.ok(dir.toUpperCase().startsWith(info.mountPoint.toUpperCase()));
    assert.equal(typeof info.fsType, 'string');
    assert.ok(info.totalBytes > 0 && info.freeBytes <= info.totalBytes, JSON.stringify(info));
    assert.ok(info.availableBytes <= info.freeBytes);
    assert.ok(info.blockSize >= 512 && (info.blockSize & (info.blockSize - 1)) === 0);
    assert.ok([512, 4096].includes(info.directIoAlignment), String(info.directIoAlignment));
    assert.equal(info.readOnly, false);
    assert.equal(typeof info.supportsSparse, 'boolean');
  });

  test('volumeInfo of a missing folder rejects ENOENT with the path', async () => {
    const missing = path.join(dir, 'no-such-folder', 'deeper');
    await assert.rejects(native.volumeInfo(missing), (error) => {
      assert.equal(error.code, 'ENOENT');
      assert.equal(error.path, missing);
      return true;
    });
  });
});

describe('timed uncached transfers', () => {
  test('timedWrite then timedRead move every byte with FILE_FLAG_NO_BUFFERING', async () => {
    const file = path.join(dir, 'timed.bin');
    const bytes = 8 * MiB + 4096 * (1 + Math.floor(Math.random() * 64));
    const written = await native.timedWrite(file, bytes);
    assert.equal(written.bytes, bytes);
    assert.equal(written.cacheMode, 'direct');
    assert.ok(written.alignment >= 512);
    assert.equal(statSync(file).size, bytes);
    const { seconds } = written;
    assert.ok(seconds.transfer > 0 && seconds.total >= seconds.transfer + seconds.flush);
    const read = await native.timedRead(file);
    assert.equal(read.bytes, bytes);
    assert.equal(read.cacheMode, 'direct');
    assert.ok(read.seconds.transfer > 0);
  });

  test('a size that is not a multiple of the sector is written whole and read back', async () => {
    const file = path.join(dir, 'odd.bin');
    const bytes = 3 * MiB + 1 + Math.floor(Math.random() * 4000);
    await native.timedWrite(file, bytes);
    assert.equal(statSync(file).size, bytes);
    assert.equal((await native.timedRead(file)).bytes, bytes);
  });

  test('evictCache drops files before a read phase and names how', async () => {
    const files = [path.join(dir, 'evict-a.bin'), path.join(dir, 'evict-b.bin')];
    for (const file of files) writeFileSync(file, randomBytes(MiB));
    const evicted = await native.evictCache(files);
    assert.equal(evicted.files, 2);
    assert.match(evicted.method, /unbuffered open/);
    const missing = path.join(dir, 'evict-missing.bin');
    await assert.rejects(native.evictCache([missing]), (error) => {
      assert.equal(error.code, 'ENOENT');
      assert.equal(error.path, missing);
      return true;
    });
  });

  test('buffered mode says so', async () => {
    const file = path.join(dir, 'buffered.bin');
    const written = await native.timedWrite(file, 2 * MiB, { buffered: true });
    assert.equal(written.cacheMode, 'buffered');
    assert.equal(written.alignment, null);
  });

  test('cancel stops a write with ECANCELED and removes the partial file', async () => {
    const file = path.join(dir, 'cancelled.bin');
    const cancel = native.createCancel();
    const progress = [];
    const run = native.timedWrite(file, 2048 * MiB, {
      cancel,
      chunkBytes: MiB,
      onProgress: (p) => {
        progress.push(p.bytesDone);
        cancel.cancel();
      },
    });
    await assert.rejects(run, (error) => {
      assert.equal(error.code, 'ECANCELED');
      return true;
    });
    assert.ok(progress.length >= 1, 'a progress report arrived before the cancel');
    assert.equal(cancel.cancelled, true);
    assert.equal(existsSync(file), false);
  });
});

describe('queue depth', () => {
  test('randread Q8T2 keeps requests in flight with overlapped I/O', async () => {
    const file = path.join(dir, 'queue.bin');
    const samples = [];
    const result = await native.queueDepthRun(file, {
      op: 'randread',
      blockSize: 4096,
      queueDepth: 8,
      threads: 2,
      fileBytes: 16 * MiB,
      totalBytes: 8 * MiB,
      durationSeconds: 5,
      onSample: (sample) => samples.push(sample),
    });
    assert.equal(result.engine, 'overlapped');
    assert.equal(result.queueDepth, 8);
    assert.equal(result.threads, 2);
    assert.ok(result.bytes > 0 && result.bytes % 4096 === 0);
    assert.ok(result.iops > 0 && result.bytesPerSecond > 0);
    assert.ok(result.latency.p50 > 0 && result.latency.p50 <= result.latency.max);
    assert.ok(samples.length >= 1);
    assert.equal(result.samples.length, samples.length);
  });

  test('a write run leaves the test file its size', async () => {
    const file = path.join(dir, 'queue-write.bin');
    const result = await native.queueDepthRun(file, {
      op: 'randwrite',
      blockSize: 65536,
      queueDepth: 4,
      fileBytes: 8 * MiB,
      totalBytes: 4 * MiB,
    });
    assert.equal(result.op, 'randwrite');
    assert.ok(result.bytes >= 4 * MiB);
    assert.equal(statSync(file).size, 8 * MiB);
  });

  test('an engine Windows lacks is refused with ENOTSUP', async () => {
    await assert.rejects(
      native.queueDepthRun(path.join(dir, 'uring.bin'), {
        op: 'read',
        blockSize: 4096,
        queueDepth: 1,
        fileBytes: MiB,
        totalBytes: MiB,
        engine: 'io_uring',
      }),
      (error) => error.code === 'ENOTSUP',
    );
  });
});

describe('walk and space scan', () => {
  let tree;
  before(() => {
    tree = path.join(dir, 'tree');
    const copy = randomBytes(300 * 1024);
    for (const [name, data] of [
      ['a\\one.bin', copy],
      ['b\\two.bin', copy],
      ['b\\naïve ünïcode.bin', copy],
      ['c\\other.bin', randomBytes(300 * 1024)],
    ]) {
      const file = path.join(tree, name);
      rmSync(file, { force: true });
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, data);
    }
  });

  test('listFolders lists what Node lists, with sizes', async () => {
    const [listing] = await native.listFolders([path.join(tree, 'b')]);
    assert.equal(listing.error, null);
    assert.deepEqual([...listing.names].sort(), readdirSync(path.join(tree, 'b')).sort());
    for (let i = 0; i < listing.names.length; i += 1) {
      assert.equal(listing.kinds[i], 0);
      assert.equal(listing.numbers[7 * i + 3], 300 * 1024);
    }
  });

  test('listFolders reports a missing folder with its code and path', async () => {
    const missing = path.join(tree, 'gone');
    const [listing] = await native.listFolders([missing]);
    assert.equal(listing.error.code, 'ENOENT');
    assert.equal(listing.error.path, missing);
  });

  test('scanFolder finds the three copies, none shared yet', async () => {
    const result = await native.scanFolder({ path: tree, minBytes: 1024 });
    assert.equal(result.groups.length, 1, JSON.stringify(result.groups));
    const [group] = result.groups;
    assert.equal(group.files.length, 3);
    assert.ok(group.files.some((f) => f.path.endsWith('naïve ünïcode.bin')));
  });

  test('a rescan with the hash cache reads nothing unchanged; a change replaces the cache', async () => {
    // The rescan maps the last scan's cache file; the scan after a change replaces that file by a
    // rename, which Windows refuses while it is mapped.
    const cache = path.join(dir, 'scan.hashes');
    rmSync(cache, { force: true });
    const scan = () => native.scanFolder({ path: tree, minBytes: 1024, hashCache: cache });
    const first = await scan();
    assert.ok(first.contentRead.files >= 3, JSON.stringify(first.contentRead));
    const written = statSync(cache).mtimeMs;
    const unchanged = await scan();
    assert.deepEqual(unchanged.contentRead, { files: 0, bytes: 0 });
    assert.deepEqual(unchanged.groups, first.groups);
    const other = path.join(tree, 'c', 'other.bin');
    writeFileSync(other, randomBytes(300 * 1024));
    const changed = await scan();
    assert.ok(changed.contentRead.files >= 1, JSON.stringify(changed.contentRead));
    assert.ok(statSync(cache).mtimeMs >= written);
    assert.ok(!existsSync(`${cache}.tmp`), 'no temporary cache is left');
    const again = await scan();
    assert.deepEqual(again.contentRead, { files: 0, bytes: 0 });
    assert.equal(again.groups.length, 1);
  });

  test('scanFolder of a file rejects ENOTDIR', async () => {
    await assert.rejects(
      native.scanFolder({ path: path.join(tree, 'a', 'one.bin') }),
      (error) => error.code === 'ENOTDIR',
    );
  });
});

describe('sparse files', () => {
  /** A 64 MiB sparse file with 2 MiB of data at a random MiB; returns the data's offset. */
  function sparseWithData(file) {
    return native.createSparseFile(file, 64 * MiB).then(() => {
      assert.equal(statSync(file).size, 64 * MiB);
      const at = MiB * (1 + Math.floor(Math.random() * 60));
      const fd = openSync(file, 'r+');
      writeSync(fd, randomBytes(2 * MiB), 0, 2 * MiB, at);
      closeSync(fd);
      return at;
    });
  }

  test('punchZeros makes the zero blocks holes, keeping the content, size and times', async (t) => {
    const file = path.join(dir, 'punched.bin');
    const at = await sparseWithData(file);
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(MiB), 0, MiB, at + MiB / 2);
    closeSync(fd);
    const before = readFileSync(file);
    const mtimeMs = statSync(file).mtimeMs;
    let result;
    try {
      result = await native.punchZeros(file, [{ offset: at, length: 2 * MiB }], 4096);
    } catch (error) {
      if (underWine && error.code === 'ENOTSUP') {
        return t.skip(`Wine lacks FSCTL_SET_ZERO_DATA (${error.message})`);
      }
      throw error;
    }
    assert.deepEqual(result, { outcome: 'done', punchedBytes: MiB });
    assert.equal(statSync(file).mtimeMs, mtimeMs);
    assert.ok(readFileSync(file).equals(before));
  });

  test('punchZeros leaves a file another program has open as it is', async () => {
    const file = path.join(dir, 'held.bin');
    writeFileSync(file, Buffer.alloc(MiB));
    const held = openSync(file, 'r+');
    try {
      const result = await native.punchZeros(file, [{ offset: 0, length: MiB }], 4096);
      assert.deepEqual(result, { outcome: 'in-use', punchedBytes: 0 });
    } finally {
      closeSync(held);
    }
  });

  test('dataRanges finds the one range written, holes elsewhere', async (t) => {
    const file = path.join(dir, 'ranges.bin');
    const at = await sparseWithData(file);
    const map = await native.dataRanges(file);
    assert.equal(map.logicalBytes, 64 * MiB);
    if (!map.holesSupported) {
      assert.deepEqual(map.data, [{ offset: 0, length: 64 * MiB }]);
      if (underWine) return t.skip('Wine lacks FSCTL_QUERY_ALLOCATED_RANGES (ERROR_NOT_SUPPORTED)');
      assert.fail(`${file}: NTFS reports holes, yet dataRanges says it cannot`);
    }
    assert.equal(map.data.length, 1, JSON.stringify(map.data));
    const [range] = map.data;
    assert.ok(range.offset <= at && range.offset + range.length >= at + 2 * MiB);
    assert.ok(range.length < 4 * MiB);
  });

  test('createSparseFile refuses a file that exists, leaving it', async () => {
    const file = path.join(dir, 'exists.bin');
    writeFileSync(file, 'keep');
    await assert.rejects(native.createSparseFile(file, MiB), (error) => error.code === 'EEXIST');
    assert.equal(readFileSync(file, 'utf8'), 'keep');
  });
});

describe('sharing on a volume that cannot share', () => {
  test('clone and dedupe are refused with ENOTSUP and a sentence', async () => {
    const source = path.join(dir, 'share-a.bin');
    const target = path.join(dir, 'share-b.bin');
    const data = randomBytes(256 * 1024);
    writeFileSync(source, data);
    writeFileSync(target, data);
    assert.equal(await native.sharingSupport(source), false);
    const clone = path.join(dir, 'share-clone.bin');
    await assert.rejects(native.cloneFile(source, clone), (error) => {
      assert.equal(error.code, 'ENOTSUP');
      assert.ok(error.message.length > 10, error.message);
      return true;
    });
    assert.equal(existsSync(clone), false, 'no partial clone is left');
    await assert.rejects(native.dedupeFile(source, target), (error) => error.code === 'ENOTSUP');
    assert.deepEqual(readFileSync(target), data);
  });
});

describe('the Recycle Bin', () => {
  /**
   * Wine's IFileOperation is a stub: its methods answer E_NOTIMPL (0x80004001), which the addon
   * reports as code EWIN2147500033. Only that, and only under Wine, skips a case.
   */
  const wineStub = 'EWIN2147500033';
  const whyWine = (error) =>
    `Wine's IFileOperation is a stub (E_NOTIMPL), so nothing can be recycled under Wine: ${error.message}`;

  /** The bin of a file's drive, as Windows names it on NTFS ("C:\\$Recycle.Bin\\<SID>\\..."). */
  const inDrivesBin = (recycled, file) =>
    recycled
      .toLowerCase()
      .startsWith(path.join(path.parse(file).root, '$Recycle.Bin').toLowerCase());

  test('recycleFile moves a file out of its folder into its drive’s bin, with its $I record', async (t) => {
    const folder = path.join(dir, 'recycle');
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, 'photo copy.bin');
    const data = randomBytes(64 * 1024);
    writeFileSync(file, data);
    let moved;
    try {
      moved = await native.recycleFile(file);
    } catch (error) {
      if (underWine && error.code === wineStub) {
        // Even where it cannot recycle, nothing is lost: the file is where it was.
        assert.deepEqual(readFileSync(file), data);
        return t.skip(whyWine(error));
      }
      throw error;
    }
    assert.deepEqual(readdirSync(folder), [], 'the file left its folder');
    assert.ok(inDrivesBin(moved.recycledPath, file), moved.recycledPath);
    assert.match(path.basename(moved.recycledPath), /^\$R/);
    assert.deepEqual(readFileSync(moved.recycledPath), data);
    assert.match(path.basename(moved.infoPath), /^\$I/);
    // The $I record names where the file came from (UTF-16), so Explorer can restore it.
    const record = readFileSync(moved.infoPath).toString('utf16le').toLowerCase();
    assert.ok(record.includes('photo copy.bin'), moved.infoPath);
    rmSync(moved.recycledPath, { force: true });
    rmSync(moved.infoPath, { force: true });
  });

  test('plumb space trash --apply moves the copy to the bin, --empty deletes it from there', (t) => {
    const tree = path.join(dir, 'trash-cli');
    const data = randomBytes(256 * 1024);
    mkdirSync(path.join(tree, 'backup'), { recursive: true });
    const kept = path.join(tree, 'video.mov');
    const copy = path.join(tree, 'backup', 'video.mov');
    writeFileSync(kept, data);
    writeFileSync(copy, data);
    const plumb = (args) =>
      spawnSync(process.execPath, [path.join(root, 'bin', 'plumb.js'), ...args], {
        encoding: 'utf8',
        env: {
          ...process.env,
          PLUMB_NATIVE_PATH: addonPath,
          PLUMB_STATE_DIR: path.join(dir, 'state'),
        },
        timeout: 600_000,
      });
    const run = plumb(['space', 'trash', tree, '--apply', '--json']);
    assert.equal(run.status === 0 || run.status === 1, true, run.stderr);
    const report = JSON.parse(run.stdout).trash;
    assert.equal(report.trash.kind, 'recycle-bin');
    assert.equal(report.actions.length, 1);
    const [action] = report.actions;
    if (underWine && action.code === wineStub) {
      assert.equal(action.status, 'failed');
      assert.deepEqual([readFileSync(kept), readFileSync(copy)], [data, data]);
      return t.skip(whyWine({ message: action.reason }));
    }
    assert.equal(run.status, 0, run.stderr);
    assert.equal(action.status, 'moved', JSON.stringify(action));
    const moved = action.target === copy ? copy : kept;
    assert.equal(existsSync(moved), false, 'the copy left its folder');
    assert.ok(inDrivesBin(action.trashedPath, moved), action.trashedPath);
    assert.deepEqual(readFileSync(action.trashedPath), data);
    const empty = plumb(['space', 'trash', '--empty', report.batchId, '--apply', '--json']);
    assert.equal(empty.status, 0, empty.stderr);
    assert.equal(JSON.parse(empty.stdout).counts.deleted, 1);
    assert.equal(existsSync(action.trashedPath), false, 'deleted from the bin');
    assert.deepEqual(readFileSync(moved === copy ? kept : copy), data, 'the kept file stays');
  });
});

describe('errors', () => {
  test('reading a missing file rejects ENOENT with syscall and path', async () => {
    const missing = path.join(dir, 'missing.bin');
    await assert.rejects(native.timedRead(missing), (error) => {
      assert.equal(error.code, 'ENOENT');
      assert.equal(error.path, missing);
      assert.equal(typeof error.syscall, 'string');
      return true;
    });
  });

  test('writing into a missing folder rejects ENOENT', async () => {
    const file = path.join(dir, 'nowhere', 'x.bin');
    await assert.rejects(native.timedWrite(file, MiB), (error) => {
      assert.equal(error.code, 'ENOENT');
      assert.equal(error.path, file);
      return true;
    });
  });

  test('bad arguments throw TypeError', () => {
    assert.throws(() => native.timedWrite(42, MiB), TypeError);
    assert.throws(() => native.queueDepthRun(path.join(dir, 'q'), { op: 'sideways' }), TypeError);
  });

  // A device name opens the device in any folder: NUL reads as empty, CON would wait for input.
  test('a device name (NUL) is refused with EFTYPE, not read, written or removed', async () => {
    const device = path.join(dir, 'NUL');
    for (const [name, call] of [
      ['timedRead', () => native.timedRead(device)],
      ['timedWrite', () => native.timedWrite(device, MiB)],
      ['verifyFile', () => native.verifyFile(device, 1)],
      ['dataRanges', () => native.dataRanges(device)],
      ['fileSharing', () => native.fileSharing(device)],
    ]) {
      const started = Date.now();
      await assert.rejects(call(), (error) => error.code === 'EFTYPE', name);
      assert.ok(Date.now() - started < 1000, `${name} answered within a second`);
    }
    const hashed = await native.hashFiles([device]);
    assert.equal(hashed.failures[0]?.error.code, 'EFTYPE');
  });
});

describe('threads', () => {
  // A scan lists each level of folders on a pool of threads nobody joins; a chain of folders
  // makes one small pool after another. Built on std::thread (winpthreads, with mingw-w64), a
  // thread started just as the last one ended sometimes never ran: the scan never settled (one
  // 20-scan run in two hung under Wine) and other calls' handles were closed under them.
  test('scans of a folder chain 40 deep all settle, each finding its copy', async () => {
    let folder = path.join(dir, 'chain');
    for (let depth = 0; depth < 40; depth += 1) folder = path.join(folder, 'd');
    mkdirSync(folder, { recursive: true });
    const data = randomBytes(8192);
    writeFileSync(path.join(folder, 'deep.bin'), data);
    writeFileSync(path.join(dir, 'chain', 'top.bin'), data);
    for (let round = 0; round < 60; round += 1) {
      let timer;
      const limit = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`scan ${round} did not settle in 20 s`)), 20_000);
      });
      try {
        const result = await Promise.race([
          native.scanFolder({ path: path.join(dir, 'chain'), minBytes: 1 }),
          limit,
        ]);
        assert.equal(result.groups.length, 1, `scan ${round}`);
        assert.equal(result.groups[0].files.length, 2, `scan ${round}`);
      } finally {
        clearTimeout(timer);
      }
    }
  });
});

describe('worker threads', () => {
  // Terminating a worker mid-call used to end the process (a promise settled after JavaScript
  // stopped; the pool's threads in an unloaded addon). The suite itself is the process here.
  test('a worker terminated in the middle of a call leaves the process alive', async () => {
    const tree = path.join(dir, 'terminate');
    const files = [];
    for (let i = 0; i < 40; i += 1) {
      const file = path.join(tree, `d${i % 4}`, `f${i}.bin`);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, Buffer.alloc(256 * 1024, i % 5));
      files.push(file);
    }
    const calls = {
      hashFiles: `native.hashFiles(${JSON.stringify(files)}, { onProgress() {} })`,
      scanFolder: `native.scanFolder({ path: ${JSON.stringify(tree)} }, { onProgress() {} })`,
      timedWrite: `native.timedWrite(${JSON.stringify(path.join(tree, 'w'))} + Math.random(), 32 * 1024 * 1024)`,
      listFolders: `native.listFolders(${JSON.stringify([tree, tree, tree])})`,
    };
    for (const [name, call] of Object.entries(calls)) {
      for (let round = 0; round < 6; round += 1) {
        const worker = new Worker(
          `const native = require(${JSON.stringify(addonPath)});
           require('node:worker_threads').parentPort.postMessage('started');
           (async () => { for (;;) await ${call}.catch(() => {}); })();`,
          { eval: true },
        );
        await new Promise((resolve) => worker.once('message', resolve));
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 100));
        await worker.terminate();
      }
      const digests = await native.hashFiles(files);
      assert.equal(digests.failures.length, 0, `${name}: the next call works`);
    }
  });
});

describe('names', () => {
  // Windows names are UTF-16 and may hold an unpaired surrogate; the addon carries them whole
  // (WTF-8 inside, the same UTF-16 in JavaScript). Node's own fs cannot make such a name.
  test('a name with an unpaired surrogate round-trips through the addon', async (t) => {
    const folder = path.join(dir, 'surrogates');
    mkdirSync(folder, { recursive: true });
    const name = 'lone \ud800 and \udc80 units.bin';
    try {
      await native.createSparseFile(path.join(folder, name), 4096);
    } catch (error) {
      t.skip(`this file system cannot hold the name (${error.code}): Wine maps names to UTF-8`);
      return;
    }
    const [listing] = await native.listFolders([folder]);
    if (!listing.names.includes(name)) {
      t.skip(`the file system stored it as ${JSON.stringify(listing.names)} (Wine's UTF-8 names)`);
      return;
    }
    assert.equal((await native.timedRead(path.join(folder, name))).bytes, 4096);
  });
});

describe('the CLI', () => {
  const plumb = (args) => {
    const result = spawnSync(process.execPath, [path.join(root, 'bin', 'plumb.js'), ...args], {
      encoding: 'utf8',
      env: { ...process.env, PLUMB_NATIVE_PATH: addonPath, PLUMB_DATA_DIR: path.join(dir, 'data') },
      timeout: 600_000,
    });
    return result;
  };

  test('plumb info prints the volume facts', () => {
    const run = plumb(['info', dir, '--json']);
    assert.equal(run.status, 0, run.stderr);
    const info = JSON.parse(run.stdout);
    assert.equal(info.path, dir);
    assert.equal(typeof info.fsType, 'string');
    const text = plumb(['info', dir]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /File system/);
  });

  test('the Windows on Arm engine is refused on x64 in one sentence naming both', (t) => {
    const otherCpu = process.env.PLUMB_OTHER_CPU_ENGINE;
    if (!otherCpu || process.arch !== 'x64') {
      t.skip('PLUMB_OTHER_CPU_ENGINE (the arm64 engine, set by check-windows) is not given');
      return;
    }
    const result = spawnSync(process.execPath, [path.join(root, 'bin', 'plumb.js'), 'info', dir], {
      encoding: 'utf8',
      env: { ...process.env, PLUMB_NATIVE_PATH: otherCpu, PLUMB_DATA_DIR: path.join(dir, 'data') },
      timeout: 120_000,
    });
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /arm64[\\/]plumb\.node is for Windows arm64/);
    assert.match(result.stderr, /Install the Plumb download for Windows x64/);
  });

  test('plumb info on a missing folder: one line, non-zero exit', () => {
    const run = plumb(['info', path.join(dir, 'absent')]);
    assert.notEqual(run.status, 0);
    assert.match(run.stderr.trim(), /^[^\n]*absent[^\n]*$/);
  });

  test('plumb bench --plan standard --scale 0.01 writes a result and removes its files', () => {
    const target = path.join(dir, 'bench');
    mkdirSync(target);
    const out = path.join(dir, 'bench.json');
    const run = plumb(['bench', target, '--plan', 'standard', '--scale', '0.01', '--json', out]);
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(readFileSync(out, 'utf8'));
    assert.match(result.schema, /^plumb\.result\//);
    assert.equal(result.environment.cacheMode, 'direct');
    assert.match(result.environment.cacheEviction, /unbuffered open/);
    assert.ok(result.files.some((f) => f.phase === 'write'));
    assert.ok(result.files.some((f) => f.phase === 'read'));
    assert.ok(result.summary.write.median > 0 && result.summary.read.median > 0);
    assert.deepEqual(readdirSync(target), []);
  });

  test('plumb space scan finds the duplicates', () => {
    const tree = path.join(dir, 'scan');
    const data = randomBytes(200 * 1024);
    mkdirSync(path.join(tree, 'x'), { recursive: true });
    writeFileSync(path.join(tree, 'x', 'one.bin'), data);
    writeFileSync(path.join(tree, 'two.bin'), data);
    const run = plumb(['space', 'scan', tree, '--json']);
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.equal(result.groups.length, 1);
    assert.equal(result.groups[0].files.length, 2);
  });

  test('plumb space sparse --create then --copy-to copies it whole, holes kept', (t) => {
    const file = path.join(dir, 'cli-sparse.bin');
    const created = plumb(['space', 'sparse', file, '--create', '32MiB', '--json']);
    assert.equal(created.status, 0, created.stderr);
    const at = MiB * Math.floor(Math.random() * 31);
    const fd = openSync(file, 'r+');
    writeSync(fd, randomBytes(MiB), 0, MiB, at);
    closeSync(fd);
    const copy = path.join(dir, 'cli-sparse-copy.bin');
    const copied = plumb(['space', 'sparse', file, '--copy-to', copy, '--json']);
    assert.equal(copied.status, 0, copied.stderr);
    assert.ok(readFileSync(copy).equals(readFileSync(file)), 'the copy has the same bytes');
    const described = JSON.parse(copied.stdout);
    assert.equal(described.logicalBytes, 32 * MiB);
    if (!described.holesSupported) {
      if (underWine) return t.skip('Wine lacks FSCTL_QUERY_ALLOCATED_RANGES: holes not checked');
      assert.fail('NTFS reports holes');
    }
    assert.deepEqual(described.data.length, 1);
  });
});
