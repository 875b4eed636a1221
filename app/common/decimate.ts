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

/** The first index in [from, to) whose x is at least `limit` (x sorted), or `to`. */
function firstAtOrAbove(x: ArrayLike<number>, limit: number, from: number, to: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (x[mid]! < limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Indexes of the lowest and the highest y in [from, to) (the first of equals). */
function extremes(y: ArrayLike<number>, from: number, to: number): [number, number] {
  let low = from;
  let high = from;
  let lowY = y[from]!;
  let highY = lowY;
  for (let j = from + 1; j < to; j += 1) {
    const value = y[j]!;
    if (value < lowY) {
      low = j;
      lowY = value;
    } else if (value > highY) {
      high = j;
      highY = value;
    }
  }
  return [low, high];
}

/** The points a decimation keeps: each slice's lowest and highest, in x order, once each. */
class Picked {
  private readonly outX: Float64Array;
  private readonly outY: Float64Array;
  private kept = 0;
  constructor(
    private readonly x: ArrayLike<number>,
    private readonly y: ArrayLike<number>,
    room: number,
  ) {
    this.outX = new Float64Array(room);
    this.outY = new Float64Array(room);
  }
  add(low: number, high: number): void {
    const first = Math.min(low, high);
    const second = Math.max(low, high);
    this.outX[this.kept] = this.x[first]!;
    this.outY[this.kept] = this.y[first]!;
    this.kept += 1;
    if (second === first) return;
    this.outX[this.kept] = this.x[second]!;
    this.outY[this.kept] = this.y[second]!;
    this.kept += 1;
  }
  points(): CurvePoints {
    return { x: this.outX.slice(0, this.kept), y: this.outY.slice(0, this.kept) };
  }
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
  const out = new Picked(x, y, 2 * buckets);
  let i = first;
  for (let b = 0; b < buckets && i < n; b += 1) {
    const end = b < buckets - 1 ? firstAtOrAbove(x, edge(b), i, n) : n;
    if (end === i) continue; // an empty slice (x jumped over it)
    const [low, high] = extremes(y, i, end);
    out.add(low, high);
    i = end;
  }
  return out.points();
}

/**
 * The same thinning for a curve that grows while it is drawn (a live run): slices of a width that
 * is a power of two, from the first point, so a finished slice never changes and is kept; a
 * redraw folds in only the points added since (and the last, open slice). When the curve outgrows
 * `buckets` slices, the width doubles and neighbouring slices merge. At most 2 × `buckets` points,
 * at least about `buckets` once the curve is that long: a frame costs O(new points + buckets),
 * whatever the curve's length.
 */
export class GrowingDecimation {
  private origin = 0;
  private width = 0;
  /** Slice number, index of the lowest and of the highest y, per slice that has points. */
  private slice: number[] = [];
  private low: number[] = [];
  private high: number[] = [];
  private folded = 0;

  constructor(readonly buckets: number) {
    if (!(buckets >= 1)) throw new RangeError(`buckets must be at least 1 (got ${buckets})`);
  }

  /** The first `count` points of the columns (which only ever grow), thinned. */
  update(x: ArrayLike<number>, y: ArrayLike<number>, count: number): CurvePoints {
    if (count < this.folded) this.reset();
    if (count <= 2 * this.buckets && this.width === 0)
      return decimateMinMax(x, y, this.buckets, { count });
    if (this.width === 0) {
      this.origin = x[0]!;
      this.width =
        2 ** Math.ceil(Math.log2(Math.max(x[count - 1]! - this.origin, 1) / this.buckets));
    }
    while (x[count - 1]! - this.origin >= this.width * this.buckets) this.double(y);
    // The last slice may have grown: fold it again from its first point, then the new ones.
    let i = this.folded;
    if (this.slice.length > 0) {
      i = firstAtOrAbove(x, this.origin + this.slice.at(-1)! * this.width, 0, this.folded);
      this.slice.pop();
      this.low.pop();
      this.high.pop();
    }
    while (i < count) {
      const number = Math.floor((x[i]! - this.origin) / this.width);
      // At least one point a slice, whatever the rounding at its edge.
      const end = Math.max(
        i + 1,
        firstAtOrAbove(x, this.origin + (number + 1) * this.width, i, count),
      );
      const [low, high] = extremes(y, i, end);
      this.slice.push(number);
      this.low.push(low);
      this.high.push(high);
      i = end;
    }
    this.folded = count;
    const out = new Picked(x, y, 2 * this.slice.length);
    for (let k = 0; k < this.slice.length; k += 1) out.add(this.low[k]!, this.high[k]!);
    return out.points();
  }

  private double(y: ArrayLike<number>): void {
    this.width *= 2;
    let kept = 0;
    for (let k = 0; k < this.slice.length; k += 1) {
      const number = Math.floor(this.slice[k]! / 2);
      if (kept > 0 && this.slice[kept - 1] === number) {
        if (y[this.low[k]!]! < y[this.low[kept - 1]!]!) this.low[kept - 1] = this.low[k]!;
        if (y[this.high[k]!]! > y[this.high[kept - 1]!]!) this.high[kept - 1] = this.high[k]!;
        continue;
      }
      this.slice[kept] = number;
      this.low[kept] = this.low[k]!;
      this.high[kept] = this.high[k]!;
      kept += 1;
    }
    this.slice.length = this.low.length = this.high.length = kept;
  }

  private reset(): void {
    this.width = 0;
    this.slice = [];
    this.low = [];
    this.high = [];
    this.folded = 0;
  }
}
