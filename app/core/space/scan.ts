/**
 * A space scan: walk a folder, find files with identical content (size → head/tail key → full
 * hash), and ask the file system how much of each group is already shared and what cloning would
 * really free. The scan itself is the addon's (native/src/scan/scan.cc); this module checks the
 * settings and translates cancel, progress and errors. The sparse-file listing walks with the
 * same engine.
 */
import { randomUUID } from 'node:crypto';
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { PlumbError } from '../../contract/errors.js';
import type {
  DuplicateGroup,
  ScanOptions,
  ScanProgress,
  ScanResult,
} from '../../contract/space.js';
import { parseSize } from '../../common/units.js';
import { checkFolder } from '../folder.js';
import { loadNative } from '../native/load.js';
import { hostOs } from '../os/index.js';
import { privateFolder } from '../paths.js';
import { cancelFollowing } from '../native/cancel.js';
import { hashCachePath } from './last-scan.js';
import type { NativeScanSettings, PlumbNative } from '../../../native/index.js';

export interface ScanHooks {
  scanId?: string;
  /** The kept scans' folder (the context's `folders.spaceScans`), for the hash cache; none without. */
  scansDir?: string;
  signal?: AbortSignal;
  onProgress?: (progress: ScanProgress) => void;
}

/**
 * Whether the file system compresses a file (a clone would undo that); null when the OS does not
 * say or cannot be asked.
 */
export async function compressedByFileSystem(file: string): Promise<boolean | null> {
  try {
    return (await loadNative().fileSharing(file)).compressed;
  } catch {
    return null;
  }
}

export async function scanFolder(options: ScanOptions, hooks: ScanHooks = {}): Promise<ScanResult> {
  return runScan(options, hooks, (settings, native) => loadNative().scanFolder(settings, native));
}

/** A scan's figures, how many groups it found, and the largest of them. */
export interface ScanSummary extends Omit<ScanResult, 'groups'> {
  groupCount: number;
  /** The first groups of the result's order (largest reclaimable first), as many as asked for. */
  largestGroups: DuplicateGroup[];
}

/**
 * The same scan, summed up: its figures and its `shown` largest groups, without an object for each
 * file of the others (what `plumb space scan` prints; the whole result of a million files is some
 * 150 MB of objects and two seconds of making them).
 */
export async function scanFolderSummary(
  options: ScanOptions,
  hooks: ScanHooks,
  shown: number,
): Promise<ScanSummary> {
  const { groups, groupCount, ...figures } = await runScan(options, hooks, (settings, native) =>
    loadNative().scanFolder({ ...settings, groupsShown: shown }, native),
  );
  return { ...figures, groupCount: groupCount ?? groups.length, largestGroups: groups };
}

/**
 * The same scan, its result as JSON text: `JSON.stringify(result, null, 2)` of what scanFolder
 * resolves with, in pieces of about 1 MB, made by the addon from its own result without a JS
 * object per file (on a rescan of a million files those objects and their stringifying cost more
 * than the walk). `plumb space scan --json` prints it.
 */
export async function scanFolderJson(
  options: ScanOptions,
  hooks: ScanHooks = {},
): Promise<Iterable<Uint8Array>> {
  const reader = await runScan(options, hooks, (settings, native) =>
    loadNative().scanFolderJson(settings, native),
  );
  return {
    *[Symbol.iterator]() {
      for (let piece = reader.next(); piece !== null; piece = reader.next()) yield piece;
    },
  };
}

/**
 * Lets the pipe at `fd` (the CLI's standard output, when it is one) hold 1 MiB on Linux: the
 * reader of scanFolderJson's text then takes it in 1 MiB handoffs, not 64 KiB ones (a rescan of a
 * million files prints 276 MB). Nothing where `fd` is not a pipe or the OS has no say.
 */
export function widenPipe(fd: number): void {
  loadNative().widenPipe(fd);
}

/**
 * The options with their defaults, checked as the contract's ScanOptions schema checks them (the
 * same rules, without zod: `plumb space scan` starts faster without loading it).
 */
export function scanSettings(options: ScanOptions): Required<ScanOptions> {
  const invalid = (message: string): PlumbError => new PlumbError('EINVAL', message);
  if (typeof options.path !== 'string') throw invalid('Give a folder path.');
  const folder = options.path.trim();
  if (folder.length === 0) throw invalid('Give a folder path.');
  if (folder.length > 4096) throw invalid('The folder path is longer than 4096 characters.');
  const minBytes = options.minBytes ?? 1;
  if (!Number.isSafeInteger(minBytes) || minBytes < 0) {
    throw invalid('minBytes must be a whole number of bytes, 0 or more.');
  }
  const flag = (name: keyof ScanOptions, value: boolean | undefined): boolean => {
    if (value === undefined) return true;
    if (typeof value !== 'boolean') throw invalid(`${name} must be true or false.`);
    return value;
  };
  return {
    path: folder,
    minBytes,
    includeHidden: flag('includeHidden', options.includeHidden),
    skipPackages: flag('skipPackages', options.skipPackages),
    skipCloudFolders: flag('skipCloudFolders', options.skipCloudFolders),
  };
}

