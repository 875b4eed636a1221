import { argsort } from './argsort.js';
import {
  columnRates,
  ratedRows,
  transferColumns,
  type TransferColumns,
} from './transfer-columns.js';
import type { Transfer } from './transfer-rate.js';

export interface SizeMedian {
  bytes: number;
  count: number;
  /** Median rate of the transfers of exactly this size, bytes/s. */
  medianRate: number;
}

/** The median of values[start..end), which are sorted: the middle one, or the mean of the two. */
export function sortedMedian(values: Float64Array, start: number, end: number): number {
  const middle = (end - start - 1) / 2;
  const low = values[start + Math.floor(middle)]!;
  if (Number.isInteger(middle)) return low;
  // As simple-statistics interpolates (type 7), so the figures are the same as its median's.
  return low + 0.5 * (values[start + Math.ceil(middle)]! - low);
}

/**
 * The rate-vs-size curve: transfers grouped by exact size, the median rate of each group, in
 * increasing size. Sizes whose transfers all took no measurable time are left out. One sort by
 * size then rate, not a list per size (a million sizes were a million lists).
 */
export function perSizeMediansOf(files: TransferColumns): SizeMedian[] {
  const rated = ratedRows(files);
  const sizes = rated.bytes;
  const rates = columnRates(rated);
  const order = argsort([sizes, rates]);
  const sortedSizes = new Float64Array(order.length);
  const sortedRates = new Float64Array(order.length);
  order.forEach((index, position) => {
    sortedSizes[position] = sizes[index]!;
    sortedRates[position] = rates[index]!;
  });
  const curve: SizeMedian[] = [];
  for (let start = 0; start < order.length;) {
    let end = start + 1;
    while (end < order.length && sortedSizes[end] === sortedSizes[start]) end += 1;
    curve.push({
      bytes: sortedSizes[start]!,
      count: end - start,
      medianRate: sortedMedian(sortedRates, start, end),
    });
    start = end;
  }
  return curve;
}

/** perSizeMediansOf for transfers given one object each. */
export function perSizeMedians(transfers: readonly Transfer[]): SizeMedian[] {
  return perSizeMediansOf(transferColumns(transfers));
}
