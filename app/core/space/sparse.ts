/**
 * Sparse files: list them with their data/hole map, create one, and turn whole blocks of zeros
 * into holes (a dry run unless applied; copies keeping holes are sparse-copy.ts).
 */
import { chmod, lstat, stat, statfs } from '../os-fs.js';
import { formatBytes } from '../../common/format.js';
import path from 'node:path';
import { PlumbError } from '../../contract/errors.js';
import type { PunchReport, SparseFile, SparseListProgress } from '../../contract/space.js';
import type { NativePunchResult } from '../../../native/index.js';
import { loadNative } from '../native/load.js';
import { hostOs, type PunchMethod } from '../os/index.js';
import { openForReading } from './content.js';
import { replaceWithReshapedClone } from './dedupe.js';
import { pathsUnder, sparseSearchCancelled } from './scan.js';

/** From the seeds: holes only last while every app that writes the file keeps them. */
export const punchWarning =
  'Holes save space only while the file stays sparse: an app that does not know sparse files may ' +
  'rewrite it in full and take all of its logical size at once, and copies made by such apps are not sparse.';

/** Allocated this far below its length, a file is sparse (the scan's kSparseGapBytes). */
export const sparseGapBytes = 64 * 1024;

export async function describeSparse(file: string): Promise<SparseFile> {
  const map = await loadNative().dataRanges(file);
  return {
    path: file,
    logicalBytes: map.logicalBytes,
    allocatedBytes: map.allocatedBytes,
    holesSupported: map.holesSupported,
    data: map.data,
  };
}

export interface SparseListHooks {
  signal?: AbortSignal;
  /** About every 100 ms, at each phase change, and once at the end. */
  onProgress?: (progress: Omit<SparseListProgress, 'listId'>) => void;
}

const progressInterval = 100; // ms

/** The sparse files under a folder (or the one file given), largest saving first. */
export async function listSparse(
  target: string,
  hooks: SparseListHooks = {},
): Promise<SparseFile[]> {
  const { signal, onProgress } = hooks;
  const resolved = path.resolve(target);
  const stats = await lstat(resolved);
  if (stats.isFile()) {
    // One file is listed by the walk's own rule (native/src/scan/scan.cc, kSparseGapBytes): at
    // least 64 KiB fewer allocated than its length. An 11-byte note is no "1 sparse file".
    const file = await describeSparse(resolved);
    return file.logicalBytes - file.allocatedBytes >= sparseGapBytes ? [file] : [];
  }
  const started = performance.now();
  let walked = { files: 0, bytes: 0 };
  const emit = (
    fields: Pick<SparseListProgress, 'phase' | 'sparseFiles' | 'described' | 'secondsLeft'>,
  ) => onProgress?.({ ...walked, ...fields, seconds: (performance.now() - started) / 1000 });

  const paths = await pathsUnder(
    resolved,
    { sparse: true },
    {
      signal,
      onProgress: (p) => {
        walked = { files: p.files, bytes: p.bytes };
        emit({ phase: 'walk', sparseFiles: 0, described: 0, secondsLeft: null });
      },
    },
  );

  // Reading each map, with time left from the rate so far.
  const describeStarted = performance.now();
  let reportedAt = 0;
  const report = (described: number) => {
    const now = performance.now();
    if (described < paths.length && described > 0 && now - reportedAt < progressInterval) return;
    reportedAt = now;
    const perSecond = described / ((now - describeStarted) / 1000);
    const secondsLeft = described > 0 ? (paths.length - described) / perSecond : null;
    emit({ phase: 'describe', sparseFiles: paths.length, described, secondsLeft });
  };
  report(0);
  const files: SparseFile[] = [];
  for (const [index, file] of paths.entries()) {
    if (signal?.aborted) throw sparseSearchCancelled();
    const described = await describeSparse(file).catch(() => null);
    if (described) files.push(described);
    report(index + 1);
  }
  return files.sort(
    (a, b) => b.logicalBytes - b.allocatedBytes - (a.logicalBytes - a.allocatedBytes),
  );
}

/**
 * Makes a sparse file of `bytes`. One longer than its whole disk is allowed (disk images are
 * made so) but never silent: `warning` says it can never be filled there.
 */
export async function createSparse(
  file: string,
  bytes: number,
): Promise<SparseFile & { warning: string | null }> {
  const resolved = path.resolve(file);
  await loadNative().createSparseFile(resolved, bytes);
  // The addon makes every new file 0600 (it also makes copies' temporaries); this one is the
  // user's, so it gets the mode any new file of theirs gets.
  await chmod(resolved, 0o666 & ~process.umask());
  const disk = await statfs(path.dirname(resolved));
  const diskBytes = disk.blocks * disk.bsize;
  const warning =
    bytes > diskBytes
      ? `It is longer than its whole disk (${formatBytes(diskBytes)}): it can never be filled there, and writing into it fails once the disk is full.`
      : null;
  return { ...(await describeSparse(resolved)), warning };
}

/** Runs of whole blocks that read as zeros inside the data ranges, as [offset, length]. */
export function zeroRuns(block: Buffer, blockBytes: number, offset: number): [number, number][] {
  const runs: [number, number][] = [];
  for (let at = 0; at + blockBytes <= block.length; at += blockBytes) {
    let zero = true;
    for (let i = at; i < at + blockBytes; i += 1) {
      if (block[i] !== 0) {
        zero = false;
        break;
      }
    }
    if (!zero) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === offset + at) last[1] += blockBytes;
    else runs.push([offset + at, blockBytes]);
  }
  return runs;
}

