import { ckmeans, mean, standardDeviation } from 'simple-statistics';

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
 * The best split of the values into two groups (Ckmeans, optimal 1-D k-means with k = 2) and
 * Ashman's D for it. Null for fewer than four values or when all values are equal.
 */
export function twoModes(values: readonly number[]): TwoModes | null {
  if (values.length < 4 || values.every((value) => value === values[0])) return null;
  const [lowValues, highValues] = ckmeans(values as number[], 2) as [number[], number[]];
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
