/**
 * The folder walk behind a space scan: parallel, on one volume, never through symbolic links, each
 * file once however many hard links it has, with safe default skips.
 */
import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { PlumbError } from '../../contract/errors.js';

export interface WalkOptions {
  minBytes: number;
  includeHidden: boolean;
  skipPackages: boolean;
  skipCloudFolders: boolean;
  signal?: AbortSignal;
  /** Called after each folder with running counts. */
  onProgress?: (files: number, bytes: number) => void;
}

/** A regular file found by the walk, with what a later step needs to see it unchanged. */
export interface WalkedFile {
  path: string;
  size: number;
  dev: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  /** Names of this file seen in the walk (hard links), at least 1. */
  links: number;
}

export interface WalkSkips {
  symlinks: number;
  otherVolumes: number;
  extraHardLinks: number;
  special: number;
  excluded: number;
  unreadable: number;
}

export interface WalkResult {
  root: string;
  dev: number;
  /** Files of at least minBytes, one per inode. */
  files: WalkedFile[];
  /** Every regular file seen (one per inode), and their bytes, whatever their size. */
  fileCount: number;
  byteCount: number;
  sparse: { files: number; logicalBytes: number; allocatedBytes: number };
  /** Paths of the files counted in `sparse`. */
  sparsePaths: string[];
  skipped: WalkSkips;
}

/** Temporary clones Plumb makes beside a file while replacing it; never scanned. */
export const tempPrefix = '.plumb-clone-';

/** macOS bundles that apps manage as one document; changing their insides is the app's business. */
const packageExtensions = new Set([
  '.app', '.bundle', '.framework', '.plugin', '.kext', '.appex', '.xpc',
  '.photoslibrary', '.photolibrary', '.musiclibrary', '.tvlibrary', '.imovielibrary',
  '.aplibrary', '.fcpbundle', '.logicx', '.band', '.xcarchive', '.rtfd',
  '.pages', '.numbers', '.key', '.sparsebundle',
]); // prettier-ignore

/** Folders a sync client watches: a changed file there is uploaded again (or a placeholder fetched). */
const cloudFolders = new Set([
  'Dropbox', 'OneDrive', 'Google Drive', 'iCloud Drive', 'Mobile Documents', 'CloudStorage',
  'Box', 'Box Sync', 'pCloud Drive', 'MEGA', 'Nextcloud', 'ownCloud',
]); // prettier-ignore

/** Whether a folder is left out by the skip options. */
export function isSkippedFolder(name: string, options: WalkOptions): boolean {
  if (name.startsWith(tempPrefix)) return true;
  if (!options.includeHidden && name.startsWith('.')) return true;
  if (options.skipPackages) {
    if (name === 'Library') return true;
    if (packageExtensions.has(path.extname(name).toLowerCase())) return true;
  }
  if (options.skipCloudFolders && (cloudFolders.has(name) || name.startsWith('OneDrive - '))) {
    return true;
  }
  return false;
}

export function isSkippedFile(name: string, options: WalkOptions): boolean {
  if (name.startsWith(tempPrefix)) return true;
  return !options.includeHidden && name.startsWith('.');
}

/** Allocated well below logical size: holes (or compression) of at least 64 KiB. */
export function looksSparse(size: number, allocatedBytes: number): boolean {
  return size - allocatedBytes >= 64 * 1024;
}

const folderConcurrency = 8;

function cancelled(): PlumbError {
  return new PlumbError('ECANCELED', 'The scan was cancelled.');
}

export async function walkFolder(root: string, options: WalkOptions): Promise<WalkResult> {
  const top = path.resolve(root);
  let rootStats: Stats;
  try {
    rootStats = await lstat(top);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? 'EIO';
    throw new PlumbError(code, `Cannot open ${top}: ${(cause as Error).message}`, { cause });
  }
  if (!rootStats.isDirectory()) {
    throw new PlumbError('ENOTDIR', `${top} is not a folder (symbolic links are not followed).`);
  }
  const result: WalkResult = {
    root: top,
    dev: rootStats.dev,
    files: [],
    fileCount: 0,
    byteCount: 0,
    sparse: { files: 0, logicalBytes: 0, allocatedBytes: 0 },
    sparsePaths: [],
    skipped: {
      symlinks: 0,
      otherVolumes: 0,
      extraHardLinks: 0,
      special: 0,
      excluded: 0,
      unreadable: 0,
    },
  };
  const linked = new Map<string, WalkedFile | null>();

  const addFile = (file: string, stats: Stats): void => {
    if (stats.nlink > 1) {
      const key = `${stats.dev}:${stats.ino}`;
      if (linked.has(key)) {
        const first = linked.get(key);
        if (first) first.links += 1;
        result.skipped.extraHardLinks += 1;
        return;
      }
      linked.set(key, null);
    }
    result.fileCount += 1;
    result.byteCount += stats.size;
    const allocated = stats.blocks * 512;
    if (looksSparse(stats.size, allocated)) {
      result.sparse.files += 1;
      result.sparse.logicalBytes += stats.size;
      result.sparse.allocatedBytes += allocated;
      result.sparsePaths.push(file);
    }
    if (stats.size < options.minBytes) return;
    const entry: WalkedFile = {
      path: file,
      size: stats.size,
      dev: stats.dev,
      ino: stats.ino,
      mtimeMs: stats.mtimeMs,
      ctimeMs: stats.ctimeMs,
      links: 1,
    };
    if (stats.nlink > 1) linked.set(`${stats.dev}:${stats.ino}`, entry);
    result.files.push(entry);
  };

  const visitEntry = async (dir: string, entry: Dirent, pending: string[]): Promise<void> => {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) {
      result.skipped.symlinks += 1;
      return;
    }
    const isDir = entry.isDirectory();
    if (isDir ? isSkippedFolder(entry.name, options) : isSkippedFile(entry.name, options)) {
      result.skipped.excluded += 1;
      return;
    }
    if (entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice()) {
      result.skipped.special += 1;
      return;
    }
    let stats: Stats;
    try {
      stats = await lstat(full);
    } catch {
      result.skipped.unreadable += 1;
      return;
    }
    if (stats.isSymbolicLink()) result.skipped.symlinks += 1;
    else if (stats.dev !== result.dev) result.skipped.otherVolumes += 1;
    else if (stats.isDirectory()) pending.push(full);
    else if (stats.isFile()) addFile(full, stats);
    else result.skipped.special += 1;
  };

  const visitFolder = async (dir: string, pending: string[]): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      result.skipped.unreadable += 1;
      return;
    }
    await Promise.all(entries.map((entry) => visitEntry(dir, entry, pending)));
    options.onProgress?.(result.fileCount, result.byteCount);
  };

  await new Promise<void>((resolve, reject) => {
    const pending: string[] = [top];
    let active = 0;
    let failed = false;
    const pump = (): void => {
      if (failed) return;
      if (options.signal?.aborted) {
        failed = true;
        reject(cancelled());
        return;
      }
      if (active === 0 && pending.length === 0) {
        resolve();
        return;
      }
      while (active < folderConcurrency && pending.length > 0) {
        const dir = pending.pop()!;
        active += 1;
        visitFolder(dir, pending).then(
          () => {
            active -= 1;
            pump();
          },
          (error: unknown) => {
            failed = true;
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      }
    };
    pump();
  });
  return result;
}
