import { mean, quantileSorted } from 'simple-statistics';

export interface TrimmedMean {
  /** Mean of the values left after trimming. */
  rate: number;
  /** The lower trimming point: the `fraction` quantile of all values. */
  p20: number;
  /** The upper trimming point: the `1 − fraction` quantile of all values. */
  p80: number;
}

/**
 * Trimmed mean: sort the n values, drop the ⌊n·fraction⌋ smallest and the ⌊n·fraction⌋ largest,
 * and average the rest. With fraction 0.2 this is the 20 % trimmed mean, reported with the 20th
 * and 80th centiles (linear interpolation, numpy's default) that bound the kept values. Null for
 * an empty list.
 */
export function trimmedMean(
  values: readonly number[] | Float64Array,
  fraction = 0.2,
): TrimmedMean | null {
  if (values.length === 0) return null;
  if (!(fraction >= 0 && fraction < 0.5)) throw new RangeError('fraction must be in [0, 0.5)');
  // A typed array's numeric sort: the comparator sort took 0.5 s a million values.
  // simple-statistics reads any array by index: the typed one itself, not a copy as a list.
  const sorted = Float64Array.from(values).sort() as unknown as number[];
  const cut = Math.floor(sorted.length * fraction);
  const kept = sorted.slice(cut, sorted.length - cut);
  return {
    rate: mean(kept),
    p20: quantileSorted(sorted, fraction),
    p80: quantileSorted(sorted, 1 - fraction),
  };
}