/**
 * Files under a folder named by the engine's walk (on one volume, not through symbolic links,
 * once per file however many names it has) with nothing skipped but Plumb's own temporary
 * clones: the sparse ones, or those of at least `large` bytes that are not sparse. minBytes above
 * any file size leaves the walk as the engine's only work. A cancel stops the walk itself.
 */
export async function pathsUnder(
  folder: string,
  want: { sparse: true } | { large: number },
  hooks: Pick<ScanHooks, 'signal' | 'onProgress'> = {},
): Promise<string[]> {
  const { signal } = hooks;
  try {
    const result = await runNative(
      {
        path: folder,
        minBytes: Number.MAX_SAFE_INTEGER,
        includeHidden: true,
        skipPackages: false,
        skipCloudFolders: false,
        ...('sparse' in want ? { sparsePaths: true } : { largePaths: Math.max(1, want.large) }),
      },
      hooks,
    );
    return ('sparse' in want ? result.sparsePaths : result.largePaths) ?? [];
  } catch (error) {
    if (signal?.aborted) throw sparseSearchCancelled(error);
    throw error;
  }
}

/** How a cancelled sparse-file listing fails, in its walk or after it. */
export function sparseSearchCancelled(cause?: unknown): PlumbError {
  return new PlumbError('ECANCELED', 'The sparse-file search was cancelled.', { cause });
}

/** The addon's scan, started with the native settings and the cancel and progress options. */
type NativeScan<T> = (
  settings: NativeScanSettings,
  options: Parameters<PlumbNative['scanFolder']>[1],
) => Promise<T>;

async function runScan<T>(options: ScanOptions, hooks: ScanHooks, scan: NativeScan<T>): Promise<T> {
  try {
    return await runCheckedScan(options, hooks, scan);
  } catch (error) {
    if (hooks.signal?.aborted) {
      throw new PlumbError('ECANCELED', 'The scan was cancelled.', { cause: error });
    }
    throw error;
  }
}

async function runCheckedScan<T>(
  options: ScanOptions,
  hooks: ScanHooks,
  scan: NativeScan<T>,
): Promise<T> {
  const settings = scanSettings(options);
  await checkFolder(settings.path);
  // The last scan's digests: unchanged files are not read again (kept only where it can be made).
  const hashCache =
    hooks.scansDir === undefined ? null : hashCachePath(hooks.scansDir, settings.path);
  const cacheUsable =
    hashCache !== null &&
    (await privateFolder(path.dirname(hashCache)).then(
      () => true,
      () => false,
    ));
  const spillBytes = scanMemory();
  const result = await runNative(
    {
      ...settings,
      scanId: hooks.scanId ?? randomUUID(),
      ...(cacheUsable ? { hashCache } : {}),
      ...(spillBytes === undefined ? {} : { spillBytes }),
    },
    hooks,
    scan,
  );
  // The digests name every file scanned: the user's alone, like the rest of the data folder.
  if (cacheUsable && hostOs.ownerModes) await chmod(hashCache, 0o600).catch(() => {});
  return result;
}

/**
 * PLUMB_SCAN_MEMORY (a size: 64MB, 1GiB; 0 for no limit): how much of the digests a scan keeps
 * for the next scan of the folder it holds in memory (72 bytes a hashed file), beyond which they
 * are written, sorted, to runs beside the hash cache in the data folder, merged into it at the end
 * and deleted. Unset: 16 MiB. A run is written only while the disk keeps a tenth free.
 */
export function scanMemory(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const text = env.PLUMB_SCAN_MEMORY;
  if (text === undefined || text.trim() === '') return undefined;
  const bytes = parseSize(text);
  if (bytes === null || !Number.isSafeInteger(bytes)) {
    throw new PlumbError(
      'EINVAL',
      `PLUMB_SCAN_MEMORY must be a size such as 64MB or 1GiB (0 for no limit), not "${text}".`,
    );
  }
  return bytes;
}

/** The addon's scan (scanFolder unless told) with cancel following the signal and errors as PlumbErrors. */
async function runNative<T = Awaited<ReturnType<PlumbNative['scanFolder']>>>(
  settings: NativeScanSettings,
  hooks: ScanHooks,
  scan: NativeScan<T> = (s, native) => loadNative().scanFolder(s, native) as Promise<T>,
): Promise<T> {
  hooks.signal?.throwIfAborted();
  const { cancel, release } = cancelFollowing(hooks.signal);
  try {
    return await scan(settings, { cancel, onProgress: hooks.onProgress });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code && !(error instanceof TypeError))
      throw new PlumbError(code, message, { cause: error });
    throw error;
  } finally {
    release();
  }
}
