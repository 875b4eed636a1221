import type { LineFit } from './theil-sen.js';

/**
 * A line fitted to seconds against bytes read as a device: rate = 1 / slope (bytes/s) and
 * latency = intercept (seconds per transfer). A slope that is not positive has no rate (null):
 * the data do not show time growing with size.
 */
export function lineRate(fit: LineFit | null): { rate: number | null; latency: number | null } {
  if (!fit) return { rate: null, latency: null };
  return { rate: fit.slope > 0 ? 1 / fit.slope : null, latency: fit.intercept };
}
