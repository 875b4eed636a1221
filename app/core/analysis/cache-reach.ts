/**
 * Whether a run got past the caches between Plumb and the flash: a run too small to fill them
 * times the caches, not the drive, and says so instead of "Nothing unusual".
 *
 * The thresholds, and where they come from (docs: storage-facts.md, "SLC write cache"):
 * - The drive's write cache. Reviews measure SLC caches of 1.3 % to 35 % of a drive's capacity
 *   ("2.5 % to over 10 %", seed 003), besides a static cache of up to 16 GB (seed 000). So a
 *   phase that wrote less than 1.3 % of the volume's capacity may have gone into the cache whole,
 *   on any drive of that size: its rate is the cache's, and a long copy may be slower.
 * - The queue-depth grid writes and reads one test file over and over: if that file is under the
 *   same 1.3 %, every pass may be served by the drive's cache (or, for a disk image or a loop
 *   device, by the host's memory), and both directions are the cache's.
 * - The OS's memory cache. Direct I/O bypasses it; buffered I/O (when direct I/O is refused) only
 *   hints that files be dropped, so a read phase smaller than the RAM may have come from memory.
 * Smaller shares are never claimed: the finding says "may", because a drive's real cache is
 * unknown until a sustained run finds its cliff.
 */
import { formatBytes } from '../../common/format.js';
import { scalePercent } from '../../common/quick-run.js';

/** The smallest SLC cache reviews measured, as a share of capacity (storage-facts.md). */
export const minCacheShare = 0.013;

export interface CacheReachInput {
  files: readonly { phase: 'write' | 'read'; bytes: number; target?: string }[];
  cacheMode: 'direct' | 'buffered';
  /** The volume's capacity; 0 when unknown (then the drive's cache is not judged). */
  volumeBytes: number;
  ramBytes: number;
  /** The queue-depth grid's test file, when the run was a grid. */
  gridFileBytes?: number;
}

export type WithinCacheFinding = {
  kind: 'within-cache';
  phase: 'write' | 'read' | null;
  /** Bytes the phase moved (or the grid's test file). */
  bytes: number;
  /** The cache size they stayed under. */
  cacheBytes: number;
  cache: 'drive' | 'memory';
  message: string;
};

/** The findings for a run that stayed within the caches; empty when it got past them. */
export function cacheReach(input: CacheReachInput): WithinCacheFinding[] {
  const found: WithinCacheFinding[] = [];
  const driveCache = input.volumeBytes * minCacheShare;
  const share = `${scalePercent(minCacheShare)} of this ${formatBytes(input.volumeBytes)} volume, the smallest write cache reviews measure on drives`;
  if (input.gridFileBytes !== undefined) {
    if (input.volumeBytes > 0 && input.gridFileBytes < driveCache) {
      found.push({
        kind: 'within-cache',
        phase: null,
        bytes: input.gridFileBytes,
        cacheBytes: driveCache,
        cache: 'drive',
        message: `The queue-depth runs went over and over a ${formatBytes(input.gridFileBytes)} test file, less than ${formatBytes(driveCache)} (${share}): every pass may have been served by a cache, so these rates can be far above the drive's. Run the full plan for the drive's own.`,
      });
    }
    return found;
  }
  const own = input.files.filter((f) => f.target === undefined || f.target === 'a');
  const total = (phase: 'write' | 'read') =>
    own.filter((f) => f.phase === phase).reduce((sum, f) => sum + f.bytes, 0);
  const written = total('write');
  if (input.volumeBytes > 0 && written > 0 && written < driveCache) {
    found.push({
      kind: 'within-cache',
      phase: 'write',
      bytes: written,
      cacheBytes: driveCache,
      cache: 'drive',
      message: `The run wrote ${formatBytes(written)} in all, less than ${formatBytes(driveCache)} (${share}): it may all have gone into the drive's write cache, so the write rate is the cache's and a long copy may be slower. The sustained plan writes past the cache.`,
    });
  }
  const read = total('read');
  if (input.cacheMode === 'buffered' && read > 0 && read < input.ramBytes) {
    found.push({
      kind: 'within-cache',
      phase: 'read',
      bytes: read,
      cacheBytes: input.ramBytes,
      cache: 'memory',
      message: `The run read ${formatBytes(read)} through the OS cache, less than this computer's ${formatBytes(input.ramBytes)} of memory: the reads may have come from memory, not the drive.`,
    });
  }
  return found;
}
