import { median } from 'simple-statistics';
import { RunningMedian } from './running-median.js';
import {
  columnRates,
  phaseColumns,
  selectRows,
  type SeriesColumns,
  type SeriesPoint,
} from './transfer-columns.js';

export interface CacheCliff {
  /** Cumulative bytes at which the rate fell, interpolated inside the file that straddles it. */
  atBytes: number;
  /** Elapsed seconds at the fall, when the points carry `t`. */
  atSeconds: number | null;
  /** Median rate before and after the fall, bytes/s (the straddling file left out). */
  beforeRate: number;
  afterRate: number;
  /** Share of files on the right side of the midpoint rate, the worse of the two sides (0–1). */
  confidence: number;
  /** Index (in the points given) of the first file wholly after the fall. */
  index: number;
}

export interface CliffOptions {
  /** Fewest files on each side of a cliff (default 3, so a single odd file is never a cliff). */
  minSegment?: number;
  /** Smallest fall worth reporting, as a fraction of the rate before (default 0.15). */
  minDrop?: number;
  /** Least confidence to report (default 0.75). */
  minConfidence?: number;
  /** Least step, in standard errors of robust noise, to report (default 6). */
  minScore?: number;
}

/** Median and summed absolute deviation of the values before (or after) each split. */
interface SideCosts {
  level: Float64Array;
  cost: Float64Array;
}

/**
 * For every split k of `values`, the median and summed absolute deviation of values[0..k) and of
 * values[k..n): running medians forward and backward, O(n log n) for all splits at once. In typed
 * arrays: two objects per split were 200 MB a million files.
 */
function splitCosts(values: Float64Array): { before: SideCosts; after: SideCosts } {
  const n = values.length;
  const side = (): SideCosts => ({ level: new Float64Array(n + 1), cost: new Float64Array(n + 1) });
  const before = side();
  const after = side();
  const forward = new RunningMedian();
  before.level[0] = Number.NaN;
  for (let i = 0; i < n; i += 1) {
    forward.push(values[i]!);
    before.level[i + 1] = forward.median();
    before.cost[i + 1] = forward.absoluteDeviation();
  }
  const backward = new RunningMedian();
  after.level[n] = Number.NaN;
  for (let i = n - 1; i >= 0; i -= 1) {
    backward.push(values[i]!);
    after.level[i] = backward.median();
    after.cost[i] = backward.absoluteDeviation();
  }
  return { before, after };
}

/** Share of the fast rate in a file of `bytes` that took `seconds`, from the rates either side. */
function fastShare(bytes: number, seconds: number, fast: number, slow: number): number {
  const share = (seconds - bytes / slow) / (bytes / fast - bytes / slow);
  return Math.min(1, Math.max(0, share));
}

/**
 * Cache cliff: the single change point in log(rate) over the sequence of files that best splits
 * it into a faster level and a slower one, minimising the summed absolute deviations from each
 * side's median (so isolated outliers barely move it). It is reported only when the fall is large
 * (≥ minDrop), clear of the noise (step ≥ minScore standard errors, noise from the median absolute
 * deviation) and consistent (≥ minConfidence of the files on each side lie beyond the midpoint).
 * Its position is interpolated inside the file that straddles it, from the two rates.
 */
export function cacheCliffOf(series: SeriesColumns, options: CliffOptions = {}): CacheCliff | null {
  const minSegment = Math.max(2, options.minSegment ?? 3);
  const minDrop = options.minDrop ?? 0.15;
  const minConfidence = options.minConfidence ?? 0.75;
  const minScore = options.minScore ?? 6;
  const usable = selectRows(series, (i) => series.seconds[i]! > 0 && series.bytes[i]! > 0);
  const n = usable.bytes.length;
  if (n < 2 * minSegment) return null;
  const rates = columnRates(usable);
  const logs = rates.map(Math.log);

  const costs = splitCosts(logs);
  let best: { k: number; cost: number; before: number; after: number } | null = null;
  for (let k = minSegment; k <= n - minSegment; k += 1) {
    const before = costs.before.level[k]!;
    const after = costs.after.level[k]!;
    if (after >= before) continue;
    const cost = costs.before.cost[k]! + costs.after.cost[k]!;
    if (!best || cost < best.cost) best = { k, cost, before, after };
  }
  if (!best) return null;

  const { k } = best;
  const residuals = logs.map((y, i) => Math.abs(y - (i < k ? best.before : best.after)));
  const sigma = Math.max(1.4826 * median(residuals as unknown as number[]), 0.005);
  const step = best.before - best.after;
  const score = (step / sigma) * Math.sqrt((k * (n - k)) / n);
  if (1 - Math.exp(-step) < minDrop || score < minScore) return null;

  const midpoint = (best.before + best.after) / 2;
  let [above, below] = [0, 0];
  for (let i = 0; i < n; i += 1) {
    if (i < k && logs[i]! > midpoint) above += 1;
    if (i >= k && logs[i]! < midpoint) below += 1;
  }
  const confidence = Math.min(above / k, below / (n - k));
  if (confidence < minConfidence) return null;

  // The fall happened inside the last "before" file or the first "after" one; the file whose
  // time is most between the two rates is the one that straddles it.
  const fast = Math.exp(best.before);
  const slow = Math.exp(best.after);
  const { bytes, seconds, cumulativeBytes, t } = usable;
  const lastShare = fastShare(bytes[k - 1]!, seconds[k - 1]!, fast, slow);
  const firstShare = fastShare(bytes[k]!, seconds[k]!, fast, slow);
  const lastGap = (1 - lastShare) * bytes[k - 1]!;
  const firstGap = firstShare * bytes[k]!;
  const straddling = lastGap > firstGap ? k - 1 : k;
  const share = straddling === k - 1 ? lastShare : firstShare;
  const fastBytes = share * bytes[straddling]!;
  const atBytes = cumulativeBytes[straddling]! - bytes[straddling]! + fastBytes;
  const endSeconds = t[straddling]!;
  const atSeconds = Number.isNaN(endSeconds)
    ? null
    : endSeconds - seconds[straddling]! + fastBytes / fast;

  const straddles = share > 0.05 && share < 0.95;
  const medianOf = (values: Float64Array) => median(values as unknown as number[]);
  const beforeAll = rates.subarray(0, k);
  const afterAll = rates.subarray(k);
  const beforeRates = straddles && straddling < k ? beforeAll.slice(0, k - 1) : beforeAll;
  const afterRates = straddles && straddling === k ? afterAll.slice(1) : afterAll;
  return {
    atBytes,
    atSeconds,
    beforeRate: medianOf(beforeRates.length ? beforeRates : beforeAll),
    afterRate: medianOf(afterRates.length ? afterRates : afterAll),
    confidence,
    index: straddling === k && straddles ? k + 1 : k,
  };
}

/** cacheCliffOf for points given one object each. */
export function cacheCliff(
  points: readonly SeriesPoint[],
  options: CliffOptions = {},
): CacheCliff | null {
  return cacheCliffOf(phaseColumns(points), options);
}
