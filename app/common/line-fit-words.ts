/**
 * A line fitted to a run's files (seconds against bytes: rate = 1 / slope, fixed cost per file =
 * the intercept) in words, for the tables that show every statistic (Details, the CLI summary and
 * the PDF). A negative intercept is not a latency, and a slope that is not positive is no rate:
 * time did not grow with size at one rate (as when later, larger files ran slower), so the fit
 * does not describe the run, and neither of its figures is shown as if it did. Pure: imports only
 * the shared formatting.
 */
import { dash, formatLatency, formatRate } from './format.js';

export interface LineFitFigures {
  rate: number | null;
  latency: number | null;
}

/** What is said in place of a fit's figures when it does not describe the run. */
export const fitDoesNotDescribeRun = 'the fit does not describe this run';

/** Why a fit does not describe the run, or null when it does (or when there was no fit). */
export function fitMisfit(fit: LineFitFigures): string | null {
  if (fit.latency !== null && fit.latency < 0) return 'its intercept is negative';
  if (fit.latency !== null && fit.rate === null) return 'time did not grow with size';
  return null;
}

/** A table cell: its figure, and a few words under it where the figure needs them. */
export interface FitCell {
  value: string;
  note?: string;
}

/** The fit's rate and latency as table cells. */
export function lineFitWords(fit: LineFitFigures): { rate: FitCell; latency: FitCell } {
  const misfit = fitMisfit(fit);
  if (misfit === null)
    return {
      rate: { value: formatRate(fit.rate) },
      latency: { value: formatLatency(fit.latency) },
    };
  return {
    rate: { value: dash, note: fitDoesNotDescribeRun },
    latency: { value: dash, note: misfit },
  };
}
