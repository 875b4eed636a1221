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
  return leastSquaresOf(
    Float64Array.from(points, ([x]) => x),
    Float64Array.from(points, ([, y]) => y),
  );
}

/**
 * The least-squares fit of the points (xs[i], ys[i]), from columns: a million [x, y] pairs were
 * 72 MB. The sums run in the order simple-statistics' linearRegression and rSquared use (centred
 * on the means), so the figures are theirs to the last bit (tests/unit/analysis compares).
 */
export function leastSquaresOf(xs: Float64Array, ys: Float64Array): LeastSquaresFit | null {
  const n = xs.length;
  if (!xs.some((x) => x !== xs[0])) return null;
  let sumX = 0;
  let sumY = 0;
  for (let i = 0; i < n; i += 1) {
    sumX += xs[i]!;
    sumY += ys[i]!;
  }
  const meanX = sumX / n;
  const meanY = sumY / n;
  let sumXY = 0;
  let sumXX = 0;
  for (let i = 0; i < n; i += 1) {
    const deviationX = xs[i]! - meanX;
    sumXY += deviationX * (ys[i]! - meanY);
    sumXX += deviationX * deviationX;
  }
  const slope = sumXY / sumXX;
  const intercept = meanY - slope * meanX;
  // r² = 1 − Σ(y − fitted)² / Σ(y − mean)², the mean taken afresh as rSquared does.
  let total = 0;
  for (let i = 0; i < n; i += 1) total += ys[i]!;
  const average = total / n;
  let squares = 0;
  let residuals = 0;
  for (let i = 0; i < n; i += 1) {
    squares += Math.pow(average - ys[i]!, 2);
    residuals += Math.pow(ys[i]! - (intercept + slope * xs[i]!), 2);
  }
  const r2 = 1 - residuals / squares;
  return { slope, intercept, r2: Number.isFinite(r2) ? r2 : 1 };
}
