import { median } from 'simple-statistics';
import { transferRate, type Transfer } from './transfer-rate.js';

export interface SizeMedian {
  bytes: number;
  count: number;
  /** Median rate of the transfers of exactly this size, bytes/s. */
  medianRate: number;
}

/**
 * The rate-vs-size curve: transfers grouped by exact size, the median rate of each group, in
 * increasing size. Sizes whose transfers all took no measurable time are left out.
 */
export function perSizeMedians(transfers: readonly Transfer[]): SizeMedian[] {
  const bySize = new Map<number, number[]>();
  for (const { bytes, seconds } of transfers) {
    const rate = transferRate(bytes, seconds);
    if (rate === null) continue;
    const list = bySize.get(bytes) ?? [];
    list.push(rate);
    bySize.set(bytes, list);
  }
  return [...bySize.entries()]
    .sort(([a], [b]) => a - b)
    .map(([bytes, rates]) => ({ bytes, count: rates.length, medianRate: median(rates) }));
}
