/**
 * A line fitted to a run's files (seconds against bytes: rate = 1 / slope, fixed cost per file =
 * the intercept) in words, for the tables that show every statistic (Details, the CLI summary and
 * the PDF). A negative intercept is not a latency: time did not grow with size at one rate (as
 * when later, larger files ran slower), so the fit does not describe the run, and neither of its
 * figures is shown as if it did. Pure: imports only the shared formatting.
 */
import { dash, formatLatency, formatRate } from './format.js';

export interface LineFitFigures {
  rate: number | null;
  latency: number | null;
}

/** What is said in place of a fit's figures when its intercept is negative. */
export const fitDoesNotDescribeRun = 'the fit does not describe this run';

/** Whether a fit can be read as a rate and a fixed cost per file. */
export function fitDescribesRun(fit: LineFitFigures): boolean {
  return fit.latency === null || fit.latency >= 0;
}

/** The fit's rate and latency as table cells. */
export function lineFitWords(fit: LineFitFigures): { rate: string; latency: string } {
  if (fitDescribesRun(fit))
    return { rate: formatRate(fit.rate), latency: formatLatency(fit.latency) };
  return { rate: fitDoesNotDescribeRun, latency: `${dash} (its intercept is negative)` };
}
