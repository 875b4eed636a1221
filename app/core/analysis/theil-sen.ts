import { median } from 'simple-statistics';
import { SlopeSelector } from './slope-selection.js';

export interface LineFit {
  /** Seconds per byte. */
  slope: number;
  /** Seconds at zero bytes: the fixed cost of a transfer. */
  intercept: number;
}

/**
 * Theil–Sen estimator of y = intercept + slope·x: the slope is the median of the slopes
 * (yj − yi)/(xj − xi) over all pairs with xi ≠ xj, and the intercept the median of yi − slope·xi.
 * It tolerates up to about 29 % of points being arbitrary outliers. Null when fewer than two
 * distinct x values exist. The median slope is selected without listing the n² slopes (see
 * slope-selection.ts), so a run of a million points takes seconds and O(n) memory.
 */
export function theilSen(points: readonly (readonly [number, number])[]): LineFit | null {
  const xs = Float64Array.from(points, ([x]) => x);
  const ys = Float64Array.from(points, ([, y]) => y);
  const selector = new SlopeSelector(xs, ys);
  const count = selector.pairCount;
  if (count === 0) return null;
  // The two middle ranks (one when the count is odd), combined as simple-statistics' median does.
  const [low, high] = selector.slopesAtRanks(
    Math.floor((count - 1) / 2),
    Math.ceil((count - 1) / 2),
  );
  const slope = low === high ? low : median([low, high]);
  const intercept = median(points.map(([x, y]) => y - slope * x));
  return { slope, intercept };
}
