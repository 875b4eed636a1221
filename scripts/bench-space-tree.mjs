// The tree `npm run bench:space` scans: files of log-uniform sizes with a share of copies, written
// by one worker thread per core (no process per file). The same module is the workers' entry.
//
// A tree of more than IMAGE_FROM files (or any with --image) is built inside a loop-mounted ext4 image (1 KiB blocks,
// 256-byte inodes, small files kept inline in their inode), because as plain files on a 4 KiB-block
// disk ten million of them would take about 43 GB. The image is DIR.img beside DIR and is mounted
// at DIR; it needs root (mount, losetup). A kept image is mounted again by the next run with the
// same --dir, or by hand: `mount -o loop,noatime DIR.img DIR`, then
// `losetup --direct-io=on $(findmnt -no SOURCE DIR)` (readImageDirectly says why).
import { spawnSync } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, rmdirSync, statfsSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker, isMainThread, workerData } from 'node:worker_threads';

export const IMAGE_FROM = 2_000_000;
const POOL_BYTES = 64 * 1024 * 1024;
const BLOCK = 1024;
const INODE = 256;
const INLINE = 60; // what surely stays in the inode with inline_data (some more does)
const DIR_COUNT = 97 * 13;

/** Deterministic sizes: log-uniform from 1 KB to 16 MB, scaled so they add up to the total. */
export function fileSizes(count, total, seed = 12345) {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const raw = new Float64Array(count);
  let sum = 0;
  for (let i = 0; i < count; i += 1) {
    raw[i] = Math.exp(Math.log(1e3) + random() * Math.log(16e3));
    sum += raw[i];
  }
  const scale = total / sum;
  // At least the 4-byte stamp that keeps files apart (a million files in 1 GB go below it).
  const sizes = new Uint32Array(count);
  for (let i = 0; i < count; i += 1) sizes[i] = Math.max(4, Math.round(raw[i] * scale));
  return sizes;
}

const folderOf = (dir, i) => path.join(dir, `d${i % 97}`, `e${i % 13}`);

/** Where file `i` of a tree in `dir` is. */
export const filePath = (dir, i) => path.join(folderOf(dir, i), `f${i}.bin`);

/**
 * The file whose content file `i` holds: itself for the first (1 − duplicateShare) of them, the
 * uniques; a copy holds a unique's (two uniques never hold the same bytes).
 */
export function sourceOf(i, fileCount, duplicateShare) {
  const uniques = Math.round(fileCount * (1 - duplicateShare));
  return i < uniques ? i : (i * 31) % uniques;
}

/** Writes this worker's share of the tree: the files of the folders `(i % 97) % workers == index`. */
function writeShare({ dir, fileCount, totalBytes, duplicateShare, pool, index, workers }) {
  const bytes = new Uint8Array(pool);
  const sizes = fileSizes(fileCount, totalBytes);
  const content = (unique) => {
    const size = sizes[unique];
    const chunk = Buffer.alloc(size);
    if (size <= bytes.length) {
      const offset = (unique * 7919 * 64) % (bytes.length - size + 1);
      chunk.set(bytes.subarray(offset, offset + size));
    } else {
      randomFillSync(chunk);
    }
    chunk.writeUInt32LE(unique, 0); // two unique files never hold the same bytes
    return chunk;
  };
  for (let i = 0; i < fileCount; i += 1) {
    if ((i % 97) % workers !== index) continue;
    // A copy is of an earlier file, in another folder; written afresh, never a reflink.
    writeFileSync(filePath(dir, i), content(sourceOf(i, fileCount, duplicateShare)));
  }
}

if (!isMainThread && workerData?.benchSpaceTree) writeShare(workerData);

