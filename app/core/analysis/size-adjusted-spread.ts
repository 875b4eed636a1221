import { median, quantileSorted } from 'simple-statistics';
import type { LineFit } from './theil-sen.js';
import type { Transfer } from './transfer-rate.js';

/** The median seconds of the transfers of each size, each median taken once. */
function medianSecondsBySize(transfers: readonly Transfer[]): (bytes: number) => number {
  const bySize = new Map<number, number[]>();
  for (const { bytes, seconds } of transfers) {
    const list = bySize.get(bytes);
    if (list) list.push(seconds);
    else bySize.set(bytes, [seconds]);
  }
  const medians = new Map<number, number>();
  for (const [bytes, seconds] of bySize) medians.set(bytes, median(seconds));
  return (bytes) => medians.get(bytes)!;
}

/**
 * Observed ÷ predicted seconds for each transfer, in order: the prediction is the fitted line of
 * seconds on bytes, or, without a rising line (say, every file the same size), the median seconds
 * of transfers of that size. A ratio of 2 means the file took twice what its size predicts.
 */
export function sizeAdjustedRatios(
  transfers: readonly Transfer[],
  fit: LineFit | null,
): (number | null)[] {
  const predict =
    fit && fit.slope > 0
      ? (bytes: number) => fit.intercept + fit.slope * bytes
      : medianSecondsBySize(transfers);
  return transfers.map(({ bytes, seconds }) => {
    const predicted = predict(bytes);
    return predicted > 0 ? seconds / predicted : null;
  });
}

/**
 * Spread not explained by size: the distance between the 80th and 20th centiles of the
 * size-adjusted ratios (observed ÷ predicted seconds). 0 means every file took exactly what its
 * size predicts; 0.5 means the middle 60 % of files range over half the predicted time. Null with
 * fewer than five transfers.
 */
export function sizeAdjustedSpread(
  transfers: readonly Transfer[],
  fit: LineFit | null,
): number | null {
  if (transfers.length < 5) return null;
  const ratios = sizeAdjustedRatios(transfers, fit).filter((r): r is number => r !== null);
  if (ratios.length < 5) return null;
  ratios.sort((a, b) => a - b);
  return quantileSorted(ratios, 0.8) - quantileSorted(ratios, 0.2);
}