/** Following the read of a file for zeros: a cancel stops it between chunks. */
export interface ZeroReadHooks {
  signal?: AbortSignal;
  /** Bytes read so far of the file's data, after each chunk. */
  onRead?: (bytes: number, dataBytes: number) => void;
}

async function findZeroRuns(
  file: string,
  blockBytes: number,
  hooks: ZeroReadHooks = {},
): Promise<[number, number][]> {
  const map = await loadNative().dataRanges(file);
  const handle = await openForReading(file);
  const runs: [number, number][] = [];
  const chunkBytes = blockBytes * 256;
  const buffer = Buffer.allocUnsafe(chunkBytes);
  const dataBytes = map.data.reduce((sum, range) => sum + range.length, 0);
  let read = 0;
  try {
    for (const range of map.data) {
      // Only whole blocks inside the data range can become holes.
      const first = Math.ceil(range.offset / blockBytes) * blockBytes;
      const end = Math.floor((range.offset + range.length) / blockBytes) * blockBytes;
      for (let at = first; at < end; at += chunkBytes) {
        if (hooks.signal?.aborted) throw sparseSearchCancelled();
        const want = Math.min(chunkBytes, end - at);
        const { bytesRead } = await handle.read(buffer, 0, want, at);
        read += bytesRead;
        hooks.onRead?.(read, dataBytes);
        for (const run of zeroRuns(buffer.subarray(0, bytesRead), blockBytes, at)) {
          const last = runs[runs.length - 1];
          if (last && last[0] + last[1] === run[0]) last[1] += run[1];
          else runs.push(run);
        }
      }
    }
  } finally {
    await handle.close();
  }
  return runs;
}

/** Why a guarded punch stopped before the end, in words; null when it did not. */
const stoppedBecause: Record<NativePunchResult['outcome'], string | null> = {
  done: null,
  'in-use': null,
  opened:
    'another program opened the file meanwhile, so the punch stopped there and let it in; the rest is as it was',
  'too-slow':
    'a read took longer than the system lets a lease holder keep other programs waiting (/proc/sys/fs/lease-break-time), so the punch stopped there; the rest is as it was',
};

/**
 * How holes are made without losing a write (os/os-module.ts): guarded-in-place on Linux and
 * Windows (the addon's guard, space.h), clone-rename on macOS, which has no such guard (testable
 * on Linux).
 */
export type { PunchMethod };

export interface PunchOptions extends ZeroReadHooks {
  method?: PunchMethod;
  /** Where clone-rename journals its replace (the dedupe's journal folder by default). */
  journalDir?: string;
}

async function punchGuarded(
  file: string,
  ranges: { offset: number; length: number }[],
  blockBytes: number,
  options: PunchOptions,
): Promise<{ inUse: boolean; punchedBytes: number; stopped: string | null }> {
  const native = loadNative();
  if ((options.method ?? hostOs.punchMethod) === 'guarded-in-place') {
    const result = await native.punchZeros(file, ranges, blockBytes);
    return {
      inUse: result.outcome === 'in-use',
      punchedBytes: result.punchedBytes,
      stopped: stoppedBecause[result.outcome],
    };
  }
  let punchedBytes = 0;
  const outcome = await replaceWithReshapedClone(
    file,
    async (clone) => {
      punchedBytes = (await native.punchZeros(clone, ranges, blockBytes)).punchedBytes;
    },
    { journalDir: options.journalDir, signal: options.signal },
  );
  return outcome.replaced
    ? { inUse: false, punchedBytes, stopped: null }
    : { inUse: outcome.inUse, punchedBytes: 0, stopped: outcome.reason };
}

/** A punch stopped by its cancel before any hole was made. */
export function punchCancelled(): PlumbError {
  return new PlumbError('ECANCELED', 'Cancelled before any hole was made: the file is as it was.');
}

/**
 * Finds whole blocks of zeros and, when `apply`, makes them holes (punchGuarded): the file reads
 * the same after, with its access and modification times as they were.
 */
export async function punchZeros(
  file: string,
  apply: boolean,
  options: PunchOptions = {},
): Promise<PunchReport> {
  const resolved = path.resolve(file);
  const before = await stat(resolved, { bigint: true });
  if (!before.isFile()) throw new PlumbError('EINVAL', `${resolved} is not a regular file.`);
  const blockBytes = Number(before.blksize) || 4096;
  const runs = await findZeroRuns(resolved, blockBytes, options).catch((error: unknown) => {
    throw options.signal?.aborted ? punchCancelled() : error;
  });
  const zeroBytes = runs.reduce((sum, [, length]) => sum + length, 0);
  const allocatedBefore = Number(before.blocks) * 512;
  const report = {
    path: resolved,
    zeroBytes,
    punchedBytes: 0,
    stopped: null,
    allocatedBefore,
    allocatedAfter: allocatedBefore,
    dryRun: !apply,
    warning: punchWarning,
  };
  if (!apply || runs.length === 0) return report;
  // A cancel counts until the first hole: from there the punch goes to its end (or, by clone,
  // is rolled back whole), so the file is never left half done by it.
  if (options.signal?.aborted) throw punchCancelled();
  const ranges = runs.map(([offset, length]) => ({ offset, length }));
  const punched = await punchGuarded(resolved, ranges, blockBytes, options);
  if (punched.inUse) {
    throw new PlumbError(
      'EBUSY',
      `${resolved} is open in another program, so no holes were made: what it writes could be lost. Close it, then try again.`,
    );
  }
  const after = await stat(resolved);
  return {
    ...report,
    punchedBytes: punched.punchedBytes,
    stopped: punched.stopped,
    allocatedAfter: after.blocks * 512,
  };
}
