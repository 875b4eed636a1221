/**
 * PELT (Killick, Fearnhead & Eckley 2012): the exact least-penalised partition of `values` into
 * segments of at least `minLength`, with cost Σ (v − segment mean)² + `penalty` per segment,
 * pruning start points that can no longer win. Returns the start index of every segment.
 */
export function pelt(values: Float64Array, minLength: number, penalty: number): number[] {
  const m = values.length;
  if (m < 2 * minLength) return [0];
  const sum = new Float64Array(m + 1);
  const squares = new Float64Array(m + 1);
  for (let i = 0; i < m; i += 1) {
    sum[i + 1] = sum[i]! + values[i]!;
    squares[i + 1] = squares[i]! + values[i]! * values[i]!;
  }
  const best = new Float64Array(m + 1).fill(Infinity);
  const previous = new Int32Array(m + 1);
  best[0] = -penalty;
  // The start points still in the running, compacted in place (no allocation per step).
  const candidates = new Int32Array(m + 1);
  let live = 1;
  const cost = new Float64Array(m + 1);
  for (let end = minLength; end <= m; end += 1) {
    // A start becomes possible once a whole segment fits before it.
    if (end - minLength >= minLength) candidates[live++] = end - minLength;
    let value = Infinity;
    let from = 0;
    for (let c = 0; c < live; c += 1) {
      const start = candidates[c]!;
      const s = sum[end]! - sum[start]!;
      const segmentCost = squares[end]! - squares[start]! - (s * s) / (end - start);
      cost[c] = best[start]! + segmentCost;
      if (cost[c]! + penalty < value) {
        value = cost[c]! + penalty;
        from = start;
      }
    }
    best[end] = value;
    previous[end] = from;
    let kept = 0;
    for (let c = 0; c < live; c += 1) if (cost[c]! <= value) candidates[kept++] = candidates[c]!;
    live = kept;
  }
  const starts: number[] = [];
  for (let end = m; end > 0; end = previous[end]!) starts.push(previous[end]!);
  return starts.reverse();
}

/**
 * PELT over consecutive chunks of at most `chunk` values, every chunk's start kept as a segment
 * start. On a stretch without changes PELT prunes nothing (a split never costs more squared error
 * than no split) and takes O(m²); in chunks it takes O(m · chunk). The caller merges away the
 * chunk starts that are not changes (rateSegments does, weakest first).
 */
export function peltChunked(
  values: Float64Array,
  minLength: number,
  penalty: number,
  chunk = 1000,
): number[] {
  const count = Math.max(1, Math.ceil(values.length / chunk));
  const size = Math.ceil(values.length / count);
  const starts: number[] = [];
  for (let from = 0; from < values.length; from += size) {
    const to = Math.min(values.length, from + size);
    for (const start of pelt(values.subarray(from, to), minLength, penalty))
      starts.push(from + start);
  }
  return starts;
}
