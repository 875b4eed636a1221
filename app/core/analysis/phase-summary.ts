import { max, mean, median, min, sampleStandardDeviation } from 'simple-statistics';
import { leastSquaresOf } from './least-squares.js';
import { lineRate } from './line-rate.js';
import { perSizeMediansOf, type SizeMedian } from './per-size-medians.js';
import { theilSenOf } from './theil-sen.js';
import {
  columnRates,
  ratedRows,
  transferColumns,
  type TransferColumns,
} from './transfer-columns.js';
import type { Transfer } from './transfer-rate.js';
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
export function phaseSummaryOf(files: TransferColumns): PhaseSummary {
  const { bytes, seconds } = files;
  const rates = columnRates(ratedRows(files));
  // simple-statistics reads any array by index: a typed one gives the same figures.
  const values = rates as unknown as number[];
  const linear = leastSquaresOf(bytes, seconds);
  return {
    count: bytes.length,
    mean: rates.length ? mean(values) : null,
    median: rates.length ? median(values) : null,
    min: rates.length ? min(values) : null,
    max: rates.length ? max(values) : null,
    sd: rates.length > 1 ? sampleStandardDeviation(values) : null,
    trimmedMean: trimmedMean(rates, 0.2),
    theilSen: lineRate(theilSenOf(bytes, seconds)),
    linear: { ...lineRate(linear), r2: linear ? linear.r2 : null },
    bySize: perSizeMediansOf(files),
  };
}

/** phaseSummaryOf for transfers given one object each. */
export function phaseSummary(transfers: readonly Transfer[]): PhaseSummary {
  return phaseSummaryOf(transferColumns(transfers));
}
