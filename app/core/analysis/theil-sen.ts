import { median } from 'simple-statistics';

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
 * distinct x values exist.
 */
export function theilSen(points: readonly (readonly [number, number])[]): LineFit | null {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i += 1) {
    const [xi, yi] = points[i]!;
    for (let j = i + 1; j < points.length; j += 1) {
      const [xj, yj] = points[j]!;
      if (xj !== xi) slopes.push((yj - yi) / (xj - xi));
    }
  }
  if (slopes.length === 0) return null;
  const slope = median(slopes);
  const intercept = median(points.map(([x, y]) => y - slope * x));
  return { slope, intercept };
}
