/**
 * Splitting candidate groups by content digests computed in the addon (`hashFiles`: LaneHash128 on
 * a small thread pool, large sequential reads). The digest is not cryptographic; it only groups
 * candidates, and every duplicate is compared byte for byte before anything is changed.
 */
import type { CancelHandle } from '../../../native/index.js';
import { loadNative } from '../native/load.js';

export interface DigestOptions {
  /** Hash only the first and last `edgeBytes` of each file; absent: the whole file. */
  edgeBytes?: number;
  signal?: AbortSignal;
  /** Bytes read so far by this call. */
  onBytes?: (bytes: number) => void;
}

export interface DigestRefinement<T> {
  groups: T[][];
  /** The digest (hex) of each member kept in a group. */
  keys: Map<T, string>;
  /** Members that could not be read; left out of every group. */
  failed: number;
}

/** Files read and hashed at once: enough to keep a disk busy, few enough to stay sequential. */
const hashThreads = 4;

/** A native cancel handle that follows `signal`, and a function to stop following it. */
function cancelFollowing(signal: AbortSignal | undefined): {
  cancel: CancelHandle;
  release: () => void;
} {
  const cancel = loadNative().createCancel();
  if (!signal) return { cancel, release: () => undefined };
  if (signal.aborted) cancel.cancel();
  const onAbort = (): void => cancel.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  return { cancel, release: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * Splits every group by the digest of its members' content (all members of all groups hashed in
 * one native call) and keeps the sub-groups of two or more, in first-seen order.
 */
export async function refineByDigest<T>(
  groups: readonly T[][],
  pathOf: (item: T) => string,
  options: DigestOptions = {},
): Promise<DigestRefinement<T>> {
  const members = groups.flat();
  const keys = new Map<T, string>();
  if (members.length === 0) return { groups: [], keys, failed: 0 };
  options.signal?.throwIfAborted();
  const { cancel, release } = cancelFollowing(options.signal);
  let result;
  try {
    result = await loadNative().hashFiles(members.map(pathOf), {
      edgeBytes: options.edgeBytes ?? 0,
      threads: hashThreads,
      cancel,
      onProgress: options.onBytes ? (p) => options.onBytes!(p.bytes) : undefined,
    });
  } finally {
    release();
  }
  const unreadable = new Set(result.failures.map((f) => f.index));
  const refined: T[][] = [];
  let offset = 0;
  for (const group of groups) {
    const byDigest = new Map<string, T[]>();
    for (let i = 0; i < group.length; i += 1, offset += 1) {
      if (unreadable.has(offset)) continue;
      const key = result.digests.toString('hex', offset * 16, offset * 16 + 16);
      keys.set(group[i]!, key);
      const list = byDigest.get(key);
      if (list) list.push(group[i]!);
      else byDigest.set(key, [group[i]!]);
    }
    for (const list of byDigest.values()) if (list.length > 1) refined.push(list);
  }
  return { groups: refined, keys, failed: unreadable.size };
}
