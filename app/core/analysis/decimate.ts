/** Points of a curve, in columns. */
export interface CurvePoints {
  x: Float64Array;
  y: Float64Array;
}

/**
 * A curve thinned for drawing only (never for analysis): the x range is cut into `buckets` equal
 * slices and each slice keeps its lowest and its highest point, in x order, so every dip and spike
 * a pixel column could show is still drawn, and at most 2 × buckets points remain. `x` must not
 * decrease. A curve already that short is returned as a copy.
 */
export function decimateMinMax(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  buckets: number,
): CurvePoints {
  const n = Math.min(x.length, y.length);
  if (!(buckets >= 1)) throw new RangeError(`buckets must be at least 1 (got ${buckets})`);
  if (n <= 2 * buckets)
    return {
      x: Float64Array.from({ length: n }, (_, i) => x[i]!),
      y: Float64Array.from({ length: n }, (_, i) => y[i]!),
    };
  const outX = new Float64Array(2 * buckets);
  const outY = new Float64Array(2 * buckets);
  const x0 = x[0]!;
  const span = x[n - 1]! - x0;
  let kept = 0;
  let i = 0;
  for (let bucket = 0; bucket < buckets && i < n; bucket += 1) {
    const end = bucket === buckets - 1 ? Infinity : x0 + (span * (bucket + 1)) / buckets;
    let low = i;
    let high = i;
    for (; i < n && (x[i]! < end || bucket === buckets - 1); i += 1) {
      if (y[i]! < y[low]!) low = i;
      if (y[i]! > y[high]!) high = i;
    }
    if (i === low && i === high) continue; // an empty slice (x jumped over it)
    const [first, second] = low <= high ? [low, high] : [high, low];
    outX[kept] = x[first]!;
    outY[kept] = y[first]!;
    kept += 1;
    if (second !== first) {
      outX[kept] = x[second]!;
      outY[kept] = y[second]!;
      kept += 1;
    }
  }
  return { x: outX.slice(0, kept), y: outY.slice(0, kept) };
}
