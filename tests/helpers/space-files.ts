/** Files for space tests: random content, exact copies, and snapshots of content and metadata. */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  constants,
  lstatSync,
  statfsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/** A file of `bytes` random (incompressible) bytes; returns its path. */
export function randomFile(file: string, bytes: number): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, randomBytes(bytes));
  return file;
}

/** A file `bytes` long with nothing written: all hole where the file system has holes. */
export function holeFile(file: string, bytes: number): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '');
  truncateSync(file, bytes);
  return file;
}

/** A real copy with its own blocks (never a reflink, whatever cp would default to). */
export function plainCopy(from: string, to: string): string {
  mkdirSync(path.dirname(to), { recursive: true });
  writeFileSync(to, readQuietly(from));
  return to;
}

/** A clone sharing all blocks with `from` (needs a reflink file system). */
export function reflinkCopy(from: string, to: string): string {
  copyFileSync(from, to, constants.COPYFILE_FICLONE_FORCE);
  return to;
}

/** Reads without touching the access time, so snapshots do not change what they record. */
export function readQuietly(file: string): Buffer {
  return readFileSync(file, { flag: constants.O_RDONLY | constants.O_NOATIME });
}

export function sha256(file: string): string {
  return createHash('sha256').update(readQuietly(file)).digest('hex');
}

export function setXattr(file: string, name: string, value: string): void {
  execFileSync('setfattr', ['-n', name, '-v', value, file]);
}

/** Every extended attribute, as `getfattr -d` prints them (empty when none). */
export function xattrs(file: string): string {
  return execFileSync('getfattr', ['-d', '-m', '-', '--absolute-names', file], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .sort()
    .join('\n');
}

/** What must not change when a copy becomes a clone (ctime, inode and birth time may, by design). */
export interface FileSnapshot {
  sha256: string;
  size: number;
  mode: number;
  uid: number;
  gid: number;
  atimeNs: bigint;
  mtimeNs: bigint;
  xattrs: string;
}

export function snapshot(file: string): FileSnapshot {
  const s = lstatSync(file, { bigint: true });
  return {
    sha256: sha256(file),
    size: Number(s.size),
    mode: Number(s.mode),
    uid: Number(s.uid),
    gid: Number(s.gid),
    atimeNs: s.atimeNs,
    mtimeNs: s.mtimeNs,
    xattrs: xattrs(file),
  };
}

export function folderTimes(dir: string): { atimeNs: bigint; mtimeNs: bigint } {
  const s = lstatSync(dir, { bigint: true });
  return { atimeNs: s.atimeNs, mtimeNs: s.mtimeNs };
}

/**
 * Free bytes of the file system holding `dir`, from statfs, after flushing delayed allocations and
 * once frees the file system makes in the background are done (XFS releases a deleted file's
 * blocks from a worker): three readings 25 ms apart must agree, within two seconds.
 */
export function freeBytes(dir: string): number {
  execFileSync('sync', ['-f', dir]);
  const read = () => {
    const out = statfsSync(dir);
    return out.bfree * out.bsize;
  };
  let last = read();
  const deadline = Date.now() + 2000;
  for (let agreeing = 1; agreeing < 3 && Date.now() < deadline;) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    const now = read();
    agreeing = now === last ? agreeing + 1 : 1;
    last = now;
  }
  return last;
}

/** Snapshots of every regular file under `root` (one getfattr call for the whole tree). */
export function snapshotTree(root: string): Map<string, FileSnapshot> {
  const attrs = new Map<string, string[]>();
  let current = '';
  const dump = execFileSync('getfattr', ['-R', '-d', '-m', '-', '--absolute-names', root], {
    encoding: 'utf8',
  });
  for (const line of dump.split('\n')) {
    if (line.startsWith('# file: ')) current = line.slice('# file: '.length);
    else if (line) attrs.set(current, [...(attrs.get(current) ?? []), line]);
  }
  const snapshots = new Map<string, FileSnapshot>();
  for (const name of readdirSync(root, { recursive: true }).map(String).sort()) {
    const file = path.join(root, name);
    const s = lstatSync(file, { bigint: true });
    if (!s.isFile()) continue;
    snapshots.set(file, {
      sha256: sha256(file),
      size: Number(s.size),
      mode: Number(s.mode),
      uid: Number(s.uid),
      gid: Number(s.gid),
      atimeNs: s.atimeNs,
      mtimeNs: s.mtimeNs,
      xattrs: (attrs.get(file) ?? []).sort().join('\n'),
    });
  }
  return snapshots;
}
