/** Points of a curve, in columns. */
export interface CurvePoints {
  x: Float64Array;
  y: Float64Array;
}

export interface DecimateOptions {
  /** Slices of equal width on a log x axis (points at x ≤ 0 are left out). */
  log?: boolean;
  /** Points before `count` only (a column that grows by doubling has unused room at its end). */
  count?: number;
}

/**
 * A curve thinned for drawing only (never for analysis): the x range is cut into `buckets` equal
 * slices (equal on a log axis with `log`) and each slice keeps its lowest and its highest point,
 * in x order, so every dip and spike a pixel column could show is still drawn, and at most
 * 2 × buckets points remain. `x` must not decrease. A curve already that short is returned as a
 * copy. One pass, no allocation but the result: a million points take a few milliseconds.
 */
export function decimateMinMax(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  buckets: number,
  options: DecimateOptions = {},
): CurvePoints {
  if (!(buckets >= 1)) throw new RangeError(`buckets must be at least 1 (got ${buckets})`);
  const log = options.log === true;
  let first = 0;
  const n = Math.min(x.length, y.length, options.count ?? Infinity);
  if (log) while (first < n && !(x[first]! > 0)) first += 1;
  if (n - first <= 2 * buckets) {
    const length = Math.max(0, n - first);
    return {
      x: Float64Array.from({ length }, (_, i) => x[first + i]!),
      y: Float64Array.from({ length }, (_, i) => y[first + i]!),
    };
  }
  const scale = log ? Math.log : (v: number) => v;
  const x0 = scale(x[first]!);
  const span = scale(x[n - 1]!) - x0;
  const perUnit = span > 0 ? buckets / span : 0;
  const outX = new Float64Array(2 * buckets);
  const outY = new Float64Array(2 * buckets);
  let kept = 0;
  const flush = (low: number, high: number) => {
    const [a, b] = low <= high ? [low, high] : [high, low];
    outX[kept] = x[a]!;
    outY[kept] = y[a]!;
    kept += 1;
    if (b !== a) {
      outX[kept] = x[b]!;
      outY[kept] = y[b]!;
      kept += 1;
    }
  };
  let bucketOf = -1;
  let low = first;
  let high = first;
  let lowY = 0;
  let highY = 0;
  for (let i = first; i < n; i += 1) {
    const value = y[i]!;
    const bucket = Math.min(buckets - 1, Math.floor((scale(x[i]!) - x0) * perUnit));
    if (bucket !== bucketOf) {
      if (bucketOf >= 0) flush(low, high);
      bucketOf = bucket;
      low = high = i;
      lowY = highY = value;
    } else if (value < lowY) {
      low = i;
      lowY = value;
    } else if (value > highY) {
      high = i;
      highY = value;
    }
  }
  if (bucketOf >= 0) flush(low, high);
  return { x: outX.slice(0, kept), y: outY.slice(0, kept) };
}
