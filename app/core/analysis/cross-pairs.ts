/**
 * Counting (or listing) the pairs two orders of the same points disagree on, by merge sort: the
 * points in the first order, each keyed by its place in the second, split into runs (the first
 * order's tie groups); merging the runs pairwise, a point b of a right run meets, as one
 * contiguous block of the left run, every left point whose key is at least b's. Inversion
 * counting, in O(n log n) sequential passes over typed arrays: a Fenwick tree does the same in
 * jumps across memory, several times slower on a million points in random order.
 */

/** Buffers reused between calls on n points. */
export interface CrossPairsScratch {
  keys: Uint32Array;
  ids: Uint32Array;
  spareKeys: Uint32Array;
  spareIds: Uint32Array;
  runs: Uint32Array;
  spareRuns: Uint32Array;
}

export function crossPairsScratch(n: number): CrossPairsScratch {
  return {
    keys: new Uint32Array(n),
    ids: new Uint32Array(n),
    spareKeys: new Uint32Array(n),
    spareIds: new Uint32Array(n),
    runs: new Uint32Array(n + 1),
    spareRuns: new Uint32Array(n + 1),
  };
}

/** Told of each block: `count` left points at ids[from..from + count), each paired with `b`. */
export type PairBlock = (ids: Uint32Array, from: number, count: number, b: number) => void;

/** Sorts keys[start..end) ascending, carrying ids along (a tie group of the first order). */
function sortRun(keys: Uint32Array, ids: Uint32Array, start: number, end: number): void {
  if (end - start <= 32) {
    for (let i = start + 1; i < end; i += 1) {
      const key = keys[i]!;
      const id = ids[i]!;
      let j = i - 1;
      while (j >= start && keys[j]! > key) {
        keys[j + 1] = keys[j]!;
        ids[j + 1] = ids[j]!;
        j -= 1;
      }
      keys[j + 1] = key;
      ids[j + 1] = id;
    }
    return;
  }
  const order = Array.from({ length: end - start }, (_, i) => start + i);
  order.sort((a, b) => keys[a]! - keys[b]!);
  const sortedKeys = order.map((i) => keys[i]!);
  const sortedIds = order.map((i) => ids[i]!);
  keys.set(sortedKeys, start);
  ids.set(sortedIds, start);
}

/** Copies from[start..end) into to[at..): a loop for the short tails most merges leave. */
function copyTail(from: Uint32Array, to: Uint32Array, start: number, end: number, at: number) {
  if (end - start > 64) to.set(from.subarray(start, end), at);
  else for (let i = start; i < end; i += 1) to[at + i - start] = from[i]!;
}

/**
 * The pairs (a, b), a in an earlier run than b, with key(a) ≥ key(b); `scratch.keys`,
 * `scratch.ids` (in the first order) and `scratch.runs` (each run's start, then n) filled by the
 * caller, `runCount` runs. Returns how many; hands each block to `onBlock` when given.
 */
export function crossPairs(
  scratch: CrossPairsScratch,
  n: number,
  runCount: number,
  onBlock?: PairBlock,
): number {
  let { keys, ids, spareKeys, spareIds, runs, spareRuns } = scratch;
  for (let r = 0; r < runCount; r += 1) {
    if (runs[r + 1]! - runs[r]! > 1) sortRun(keys, ids, runs[r]!, runs[r + 1]!);
  }
  let total = 0;
  let count = runCount;
  while (count > 1) {
    let merged = 0;
    for (let r = 0; r < count; r += 2) {
      const start = runs[r]!;
      const middle = runs[r + 1]!;
      const end = r + 2 <= count ? runs[r + 2]! : middle;
      spareRuns[merged++] = start;
      let i = start;
      let j = middle;
      let out = start;
      if (i < middle && j < end) {
        let left = keys[i]!;
        let right = keys[j]!;
        for (;;) {
          if (left < right) {
            spareKeys[out] = left;
            spareIds[out++] = ids[i++]!;
            if (i === middle) break;
            left = keys[i]!;
          } else {
            // Every left point from i on has a key at least b's.
            total += middle - i;
            if (onBlock) onBlock(ids, i, middle - i, ids[j]!);
            spareKeys[out] = right;
            spareIds[out++] = ids[j++]!;
            if (j === end) break;
            right = keys[j]!;
          }
        }
      }
      copyTail(keys, spareKeys, i, middle, out);
      copyTail(ids, spareIds, i, middle, out);
      out += middle - i;
      copyTail(keys, spareKeys, j, end, out);
      copyTail(ids, spareIds, j, end, out);
    }
    spareRuns[merged] = n;
    count = merged;
    [keys, spareKeys] = [spareKeys, keys];
    [ids, spareIds] = [spareIds, ids];
    [runs, spareRuns] = [spareRuns, runs];
  }
  return total;
}