/** Bytes the files take in an image: inode tables plus the blocks of files too big to be inline. */
function imageBytes(fileCount, totalBytes) {
  const sizes = fileSizes(fileCount, totalBytes);
  let blocks = 0;
  for (const size of sizes) if (size > INLINE) blocks += Math.ceil(size / BLOCK);
  const inodes = Math.ceil((fileCount + DIR_COUNT + 100) * 1.02);
  // Directory entries (~24 bytes a file, blocks half full), 5 % slack and 256 MiB for metadata.
  const used = inodes * INODE + blocks * BLOCK + fileCount * 48;
  // One inode bitmap block covers 8 × BLOCK inodes per 8 × BLOCK blocks: at least a KiB an inode.
  const size = Math.max(used * 1.05 + 256 * 1024 ** 2, inodes * BLOCK * 1.05);
  return { inodes, size: Math.ceil(size / BLOCK) * BLOCK };
}

function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      `bench:space: ${command} ${args.join(' ')} failed: ${(result.stderr || result.error?.message || '').trim()}`,
    );
  }
  return result.stdout;
}

const mountedAt = (dir) => spawnSync('mountpoint', ['-q', dir]).status === 0;

/**
 * Reads the mounted image as a disk is read: a file system on a real disk caches its inodes and
 * blocks once, but a loop device over a file caches the image's blocks a second time, in the page
 * cache of the file that holds it. Ten million files' inodes and dentries take about 13 GB of a
 * 24 GB machine, and the image's second copy (up to 5 GB) pushed them out between one tool's walk
 * and its reads. So the loop device reads the image with O_DIRECT (`losetup --direct-io=on`, once
 * the tree is built: writing it is faster cached), and what the build left cached of the image is
 * dropped. Where that is refused the run says so and goes on, its figures counting the double cache.
 */
function readImageDirectly(dir, image) {
  const device = spawnSync('findmnt', ['-no', 'SOURCE', dir], { encoding: 'utf8' }).stdout.trim();
  const set = device.startsWith('/dev/loop')
    ? spawnSync('losetup', ['--direct-io=on', device], { encoding: 'utf8' })
    : { status: 1, stderr: `${dir} is not on a loop device` };
  if (set.status !== 0) {
    console.log(
      `bench:space: the image stays cached twice (${set.stderr.trim() || 'losetup failed'}): its figures count that`,
    );
    return;
  }
  // GNU dd with count=0 and iflag=nocache drops the whole file's cached pages.
  spawnSync('dd', [`if=${image}`, 'iflag=nocache', 'count=0', 'status=none']);
}

/** Refuses (one line) when `bytes` and `inodes` would leave less than a tenth of the disk free. */
function checkRoom(where, bytes, inodes) {
  const fs = statfsSync(where);
  const free = fs.bavail * fs.bsize;
  const reserve = Math.max(5e9, fs.blocks * fs.bsize * 0.1);
  const gb = (n) => `${(n / 1e9).toFixed(1)} GB`;
  if (bytes + reserve > free) {
    throw new Error(
      `bench:space: the tree needs up to ${gb(bytes)} and ${where} has ${gb(free)} free (${gb(reserve)} kept free): free some space, or pass fewer --files or a --dir elsewhere`,
    );
  }
  if (inodes + 100_000 > fs.ffree) {
    throw new Error(
      `bench:space: the tree needs ${inodes} inodes and ${where} has ${fs.ffree} free: pass fewer --files or a --dir elsewhere`,
    );
  }
}

/**
 * Makes sure DIR holds the tree: reuses a finished one (mounting its kept image first), builds it
 * otherwise. Returns `cleanup()`, which removes what this call made unless `keep`.
 */
