/**
 * Real file systems for tests: a loop-mounted image (ext4, xfs, btrfs, ...) or a tmpfs, made in a
 * temporary folder and torn down by `unmount()` (call it in `finally` / `after`). Needs root.
 * `loopSkipReason()` says why a test must skip; it is undefined where the facility exists.
 * A test process that was killed cannot tear its file systems down: their folders carry its id,
 * and the next mount removes those whose process is gone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { processAlive } from '../../app/core/process-alive.js';

export interface MountedFs {
  /** Where the file system is mounted; write test files under it. */
  dir: string;
  fsType: string;
  /** The loop device (`/dev/loopN`), or null for tmpfs. */
  device: string | null;
  /** Remounts read-only (or read-write again). */
  remount(readOnly: boolean): void;
  /** Unmounts, detaches the loop device and removes the image and folders. Safe to call twice. */
  unmount(): void;
}

export interface LoopOptions {
  /** Image size in bytes (default 256 MiB). */
  sizeBytes?: number;
  /** Extra mkfs arguments, e.g. ['-m', 'reflink=1'] for xfs. */
  mkfsArgs?: string[];
  /** Mount options, e.g. ['ro']. */
  mountOptions?: string[];
  /** Attach the loop device with --direct-io=on, so I/O to it bypasses the host's page cache. */
  directIo?: boolean;
  /** Logical sector size of the loop device (512 default; 4096 makes a 4Kn disk). */
  sectorSize?: number;
}

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function hasCommand(name: string): boolean {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/sbin'])) {
    if (dir && existsSync(path.join(dir, name))) return true;
  }
  return false;
}

function isRoot(): boolean {
  return process.platform === 'linux' && process.getuid?.() === 0;
}

/** Why a loop file system of `fsType` cannot be made here, or undefined when it can. */
export function loopSkipReason(fsType: string): string | undefined {
  if (process.platform !== 'linux') return 'loop mounts are a Linux test facility';
  if (!isRoot()) return 'loop mounts need root (CI runs as root)';
  if (!existsSync('/dev/loop-control')) return 'no loop device support (/dev/loop-control missing)';
  if (!hasCommand('losetup')) return 'losetup is not installed (util-linux)';
  if (!hasCommand(`mkfs.${fsType}`)) {
    const pkg = { xfs: 'xfsprogs', btrfs: 'btrfs-progs', ext4: 'e2fsprogs' }[fsType] ?? fsType;
    return `mkfs.${fsType} is not installed (apt-get install ${pkg})`;
  }
  return undefined;
}

/** Why a tmpfs cannot be mounted here, or undefined when it can. */
export function tmpfsSkipReason(): string | undefined {
  if (process.platform !== 'linux') return 'tmpfs mounts are a Linux test facility';
  if (!isRoot()) return 'mounting a tmpfs needs root (CI runs as root)';
  return undefined;
}

function unmountQuietly(dir: string): void {
  try {
    run('umount', [dir]);
  } catch {
    // Busy (a test left a file open): detach lazily so the folder can still go.
    try {
      run('umount', ['-l', dir]);
    } catch {
      // not mounted
    }
  }
}

/** A mount's folder: `plumb-<fs type>-p<the test process's id>-<random>` in the temporary folder. */
const folderName = /^plumb-[a-z0-9]+-p(\d+)-/;

function mountFolder(fsType: string): string {
  removeOrphans();
  return mkdtempSync(path.join(tmpdir(), `plumb-${fsType}-p${process.pid}-`));
}

/**
 * Unmounts and removes the file systems of test processes that are gone (killed before their
 * `unmount()`: an interrupted run), with the loop devices their images are attached to.
 * Returns the folders removed.
 */
export function removeOrphans(): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(tmpdir())) {
    const owner = folderName.exec(name)?.[1];
    if (!owner || processAlive(Number(owner))) continue;
    const base = path.join(tmpdir(), name);
    const mnt = path.join(base, 'mnt');
    for (const dir of [mnt, base]) if (isMountPoint(dir)) unmountQuietly(dir);
    const image = path.join(base, 'image');
    // Another test process may be removing the same folder: what it did first is not an error.
    try {
      if (existsSync(image)) {
        for (const line of run('losetup', ['-j', image]).split('\n')) {
          const device = line.split(':')[0];
          if (device) run('losetup', ['-d', device]);
        }
      }
      rmSync(base, { recursive: true, force: true });
      removed.push(base);
    } catch {
      // gone meanwhile, or its device still busy: the next mount tries again
    }
  }
  return removed;
}

function isMountPoint(dir: string): boolean {
  try {
    run('mountpoint', ['-q', dir]);
    return true;
  } catch {
    return false;
  }
}

/** Makes an image of `fsType`, attaches it to a loop device and mounts it. */
export function mountLoopFs(fsType: string, options: LoopOptions = {}): MountedFs {
  const reason = loopSkipReason(fsType);
  if (reason) throw new Error(`cannot make a ${fsType} loop file system: ${reason}`);
  const base = mountFolder(fsType);
  const image = path.join(base, 'image');
  const dir = path.join(base, 'mnt');
  let device: string | null = null;
  let mounted = false;
  const cleanup = (): void => {
    if (mounted) unmountQuietly(dir);
    mounted = false;
    if (device) {
      try {
        run('losetup', ['-d', device]);
      } catch {
        // already detached (autoclear)
      }
      device = null;
    }
    rmSync(base, { recursive: true, force: true });
  };
  try {
    run('truncate', ['-s', String(options.sizeBytes ?? 256 * 1024 * 1024), image]);
    const mkfsQuiet = fsType === 'xfs' || fsType === 'ext4' ? ['-q'] : [];
    const mkfsForce = fsType === 'xfs' || fsType === 'btrfs' ? ['-f'] : ['-F'];
    run(`mkfs.${fsType}`, [...mkfsQuiet, ...mkfsForce, ...(options.mkfsArgs ?? []), image]);
    const attach = ['--find', '--show'];
    if (options.directIo) attach.push('--direct-io=on');
    if (options.sectorSize) attach.push('--sector-size', String(options.sectorSize));
    device = run('losetup', [...attach, image]).trim();
    run('mkdir', ['-p', dir]);
    const mountArgs = options.mountOptions?.length ? ['-o', options.mountOptions.join(',')] : [];
    run('mount', ['-t', fsType, ...mountArgs, device, dir]);
    mounted = true;
  } catch (error) {
    cleanup();
    throw error;
  }
  return {
    dir,
    fsType,
    device,
    remount(readOnly: boolean): void {
      run('mount', ['-o', `remount,${readOnly ? 'ro' : 'rw'}`, dir]);
    },
    unmount: cleanup,
  };
}

/** Mounts a tmpfs of `sizeBytes` (default 64 MiB) in a temporary folder. */
export function mountTmpfs(sizeBytes = 64 * 1024 * 1024): MountedFs {
  const reason = tmpfsSkipReason();
  if (reason) throw new Error(`cannot mount a tmpfs: ${reason}`);
  const base = mountFolder('tmpfs');
  let mounted = false;
  const cleanup = (): void => {
    if (mounted) unmountQuietly(base);
    mounted = false;
    rmSync(base, { recursive: true, force: true });
  };
  try {
    run('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'plumb-test', base]);
    mounted = true;
  } catch (error) {
    cleanup();
    throw error;
  }
  return {
    dir: base,
    fsType: 'tmpfs',
    device: null,
    remount(readOnly: boolean): void {
      run('mount', ['-o', `remount,${readOnly ? 'ro' : 'rw'}`, base]);
    },
    unmount: cleanup,
  };
}
