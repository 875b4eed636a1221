import { linearRegression, rSquared } from 'simple-statistics';
import type { LineFit } from './theil-sen.js';

export interface LeastSquaresFit extends LineFit {
  /** Coefficient of determination: 1 − SSresidual / SStotal (1 when every point is on the line). */
  r2: number;
}

/**
 * Ordinary least squares fit of y = intercept + slope·x, minimising the sum of squared vertical
 * distances, with its r². Null when fewer than two distinct x values exist.
 */
export function leastSquares(
  points: readonly (readonly [number, number])[],
): LeastSquaresFit | null {
  if (new Set(points.map(([x]) => x)).size < 2) return null;
  const data = points.map(([x, y]) => [x, y]);
  const { m, b } = linearRegression(data);
  const r2 = rSquared(data, (x) => b + m * x);
  return { slope: m, intercept: b, r2: Number.isFinite(r2) ? r2 : 1 };
}
