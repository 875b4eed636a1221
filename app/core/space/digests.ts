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
  /** The digest (hex) of each group, in the same order as `groups`. */
  digests: string[];
  /** Members that could not be read; left out of every group. */
  failed: number;
}

/** Files read and hashed at once: enough to keep a disk busy, few enough to stay sequential. */
const hashThreads = 4;

/** A native cancel handle that follows `signal`, and a function to stop following it. */
export function cancelFollowing(signal: AbortSignal | undefined): {
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

/** Digest words per member (4 × 32 bits each), viewed without a copy where aligned. */
function digestWords(digests: Buffer): Uint32Array {
  if (digests.byteOffset % 4 === 0) {
    return new Uint32Array(digests.buffer, digests.byteOffset, digests.length >>> 2);
  }
  return new Uint32Array(Uint8Array.from(digests).buffer);
}

/** Orders members by digest, then by position (so equal digests end up side by side, in order). */
function byDigestThenIndex(words: Uint32Array): (a: number, b: number) => number {
  return (a, b) => {
    for (let w = 0; w < 4; w += 1) {
      const x = words[a * 4 + w]!;
      const y = words[b * 4 + w]!;
      if (x !== y) return x - y;
    }
    return a - b;
  };
}

function sameDigest(words: Uint32Array, a: number, b: number): boolean {
  const i = a * 4;
  const j = b * 4;
  return (
    words[i] === words[j] &&
    words[i + 1] === words[j + 1] &&
    words[i + 2] === words[j + 2] &&
    words[i + 3] === words[j + 3]
  );
}

/**
 * Splits every group by the digest of its members' content (all members of all groups hashed in
 * one native call) and keeps the sub-groups of two or more, in first-seen order, members in their
 * order. Digests are compared as numbers; a hex string is made only for each group kept.
 */
export async function refineByDigest<T>(
  groups: readonly T[][],
  pathOf: (item: T) => string,
  options: DigestOptions = {},
): Promise<DigestRefinement<T>> {
  const members = groups.flat();
  if (members.length === 0) return { groups: [], digests: [], failed: 0 };
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
  const unreadable = new Uint8Array(members.length);
  for (const failure of result.failures) unreadable[failure.index] = 1;
  const words = digestWords(result.digests);
  const compare = byDigestThenIndex(words);
  const refined: T[][] = [];
  const digests: string[] = [];
  const keep = (indices: readonly number[]): void => {
    refined.push(indices.map((index) => members[index]!));
    const first = indices[0]! * 16;
    digests.push(result.digests.toString('hex', first, first + 16));
  };
  let offset = 0;
  for (const group of groups) {
    const start = offset;
    offset += group.length;
    const readable: number[] = [];
    for (let i = start; i < offset; i += 1) if (unreadable[i] === 0) readable.push(i);
    if (readable.length < 2) continue;
    if (readable.length === 2) {
      if (sameDigest(words, readable[0]!, readable[1]!)) keep(readable);
      continue;
    }
    // Runs of equal digests, each in member order; then the runs in order of their first member.
    readable.sort(compare);
    const runs: number[][] = [];
    let run: number[] = [readable[0]!];
    for (let k = 1; k < readable.length; k += 1) {
      const index = readable[k]!;
      if (sameDigest(words, run[0]!, index)) {
        run.push(index);
      } else {
        if (run.length > 1) runs.push(run);
        run = [index];
      }
    }
    if (run.length > 1) runs.push(run);
    runs.sort((a, b) => a[0]! - b[0]!);
    for (const kept of runs) keep(kept);
  }
  return { groups: refined, digests, failed: result.failures.length };
}
