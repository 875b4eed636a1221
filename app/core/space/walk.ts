/**
 * The folder walk behind the sparse-file listing: parallel, on one volume, never through symbolic
 * links, each file once however many hard links it has, with safe default skips. The space scan
 * walks in the addon (native/src/scan/scan.cc) by the same rules; tests/native/scan-rules.test.ts
 * checks that the two agree.
 */
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { PlumbError } from '../../contract/errors.js';
import type { NativeFolderListing } from '../../../native/index.js';
import { loadNative } from '../native/load.js';

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

/**
 * A listed entry's path: `dir` is already normalized (from path.resolve or this function) and a
 * listed name holds no separator, so plain concatenation gives what path.join would, without
 * re-normalizing every path.
 */
function entryPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

/** Folders listed per native call (each call lists them on a few threads). */
const foldersPerCall = 256;

/** What the walk needs to know about one entry, from the addon's listing. */
interface EntryFacts {
  kind: 'file' | 'folder' | 'symlink' | 'special' | 'unreadable';
  dev: number;
  ino: number;
  links: number;
  size: number;
  allocatedBytes: number;
  mtimeMs: number;
  ctimeMs: number;
}

const nativeKinds: readonly EntryFacts['kind'][] = [
  'file',
  'folder',
  'symlink',
  'special',
  'unreadable',
];

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
  // Files kept, in columns (folder and name, not yet joined): the WalkedFile objects are made at
  // the end, for the files that are wanted.
  const kept = {
    dirs: [] as string[],
    names: [] as string[],
    sizes: [] as number[],
    devs: [] as number[],
    inos: [] as number[],
    mtimes: [] as number[],
    ctimes: [] as number[],
    links: [] as number[],
  };
  /** Files with more than one name: the index of the kept one, -1 when not kept (too small). */
  const linked = new Map<string, number>();

  const addFile = (dir: string, name: string, stats: EntryFacts): void => {
    if (stats.links > 1) {
      const key = `${stats.dev}:${stats.ino}`;
      const first = linked.get(key);
      if (first !== undefined) {
        if (first >= 0) kept.links[first]! += 1;
        result.skipped.extraHardLinks += 1;
        return;
      }
      linked.set(key, stats.size < options.minBytes ? -1 : kept.sizes.length);
    }
    result.fileCount += 1;
    result.byteCount += stats.size;
    const allocated = stats.allocatedBytes;
    if (looksSparse(stats.size, allocated)) {
      result.sparse.files += 1;
      result.sparse.logicalBytes += stats.size;
      result.sparse.allocatedBytes += allocated;
      result.sparsePaths.push(entryPath(dir, name));
    }
    if (stats.size < options.minBytes) return;
    kept.dirs.push(dir);
    kept.names.push(name);
    kept.sizes.push(stats.size);
    kept.devs.push(stats.dev);
    kept.inos.push(stats.ino);
    kept.mtimes.push(stats.mtimeMs);
    kept.ctimes.push(stats.ctimeMs);
    kept.links.push(1);
  };

  /** The kept files as WalkedFile objects, in the order found. */
  const keptFiles = (): WalkedFile[] => {
    const files: WalkedFile[] = [];
    kept.sizes.forEach((size, i) => {
      files.push({
        path: entryPath(kept.dirs[i]!, kept.names[i]!),
        size,
        dev: kept.devs[i]!,
        ino: kept.inos[i]!,
        mtimeMs: kept.mtimes[i]!,
        ctimeMs: kept.ctimes[i]!,
        links: kept.links[i]!,
      });
    });
    return files;
  };

  /** Counts or keeps an entry whose metadata is known; folders to visit go to `pending`. */
  const place = (dir: string, name: string, facts: EntryFacts, pending: string[]): void => {
    if (facts.kind === 'symlink') result.skipped.symlinks += 1;
    else if (facts.kind === 'unreadable') result.skipped.unreadable += 1;
    else if (facts.kind === 'special') result.skipped.special += 1;
    else if (facts.dev !== result.dev) result.skipped.otherVolumes += 1;
    else if (facts.kind === 'folder') pending.push(entryPath(dir, name));
    else addFile(dir, name, facts);
  };

  /** One folder listed by the addon, placed entry by entry by the skip rules. */
  const placeListing = (dir: string, listing: NativeFolderListing, pending: string[]): void => {
    if (listing.error) {
      result.skipped.unreadable += 1;
      return;
    }
    const { names, kinds, numbers } = listing;
    // One facts object for every entry: place() copies what it keeps, so none is made per entry.
    const facts: EntryFacts = {
      kind: 'unreadable',
      dev: 0,
      ino: 0,
      links: 0,
      size: 0,
      allocatedBytes: 0,
      mtimeMs: 0,
      ctimeMs: 0,
    };
    for (let i = 0; i < names.length; i += 1) {
      const kind = nativeKinds[kinds[i]!] ?? 'unreadable';
      const name = names[i]!;
      if (kind === 'symlink') {
        result.skipped.symlinks += 1;
        continue;
      }
      const excluded =
        kind === 'folder' ? isSkippedFolder(name, options) : isSkippedFile(name, options);
      if (excluded) {
        result.skipped.excluded += 1;
        continue;
      }
      const n = i * 7;
      facts.kind = kind;
      facts.dev = numbers[n]!;
      facts.ino = numbers[n + 1]!;
      facts.links = numbers[n + 2]!;
      facts.size = numbers[n + 3]!;
      facts.allocatedBytes = numbers[n + 4]!;
      facts.mtimeMs = numbers[n + 5]!;
      facts.ctimeMs = numbers[n + 6]!;
      place(dir, name, facts, pending);
    }
    options.onProgress?.(result.fileCount, result.byteCount);
  };

  try {
    // Breadth first, many folders per native call; folders found join the end of the queue.
    const native = loadNative();
    const pending: string[] = [top];
    while (pending.length > 0) {
      options.signal?.throwIfAborted();
      const batch = pending.splice(0, foldersPerCall);
      const listings = await native.listFolders(batch);
      listings.forEach((listing, index) => placeListing(batch[index]!, listing, pending));
    }
  } catch (error) {
    if (options.signal?.aborted) throw cancelled();
    throw error;
  }
  result.files = keptFiles();
  return result;
}
