import { median, quantileSorted } from 'simple-statistics';
import type { LineFit } from './theil-sen.js';
import type { Transfer } from './transfer-rate.js';

/**
 * Spread not explained by size: for each transfer, observed seconds ÷ predicted seconds, then the
 * distance between the 80th and 20th centiles of those ratios. The prediction is the fitted line
 * of seconds on bytes, or, without a rising line (say, every file the same size), the median
 * seconds of transfers of that size. 0 means every file took exactly what its size predicts;
 * 0.5 means the middle 60 % of files range over half the predicted time. Null with fewer than
 * five transfers.
 */
export function sizeAdjustedSpread(
  transfers: readonly Transfer[],
  fit: LineFit | null,
): number | null {
  if (transfers.length < 5) return null;
  const bySize = new Map<number, number[]>();
  for (const { bytes, seconds } of transfers)
    bySize.set(bytes, [...(bySize.get(bytes) ?? []), seconds]);
  const predict = (bytes: number) =>
    fit && fit.slope > 0 ? fit.intercept + fit.slope * bytes : median(bySize.get(bytes)!);
  const ratios: number[] = [];
  for (const { bytes, seconds } of transfers) {
    const predicted = predict(bytes);
    if (predicted > 0) ratios.push(seconds / predicted);
  }
  if (ratios.length < 5) return null;
  ratios.sort((a, b) => a - b);
  return quantileSorted(ratios, 0.8) - quantileSorted(ratios, 0.2);
}
