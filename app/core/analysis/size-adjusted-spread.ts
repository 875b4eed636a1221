import { quantileSorted } from 'simple-statistics';
import { argsort } from './argsort.js';
import { sortedMedian } from './per-size-medians.js';
import type { LineFit } from './theil-sen.js';
import { selectValues, transferColumns, type TransferColumns } from './transfer-columns.js';
import type { Transfer } from './transfer-rate.js';

/** The median seconds of the transfers of each row's size: one sort by size then seconds. */
function medianSecondsBySize({ bytes, seconds }: TransferColumns): Float64Array {
  const order = argsort([bytes, seconds]);
  const sorted = new Float64Array(order.length);
  order.forEach((index, position) => {
    sorted[position] = seconds[index]!;
  });
  const medians = new Float64Array(order.length);
  for (let start = 0; start < order.length;) {
    let end = start + 1;
    while (end < order.length && bytes[order[end]!] === bytes[order[start]!]) end += 1;
    const middle = sortedMedian(sorted, start, end);
    for (let position = start; position < end; position += 1) medians[order[position]!] = middle;
    start = end;
  }
  return medians;
}

/**
 * Observed ÷ predicted seconds for each transfer, in order: the prediction is the fitted line of
 * seconds on bytes, or, without a rising line (say, every file the same size), the median seconds
 * of transfers of that size. A ratio of 2 means the file took twice what its size predicts; NaN
 * where nothing positive was predicted.
 */
export function sizeAdjustedRatiosOf(files: TransferColumns, fit: LineFit | null): Float64Array {
  const { bytes, seconds } = files;
  const bySize = fit && fit.slope > 0 ? null : medianSecondsBySize(files);
  const ratios = new Float64Array(bytes.length);
  for (let i = 0; i < bytes.length; i += 1) {
    const predicted = bySize ? bySize[i]! : fit!.intercept + fit!.slope * bytes[i]!;
    ratios[i] = predicted > 0 ? seconds[i]! / predicted : Number.NaN;
  }
  return ratios;
}

/** sizeAdjustedRatiosOf for transfers given one object each, null where it has none. */
export function sizeAdjustedRatios(
  transfers: readonly Transfer[],
  fit: LineFit | null,
): (number | null)[] {
  return Array.from(sizeAdjustedRatiosOf(transferColumns(transfers), fit), (ratio) =>
    Number.isNaN(ratio) ? null : ratio,
  );
}

/**
 * Spread not explained by size: the distance between the 80th and 20th centiles of the
 * size-adjusted ratios (observed ÷ predicted seconds). 0 means every file took exactly what its
 * size predicts; 0.5 means the middle 60 % of files range over half the predicted time. Null with
 * fewer than five transfers.
 */
export function sizeAdjustedSpreadOf(files: TransferColumns, fit: LineFit | null): number | null {
  if (files.bytes.length < 5) return null;
  const all = sizeAdjustedRatiosOf(files, fit);
  const ratios = selectValues(all, (i) => !Number.isNaN(all[i])).sort();
  if (ratios.length < 5) return null;
  const sorted = ratios as unknown as number[];
  return quantileSorted(sorted, 0.8) - quantileSorted(sorted, 0.2);
}

/** sizeAdjustedSpreadOf for transfers given one object each. */
export function sizeAdjustedSpread(
  transfers: readonly Transfer[],
  fit: LineFit | null,
): number | null {
  return sizeAdjustedSpreadOf(transferColumns(transfers), fit);
}
