import { mean, standardDeviation } from 'simple-statistics';

export interface Mode {
  /** Mean of the values in this mode. */
  center: number;
  count: number;
}

export interface TwoModes {
  low: Mode;
  high: Mode;
  /**
   * Ashman's D = √2·|μ₁ − μ₂| / √(σ₁² + σ₂²): how far apart the two groups are relative to
   * their spread (for two fitted normal groups, above 2 means cleanly bimodal).
   */
  ashmansD: number;
}

/**
 * The best split of the values into two groups (optimal 1-D k-means with k = 2, as Ckmeans finds
 * it: on the sorted values, the split with the least summed squares about each side's mean, from
 * running sums) and Ashman's D for it. Null for fewer than four values or when all values are
 * equal. One sorted copy of the values is all it holds: a million files' ratios are 8 MB, where
 * Ckmeans' matrices held a hundred.
 */
export function twoModes(values: readonly number[] | Float64Array): TwoModes | null {
  const n = values.length;
  if (n < 4 || values.every((value) => value === values[0])) return null;
  const sorted = Float64Array.from(values).sort();
  // Shifted by the first value, so the running sums of squares keep their precision.
  const origin = sorted[0]!;
  let [totalSum, totalSquares] = [0, 0];
  for (const value of sorted)
    [totalSum, totalSquares] = [totalSum + (value - origin), totalSquares + (value - origin) ** 2];
  const cost = (sum: number, squares: number, count: number) => squares - (sum * sum) / count;
  let [lowSum, lowSquares] = [0, 0];
  let [best, split] = [Infinity, 1];
  for (let k = 1; k < n; k += 1) {
    const value = sorted[k - 1]! - origin;
    [lowSum, lowSquares] = [lowSum + value, lowSquares + value * value];
    // A split between equal values is no split.
    if (sorted[k] === sorted[k - 1]) continue;
    const within =
      cost(lowSum, lowSquares, k) + cost(totalSum - lowSum, totalSquares - lowSquares, n - k);
    if (within < best) [best, split] = [within, k];
  }
  // Read by simple-statistics (compensated sums), as the groups Ckmeans returned were.
  const lowValues = sorted.subarray(0, split) as unknown as number[];
  const highValues = sorted.subarray(split) as unknown as number[];
  const spread = Math.hypot(standardDeviation(lowValues), standardDeviation(highValues));
  const gap = mean(highValues) - mean(lowValues);
  return {
    low: { center: mean(lowValues), count: lowValues.length },
    high: { center: mean(highValues), count: highValues.length },
    ashmansD: spread === 0 ? Number.MAX_VALUE : (Math.SQRT2 * gap) / spread,
  };
}

/**
 * Bimodal: the two groups are well separated (Ashman's D > 4: splitting one normal group with
 * k-means already gives D ≈ 2.7, and a uniform one 3.5, so the textbook threshold of 2 would call
 * every sample bimodal) and the smaller holds at least
 * `minShare` of the values (default 10 %) and at least three of them, so a few stragglers do not
 * count as a second mode.
 */
export function isBimodal(modes: TwoModes | null, minShare = 0.1): boolean {
  if (!modes) return false;
  const smaller = Math.min(modes.low.count, modes.high.count);
  const total = modes.low.count + modes.high.count;
  return modes.ashmansD > 4 && smaller >= 3 && smaller >= minShare * total;
}
