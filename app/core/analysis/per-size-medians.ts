import { argsort } from './argsort.js';
import { transferRate, type Transfer } from './transfer-rate.js';

export interface SizeMedian {
  bytes: number;
  count: number;
  /** Median rate of the transfers of exactly this size, bytes/s. */
  medianRate: number;
}

/** The median of values[start..end), which are sorted: the middle one, or the mean of the two. */
function sortedMedian(values: Float64Array, start: number, end: number): number {
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
export function perSizeMedians(transfers: readonly Transfer[]): SizeMedian[] {
  const sizes: number[] = [];
  const rates: number[] = [];
  for (const { bytes, seconds } of transfers) {
    const rate = transferRate(bytes, seconds);
    if (rate === null) continue;
    sizes.push(bytes);
    rates.push(rate);
  }
  const order = argsort([Float64Array.from(sizes), Float64Array.from(rates)]);
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
