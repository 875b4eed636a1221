import { createHash } from 'node:crypto';
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
  const xs = new Float64Array(points.length);
  const ys = new Float64Array(points.length);
  points.forEach(([x, y], i) => {
    xs[i] = x;
    ys[i] = y;
  });
  return theilSenOf(xs, ys);
}

/**
 * The last fits, by a digest of their points: a phase's findings and its summary fit the same
 * points (its headline, between them, the larger files), a few seconds each for a million.
 */
const recentFits = new Map<string, LineFit | null>();
const keptFits = 2;

/** Theil–Sen of the points (xs[i], ys[i]): the same fit, from columns (no object per point). */
export function theilSenOf(xs: Float64Array, ys: Float64Array): LineFit | null {
  const digest = createHash('sha256').update(xs).update(ys).digest('hex');
  let fit = recentFits.get(digest);
  if (fit === undefined) {
    fit = fitColumns(xs, ys);
    recentFits.set(digest, fit);
    for (const old of recentFits.keys()) if (recentFits.size > keptFits) recentFits.delete(old);
  }
  return fit && { ...fit };
}

function fitColumns(xs: Float64Array, ys: Float64Array): LineFit | null {
  const selector = new SlopeSelector(xs, ys);
  const count = selector.pairCount;
  if (count === 0) return null;
  // The two middle ranks (one when the count is odd), combined as simple-statistics' median does.
  const [low, high] = selector.slopesAtRanks(
    Math.floor((count - 1) / 2),
    Math.ceil((count - 1) / 2),
  );
  const slope = low === high ? low : median([low, high]);
  const residuals = new Array<number>(xs.length);
  for (let i = 0; i < xs.length; i += 1) residuals[i] = ys[i]! - slope * xs[i]!;
  return { slope, intercept: median(residuals) };
}
