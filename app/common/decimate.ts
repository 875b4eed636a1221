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
  // Slice b ends where x reaches its upper edge (found by bisection: x is sorted), so the inner
  // loop only compares rates: a million points take a couple of milliseconds.
  const from = log ? Math.log(x[first]!) : x[first]!;
  const span = (log ? Math.log(x[n - 1]!) : x[n - 1]!) - from;
  const edge = (b: number) => {
    const at = from + (span * (b + 1)) / buckets;
    return log ? Math.exp(at) : at;
  };
  const outX = new Float64Array(2 * buckets);
  const outY = new Float64Array(2 * buckets);
  let kept = 0;
  let i = first;
  for (let b = 0; b < buckets && i < n; b += 1) {
    let end = n;
    if (b < buckets - 1) {
      const limit = edge(b);
      let lo = i;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (x[mid]! < limit) lo = mid + 1;
        else hi = mid;
      }
      end = lo;
    }
    if (end === i) continue; // an empty slice (x jumped over it)
    let low = i;
    let high = i;
    let lowY = y[i]!;
    let highY = lowY;
    for (let j = i + 1; j < end; j += 1) {
      const value = y[j]!;
      if (value < lowY) {
        low = j;
        lowY = value;
      } else if (value > highY) {
        high = j;
        highY = value;
      }
    }
    const a = low <= high ? low : high;
    const c = low <= high ? high : low;
    outX[kept] = x[a]!;
    outY[kept] = y[a]!;
    kept += 1;
    if (c !== a) {
      outX[kept] = x[c]!;
      outY[kept] = y[c]!;
      kept += 1;
    }
    i = end;
  }
  return { x: outX.slice(0, kept), y: outY.slice(0, kept) };
}
