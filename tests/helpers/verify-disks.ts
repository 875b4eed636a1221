/**
 * Disks that lie, for the --verify tests (root, Linux): a fake-capacity disk (tests/helpers/
 * wrapfs.c serving an image whose offsets beyond its real size wrap to the start, a loop device
 * over it, ext4 on top), and the physical place of a file's blocks (FIEMAP through filefrag), to
 * predict what a drive returns or to change bytes behind the file system's back.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loopSkipReason } from './loopfs.js';

const wrapfsSource = path.join(path.dirname(fileURLToPath(import.meta.url)), 'wrapfs.c');

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Why a fake-capacity disk cannot be made here, or undefined when it can. */
export function fakeDiskSkipReason(): string | undefined {
  const loop = loopSkipReason('ext4');
  if (loop) return loop;
  if (!existsSync('/dev/fuse')) return 'no FUSE (/dev/fuse missing)';
  try {
    run('pkg-config', ['--exists', 'fuse3']);
    run('cc', ['--version']);
    run('fusermount3', ['-V']);
  } catch {
    return 'building the FUSE fake needs cc, pkg-config, libfuse3-dev and fuse3';
  }
  return undefined;
}

export interface FakeDisk {
  /** The ext4 mount on the fake disk. */
  dir: string;
  /** Bytes the disk keeps; every offset at or beyond wraps back to offset % realBytes. */
  realBytes: number;
  claimedBytes: number;
  /** Bytes at the start of the disk the file system's own metadata holds (group 0 up to its first free block). */
  metadataBytes: number;
  /** Unmounts everything and removes the files; safe to call twice. */
  remove(): void;
}

/** Waits (polling, synchronously: the daemon is another process) until `check` holds. */
function waitFor(check: () => boolean, what: string): void {
  const until = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    execFileSync('sleep', ['0.05']);
  }
}

/**
 * A fake-capacity disk: ext4 (4 KiB blocks, no journal, no backup superblocks, so mkfs writes only
 * the start of the disk) on a loop device over wrapfs' /disk.img.
 */
export function makeFakeDisk(realBytes: number, claimedBytes: number): FakeDisk {
  const base = mkdtempSync(path.join(tmpdir(), 'plumb-verify-fake-'));
  const binary = path.join(base, 'wrapfs');
  const backing = path.join(base, 'real.img');
  const fuseDir = path.join(base, 'fuse');
  const dir = path.join(base, 'mnt');
  let daemon: ChildProcess | null = null;
  let device: string | null = null;
  let fuseMounted = false;
  let mounted = false;
  const remove = () => {
    if (mounted) {
      try {
        run('umount', [dir]);
      } catch {
        run('umount', ['-l', dir]);
      }
      mounted = false;
    }
    if (device) {
      run('losetup', ['-d', device]);
      device = null;
    }
    if (fuseMounted) {
      try {
        run('fusermount3', ['-u', fuseDir]);
      } catch {
        run('umount', ['-l', fuseDir]);
      }
      fuseMounted = false;
    }
    if (daemon && daemon.exitCode === null) daemon.kill();
    daemon = null;
    rmSync(base, { recursive: true, force: true });
  };
  try {
    const cflags = run('pkg-config', ['fuse3', '--cflags', '--libs']).trim().split(/\s+/);
    run('cc', ['-O2', '-Wall', '-o', binary, wrapfsSource, ...cflags]);
    writeFileSync(backing, '');
    truncateSync(backing, realBytes);
    mkdirSync(fuseDir);
    mkdirSync(dir);
    daemon = spawn(binary, [backing, String(claimedBytes), fuseDir, '-f', '-s'], {
      stdio: 'ignore',
    });
    fuseMounted = true;
    const image = path.join(fuseDir, 'disk.img');
    waitFor(() => existsSync(image), 'the FUSE fake to mount');
    device = run('losetup', ['--find', '--show', image]).trim();
    run('mkfs.ext4', [
      '-q',
      '-F',
      '-b',
      '4096',
      '-N',
      '1024',
      '-O',
      '^has_journal,^resize_inode,sparse_super2',
      '-E',
      'num_backup_sb=0,lazy_itable_init=1,nodiscard',
      device,
    ]);
    const groups = run('dumpe2fs', [device]);
    const firstFree = Number(/Group 0:[\s\S]*?Free blocks: (\d+)/.exec(groups)?.[1]);
    if (!Number.isInteger(firstFree)) throw new Error(`dumpe2fs gave no free blocks:\n${groups}`);
    run('mount', [device, dir]);
    mounted = true;
    return { dir, realBytes, claimedBytes, metadataBytes: firstFree * 4096, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

export interface Extent {
  /** Byte offset in the file, byte offset on the device, bytes. */
  logical: number;
  physical: number;
  bytes: number;
}

/** Where a file's bytes are on its device (filefrag -v, which asks FIEMAP). */
export function fileExtents(file: string): Extent[] {
  const out = run('filefrag', ['-v', file]);
  const unit = Number(/blocks? of (\d+) bytes/.exec(out)?.[1]);
  if (!unit) throw new Error(`filefrag gave no block size for ${file}:\n${out}`);
  const extents: Extent[] = [];
  for (const line of out.split('\n')) {
    const m = /^\s*\d+:\s*(\d+)\.\.\s*(\d+):\s*(\d+)\.\.\s*(\d+):/.exec(line);
    if (!m) continue;
    const [first, last, physical] = [Number(m[1]), Number(m[2]), Number(m[3])];
    extents.push({
      logical: first * unit,
      physical: physical * unit,
      bytes: (last - first + 1) * unit,
    });
  }
  return extents;
}

/** The device byte offset of byte `offset` of a file. */
export function physicalOffset(extents: readonly Extent[], offset: number): number {
  const extent = extents.find((e) => offset >= e.logical && offset < e.logical + e.bytes);
  if (!extent) throw new Error(`offset ${offset} is in no extent`);
  return extent.physical + (offset - extent.logical);
}

export function dropCaches(): void {
  run('sync', []);
  execFileSync('sh', ['-c', 'echo 3 > /proc/sys/vm/drop_caches']);
}

/** The run's test files in the order written (file-00000.dat, ...), under the kept test folder. */
export function keptFiles(dir: string): string[] {
  const folder = readdirSync(dir).find((name) => name.startsWith('plumb-test-'));
  if (!folder) throw new Error(`the test files were not kept in ${dir}`);
  return readdirSync(path.join(dir, folder))
    .filter((name) => name.startsWith('file-'))
    .sort()
    .map((name) => path.join(dir, folder, name));
}

const block = 4096;

export interface PlacedBlock {
  file: string;
  offset: number;
  bytes: number;
  order: number;
  /** Where the wrap puts the block on the real image. */
  key: number;
  physical: number;
}

/**
 * What a wrapping disk returns: of the blocks that land on one place of the real image, the one
 * written last is read back for all of them, so every other one is bad.
 */
export function predictWrap(files: readonly string[], realBytes: number) {
  const placed: PlacedBlock[] = [];
  for (const file of files) {
    const size = statSync(file).size;
    const extents = fileExtents(file);
    for (let offset = 0; offset < size; offset += block) {
      const physical = physicalOffset(extents, offset);
      placed.push({
        file: path.basename(file),
        offset,
        bytes: Math.min(block, size - offset),
        order: placed.length,
        key: physical % realBytes,
        physical,
      });
    }
  }
  const last = new Map<number, PlacedBlock>();
  for (const p of placed) last.set(p.key, p);
  const bad = placed.filter((p) => last.get(p.key) !== p);
  return { placed, bad, last };
}
