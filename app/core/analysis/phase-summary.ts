import { max, mean, median, min, sampleStandardDeviation } from 'simple-statistics';
import { leastSquaresOf } from './least-squares.js';
import { lineRate } from './line-rate.js';
import { perSizeMedians, type SizeMedian } from './per-size-medians.js';
import { theilSenOf } from './theil-sen.js';
import { transferRates, type Transfer } from './transfer-rate.js';
import { trimmedMean, type TrimmedMean } from './trimmed-mean.js';

/** The summary of one phase (write or read) as the results document stores it. Rates in bytes/s. */
export type PhaseSummary = {
  count: number;
  mean: number | null;
  median: number | null;
  min: number | null;
  max: number | null;
  /** Sample standard deviation of the per-file rates. */
  sd: number | null;
  trimmedMean: TrimmedMean | null;
  theilSen: { rate: number | null; latency: number | null };
  linear: { rate: number | null; latency: number | null; r2: number | null };
  bySize: SizeMedian[];
};

/**
 * Everything the results document says about one phase: statistics of the per-file rates, and
 * two fits of seconds on bytes (Theil–Sen, robust; least squares, with r²) read as rate and latency.
 */
export function phaseSummary(transfers: readonly Transfer[]): PhaseSummary {
  const rates = transferRates(transfers);
  const bytes = new Float64Array(transfers.length);
  const seconds = new Float64Array(transfers.length);
  transfers.forEach((t, i) => {
    bytes[i] = t.bytes;
    seconds[i] = t.seconds;
  });
  const linear = leastSquaresOf(bytes, seconds);
  return {
    count: transfers.length,
    mean: rates.length ? mean(rates) : null,
    median: rates.length ? median(rates) : null,
    min: rates.length ? min(rates) : null,
    max: rates.length ? max(rates) : null,
    sd: rates.length > 1 ? sampleStandardDeviation(rates) : null,
    trimmedMean: trimmedMean(rates, 0.2),
    theilSen: lineRate(theilSenOf(bytes, seconds)),
    linear: { ...lineRate(linear), r2: linear ? linear.r2 : null },
    bySize: perSizeMedians(transfers),
  };
}