export async function ensureTree({
  dir,
  fileCount,
  totalBytes,
  duplicateShare,
  keep,
  image: forceImage,
}) {
  const image = `${dir}.img`;
  const building = `${dir}.building`; // present while a build runs: a cut build is never reused
  const useImage = forceImage || fileCount > IMAGE_FROM;
  const nothing = () => {};
  if (existsSync(building)) {
    throw new Error(
      `bench:space: ${dir} holds a tree whose build was cut off: delete ${useImage ? `it (umount ${dir}; rm ${image})` : 'it'} and ${building}, then run again`,
    );
  }
  if (useImage && existsSync(image) && !mountedAt(dir)) {
    if (process.getuid?.() !== 0) {
      throw new Error(`bench:space: mounting the kept image ${image} needs root: run with sudo`);
    }
    mkdirSync(dir, { recursive: true });
    run('mount', ['-o', 'loop,noatime', image, dir]);
    console.log(`bench:space: mounted the kept image ${image} at ${dir}`);
  }
  if (existsSync(path.join(dir, 'd0'))) {
    if (useImage) readImageDirectly(dir, image);
    return { cleanup: nothing };
  }

  const started = performance.now();
  let cleanup = nothing;
  if (useImage) {
    if (process.getuid?.() !== 0) {
      throw new Error(
        `bench:space: ${fileCount} files are built in a loop-mounted ext4 image, which needs root: run with sudo, or pass --dir with an existing tree`,
      );
    }
    const { inodes, size } = imageBytes(fileCount, totalBytes);
    mkdirSync(dir, { recursive: true });
    checkRoom(path.dirname(image), size, 1);
    writeFileSync(building, '');
    console.log(
      `bench:space: an ext4 image of up to ${(size / 1e9).toFixed(1)} GB (sparse) for ${inodes} inodes: ${image}, mounted at ${dir}`,
    );
    run('truncate', ['-s', String(size), image]);
    // No journal and no lazy table zeroing: the image is a bench fixture, written once.
    run('mkfs.ext4', [
      '-q',
      '-F',
      '-b',
      String(BLOCK),
      '-I',
      String(INODE),
      '-N',
      String(inodes),
      '-m',
      '0',
      '-O',
      'inline_data,^has_journal',
      '-E',
      'lazy_itable_init=1,nodiscard',
      image,
    ]);
    run('mount', ['-o', 'loop,noatime,noinit_itable', image, dir]);
    cleanup = () => {
      run('umount', [dir]);
      rmSync(image, { force: true });
      rmdirSync(dir);
    };
  } else {
    // Plain files: each takes at least a block of the disk it is on.
    mkdirSync(dir, { recursive: true });
    const blockSize = statfsSync(dir).bsize;
    const sizes = fileSizes(fileCount, totalBytes);
    let bytes = 0;
    for (const size of sizes) bytes += Math.max(1, Math.ceil(size / blockSize)) * blockSize;
    checkRoom(dir, bytes, fileCount + DIR_COUNT);
    writeFileSync(building, '');
  }
  try {
    console.log(
      `bench:space: building ${fileCount} files, ${(totalBytes / 1e9).toFixed(2)} GB, ${duplicateShare * 100} % copies, in ${dir}`,
    );
    for (let i = 0; i < DIR_COUNT; i += 1) mkdirSync(folderOf(dir, i), { recursive: true });
    const pool = new SharedArrayBuffer(POOL_BYTES); // incompressible, sliced at varying offsets
    randomFillSync(new Uint8Array(pool));
    const workers = Math.max(1, Math.min(availableParallelism(), 8));
    await Promise.all(
      Array.from(
        { length: workers },
        (_, index) =>
          new Promise((resolve, reject) => {
            const worker = new Worker(new URL(import.meta.url), {
              workerData: {
                benchSpaceTree: true,
                dir,
                fileCount,
                totalBytes,
                duplicateShare,
                pool,
                index,
                workers,
              },
            });
            worker.on('error', reject);
            worker.on('exit', (code) =>
              code === 0 ? resolve() : reject(new Error(`bench:space: a writer exited ${code}`)),
            );
          }),
      ),
    );
    rmSync(building);
  } catch (error) {
    if (!keep) {
      cleanup();
      rmSync(building, { force: true });
    }
    throw error;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `bench:space: built in ${seconds.toFixed(1)} s (${Math.round(fileCount / seconds)} files/s)`,
  );
  if (useImage) {
    readImageDirectly(dir, image);
    const fs = statfsSync(dir);
    const used = (fs.blocks - fs.bfree) * fs.bsize;
    console.log(
      `bench:space: the image holds ${(used / 1e9).toFixed(1)} GB${keep ? `; remount it later with: mount -o loop,noatime ${image} ${dir}` : ''}`,
    );
  }
  return { cleanup };
}
