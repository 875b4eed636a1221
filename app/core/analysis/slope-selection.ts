/**
 * The k-th smallest of the pairwise slopes (yj − yi)/(xj − xi), xi ≠ xj, of n points without
 * listing the n² slopes: randomized interval contraction over slope ranks (Matoušek 1991;
 * Dillencourt, Mount and Netanyahu 1992). Every pair whose slope lies in an interval (lo, hi] is a
 * pair the orders of the points by y − lo·x and by y − hi·x disagree on, so counting, sampling and
 * listing those pairs is inversion counting (cross-pairs.ts): O(n log n) per round, and a few
 * rounds (each keeps about 6/√n of the pairs) bring the interval down to O(n) pairs that are
 * listed and sorted. Expected O(n log n) time, O(n) memory.
 *
 * Exactness: the orders compare y − t·x exactly (an error-bounded float test, then an exact
 * expansion sum), so the contraction works on the exact slopes q. The answer must be the k-th of
 * the slopes as the quadratic method computes them in floating point, s = fl(fl(dy)/fl(dx)), which
 * is within 4 ulps (relative 2⁻⁵⁰) of q; the last band is therefore widened by more than that and
 * the answer checked to lie clear of the pairs left outside it.
 */

import { argsort, argsortScratch, type ArgsortScratch } from './argsort.js';
import { crossPairs, crossPairsScratch, type CrossPairsScratch } from './cross-pairs.js';

const EPSILON = 2 ** -53;
/** More than the relative distance between a float slope and the exact one (3 roundings). */
const BAND = 64 * EPSILON;
/** Far above a float slope's absolute error when the quotient is subnormal (2⁻¹⁰⁷⁵). */
const TINY = 2 ** -1060;

/** A threshold on the slope: −∞, +∞ or a float. */
type Threshold = number;

/** Points ordered by y − t·x (ties kept together): order[i] is a point, group[i] its tie group. */
interface KeyOrder {
  order: Uint32Array;
  /** First position of the tie group of the point at each position. */
  groupStart: Uint32Array;
  /** Position of each point in order. */
  positionOf: Uint32Array;
}

export class SlopeSelector {
  private readonly n: number;
  private readonly byX: KeyOrder;
  private readonly byXDescending: KeyOrder;
  readonly pairCount: number;
  /**
   * Buffers every round reuses: a million points' rounds otherwise leave 100 MB of typed arrays
   * for the collector at a time.
   */
  private readonly scratch: {
    keys: Float64Array;
    tied: Uint8Array;
    samples: Float64Array;
    pairs: CrossPairsScratch;
    sort: ArgsortScratch;
  };

  constructor(
    private readonly xs: Float64Array,
    private readonly ys: Float64Array,
    private readonly random: () => number = Math.random,
  ) {
    this.n = xs.length;
    const n = this.n;
    this.scratch = {
      keys: new Float64Array(n),
      tied: new Uint8Array(n),
      samples: new Float64Array(Math.max(1024, n)),
      pairs: crossPairsScratch(n),
      sort: argsortScratch(n),
    };
    this.byX = this.orderAt(-Infinity);
    this.byXDescending = this.orderAt(Infinity);
    this.pairCount = this.distinctXPairs();
  }

  /** Pairs with xi ≠ xj (every slope there is): all pairs less those within each run of equal x. */
  private distinctXPairs(): number {
    const { n, xs } = this;
    const order = this.byX.order;
    let count = (n * (n - 1)) / 2;
    for (let start = 0; start < n;) {
      let end = start + 1;
      while (end < n && xs[order[end]!] === xs[order[start]!]) end += 1;
      count -= ((end - start) * (end - start - 1)) / 2;
      start = end;
    }
    return count;
  }

  /** The float slopes of ranks lowRank ≤ highRank (0-based, ascending order). */
  slopesAtRanks(lowRank: number, highRank: number): [number, number] {
    let lo: Threshold = -Infinity;
    let hi: Threshold = Infinity;
    let loOrder = this.byX;
    let hiOrder = this.byXDescending;
    let below = 0; // pairs with q ≤ lo
    let inside = this.pairCount; // pairs with lo < q ≤ hi
    const listCap = 4 * this.n + 1024;
    const sampleSize = Math.max(1024, this.n);
    let stalled = 0;
    while (inside > listCap) {
      const samples = (
        lo === -Infinity && hi === Infinity && 2 * inside >= (this.n * (this.n - 1)) / 2
          ? this.anyPairs(sampleSize)
          : this.pairsBetween(loOrder, hiOrder, inside, sampleSize)
      ).sort();
      const spread = 3 * Math.sqrt(sampleSize);
      const at = (rank: number) => ((rank - below) / inside) * sampleSize;
      const a = Math.floor(at(lowRank) - spread);
      const b = Math.ceil(at(highRank + 1) + spread);
      // Thresholds a little outside sampled slopes, so the final band needs no widening.
      const candidates: Threshold[] = [];
      if (a >= 0) candidates.push(widen(samples[a]!, -1));
      if (b < sampleSize) candidates.push(widen(samples[b]!, 1));
      if (stalled > 0) {
        // Ties can hold the quantiles still: a random pivot as in quickselect, on both sides.
        const pivot = samples[Math.floor(this.random() * sampleSize)]!;
        candidates.push(widen(pivot, -1), widen(pivot, 1));
      }
      let shrunk = false;
      for (const t of candidates) {
        if (!(t > lo && t < hi)) continue;
        const order = this.orderAt(t);
        const count = this.countBetween(this.byX, order);
        if (count <= lowRank) {
          inside -= count - below;
          below = count;
          lo = t;
          loOrder = order;
          shrunk = true;
        } else if (count > highRank) {
          inside = count - below;
          hi = t;
          hiOrder = order;
          shrunk = true;
        }
      }
      stalled = shrunk ? 0 : stalled + 1;
      if (stalled < 4) continue;
      if (lowRank < highRank) {
        // The two ranks sit in two different large tie blocks: one at a time.
        return [this.slopesAtRanks(lowRank, lowRank)[0], this.slopesAtRanks(highRank, highRank)[0]];
      }
      if (hi - lo <= 4 * (BAND * Math.max(Math.abs(lo), Math.abs(hi)) + TINY)) {
        // More than 4n + 1024 pairs share the slope up to rounding (collinear points): their
        // float slopes agree within a few ulps, so the sampled one at the rank stands for them.
        const value = samples[Math.min(sampleSize - 1, Math.max(0, Math.floor(at(lowRank))))]!;
        return [value, value];
      }
    }
    return (
      this.pick(loOrder, hiOrder, lo, hi, below, inside, lowRank, highRank) ??
      this.finish(lo, hi, lowRank, highRank)
    );
  }

  /** Lists the pairs in a band a little wider than (lo, hi] and picks the float slopes by rank. */
  private finish(
    lo: Threshold,
    hi: Threshold,
    lowRank: number,
    highRank: number,
  ): [number, number] {
    const wideLo = widen(lo, -1);
    const wideHi = widen(hi, 1);
    const loOrder = Number.isFinite(wideLo) ? this.orderAt(wideLo) : this.byX;
    const hiOrder = Number.isFinite(wideHi) ? this.orderAt(wideHi) : this.byXDescending;
    const below = Number.isFinite(wideLo) ? this.countBetween(this.byX, loOrder) : 0;
    const inside = this.countBetween(loOrder, hiOrder);
    const picked = this.pick(loOrder, hiOrder, wideLo, wideHi, below, inside, lowRank, highRank);
    if (picked === null) {
      throw new Error(`slope selection lost rank ${String(lowRank)}: a bug, please report it`);
    }
    return picked;
  }

  /**
   * The float slopes of the two ranks among the pairs in (lo, hi], or null when one of them is
   * not clear of the float slopes of the pairs outside (those within rounding of lo or hi).
   */
  private pick(
    loOrder: KeyOrder,
    hiOrder: KeyOrder,
    lo: Threshold,
    hi: Threshold,
    below: number,
    inside: number,
    lowRank: number,
    highRank: number,
  ): [number, number] | null {
    const slopes = this.pairsBetween(loOrder, hiOrder, inside, inside, true).sort();
    // Pairs below have float slopes ≤ floorOfBand, pairs above ≥ ceilingOfBand.
    const floorOfBand = lo + ((BAND / 8) * Math.abs(lo) + TINY / 1024);
    const ceilingOfBand = hi - ((BAND / 8) * Math.abs(hi) + TINY / 1024);
    const clear = (value: number | undefined): value is number =>
      value !== undefined &&
      (lo === -Infinity || value > floorOfBand) &&
      (hi === Infinity || value < ceilingOfBand);
    const low = slopes[lowRank - below];
    const high = slopes[highRank - below];
    return clear(low) && clear(high) ? [low, high] : null;
  }

  /**
   * The float slopes of `wanted` pairs with xi ≠ xj drawn uniformly (with replacement) by
   * rejection, without a pass over the orders: the first round's sample, while most pairs qualify.
   */
  private anyPairs(wanted: number): Float64Array {
    const { n, xs, ys } = this;
    const slopes = this.scratch.samples.subarray(0, wanted);
    for (let next = 0; next < wanted;) {
      const a = Math.floor(this.random() * n);
      let b = Math.floor(this.random() * (n - 1));
      if (b >= a) b += 1;
      if (xs[a] === xs[b]) continue;
      slopes[next++] = (ys[b]! - ys[a]!) / (xs[b]! - xs[a]!);
    }
    return slopes;
  }

  /**
   * Loads the points for crossPairs: in `lower` order, keyed by their `upper` tie group (its first
   * position), one run per `lower` tie group. Returns the number of runs.
   */
  private loadPairs(lower: KeyOrder, upper: KeyOrder): number {
    const { keys, ids, runs } = this.scratch.pairs;
    let runCount = 0;
    for (let p = 0; p < this.n; p += 1) {
      const point = lower.order[p]!;
      keys[p] = upper.groupStart[upper.positionOf[point]!]!;
      ids[p] = point;
      if (lower.groupStart[p] === p) runs[runCount++] = p;
    }
    runs[runCount] = this.n;
    return runCount;
  }

  /**
   * Pairs (a, b) with a before b in `lower` (strictly, not tied) and b not after a in `upper`
   * (tied counts): the pairs whose slope lies in (lo, hi].
   */
  private countBetween(lower: KeyOrder, upper: KeyOrder): number {
    return crossPairs(this.scratch.pairs, this.n, this.loadPairs(lower, upper));
  }

  /**
   * `wanted` pairs drawn uniformly (with replacement) from the `inside` pairs between the two
   * orders, or all of them when `all`; with their float slopes. A sample is written into the
   * scratch buffer, valid until the next sample.
   */
  private pairsBetween(
    lower: KeyOrder,
    upper: KeyOrder,
    inside: number,
    wanted: number,
    all = false,
  ): Float64Array {
    const slopes = all ? new Float64Array(wanted) : this.scratch.samples.subarray(0, wanted);
    const draws = all ? null : ascendingDraws(wanted, inside, this.random);
    const { xs, ys } = this;
    let seen = 0; // pairs met so far
    let next = 0; // next draw to answer
    let draw = draws ? draws() : 0; // its rank among the inside pairs
    crossPairs(this.scratch.pairs, this.n, this.loadPairs(lower, upper), (ids, from, count, b) => {
      while (next < wanted && (draws ? draw : next) < seen + count) {
        const a = ids[from + (draws ? draw : next) - seen]!;
        slopes[next] = (ys[b]! - ys[a]!) / (xs[b]! - xs[a]!);
        next += 1;
        if (draws && next < wanted) draw = draws();
      }
      seen += count;
    });
    return slopes;
  }

  /** The points ordered by y − t·x, exactly; t = ±∞ orders by x (ascending, descending), then y. */
  private orderAt(t: Threshold): KeyOrder {
    const { n, xs, ys } = this;
    let order: Uint32Array;
    // tied[p]: the point at p ties the one before it (checked only where a tie is possible).
    const tied = this.scratch.tied.fill(0);
    if (Number.isFinite(t)) {
      const compare = (a: number, b: number): number =>
        compareKeys(t, xs[a]!, ys[a]!, xs[b]!, ys[b]!);
      // Sort by the float key, then settle runs closer than its error bound exactly.
      const approx = this.scratch.keys;
      let bound = 0;
      for (let i = 0; i < n; i += 1) {
        approx[i] = ys[i]! - t * xs[i]!;
        bound = Math.max(bound, Math.abs(ys[i]!) + Math.abs(t * xs[i]!));
      }
      bound *= 8 * EPSILON;
      order = argsort([approx], this.scratch.sort);
      let start = 0;
      for (let i = 1; i <= n; i += 1) {
        if (i < n && approx[order[i]!]! - approx[order[i - 1]!]! <= bound) continue;
        if (i - start > 1) {
          order.subarray(start, i).sort(compare);
          for (let p = start + 1; p < i; p += 1)
            tied[p] = compare(order[p - 1]!, order[p]!) === 0 ? 1 : 0;
        }
        start = i;
      }
    } else {
      if (t < 0) order = argsort([xs, ys], this.scratch.sort);
      else {
        // By x descending, then y: the x-ascending order with its runs of equal x reversed.
        order = new Uint32Array(n);
        const ascending = this.byX.order;
        let to = 0;
        for (let end = n; end > 0;) {
          let start = end - 1;
          while (start > 0 && xs[ascending[start - 1]!] === xs[ascending[end - 1]!]) start -= 1;
          order.set(ascending.subarray(start, end), to);
          to += end - start;
          end = start;
        }
      }
      for (let p = 1; p < n; p += 1) {
        const a = order[p - 1]!;
        const b = order[p]!;
        tied[p] = xs[a] === xs[b] && ys[a] === ys[b] ? 1 : 0;
      }
    }
    const groupStart = new Uint32Array(n);
    const positionOf = new Uint32Array(n);
    for (let p = 0; p < n; p += 1) {
      positionOf[order[p]!] = p;
      groupStart[p] = tied[p] ? groupStart[p - 1]! : p;
    }
    return { order, groupStart, positionOf };
  }
}

/**
 * `count` ranks drawn uniformly from [0, inside) with replacement, handed out in ascending order:
 * each is the least of the draws still to come (the minimum of k uniforms is 1 − V^(1/k)), so
 * no array of draws is stored or sorted.
 */
function ascendingDraws(count: number, inside: number, random: () => number): () => number {
  let at = 0;
  let left = count;
  return () => {
    at += (1 - at) * (1 - Math.pow(random(), 1 / left));
    left -= 1;
    return Math.min(inside - 1, Math.floor(at * inside));
  };
}

/** A threshold moved outward (direction −1 or +1) by more than a float slope's rounding. */
function widen(t: Threshold, direction: -1 | 1): Threshold {
  return Number.isFinite(t) ? t + direction * (BAND * Math.abs(t) + TINY) : t;
}

/** Sign of (ya − t·xa) − (yb − t·xb), exact for finite t. */
function compareKeys(t: number, xa: number, ya: number, xb: number, yb: number): number {
  if (t === -Infinity) return Math.sign(xa - xb) || Math.sign(ya - yb);
  if (t === Infinity) return Math.sign(xb - xa) || Math.sign(ya - yb);
  const dy = ya - yb;
  const dx = xa - xb;
  const approx = dy - t * dx;
  const error =
    8 * EPSILON * (Math.abs(ya) + Math.abs(yb) + Math.abs(t) * (Math.abs(xa) + Math.abs(xb)));
  if (Math.abs(approx) > error) return Math.sign(approx);
  // Exact: dy and dx as two-term sums, t·dx as four products, the six terms summed exactly.
  const [dyHigh, dyLow] = twoDifference(ya, yb);
  const [dxHigh, dxLow] = twoDifference(xa, xb);
  const [p1, e1] = twoProduct(t, dxHigh);
  const [p2, e2] = twoProduct(t, dxLow);
  return signOfSum([dyHigh, dyLow, -p1, -e1, -p2, -e2]);
}

function twoDifference(a: number, b: number): [number, number] {
  const difference = a - b;
  const bVirtual = a - difference;
  const aVirtual = difference + bVirtual;
  return [difference, a - aVirtual + (bVirtual - b)];
}

function twoSum(a: number, b: number): [number, number] {
  const sum = a + b;
  const bVirtual = sum - a;
  const aVirtual = sum - bVirtual;
  return [sum, a - aVirtual + (b - bVirtual)];
}

const SPLITTER = 2 ** 27 + 1;
function split(a: number): [number, number] {
  const c = SPLITTER * a;
  const high = c - (c - a);
  return [high, a - high];
}

function twoProduct(a: number, b: number): [number, number] {
  const product = a * b;
  const [aHigh, aLow] = split(a);
  const [bHigh, bLow] = split(b);
  const error = aLow * bLow - (product - aHigh * bHigh - aLow * bHigh - aHigh * bLow);
  return [product, error];
}

/** Exact sign of a sum of floats: an expansion grown term by term (Shewchuk), largest last. */
function signOfSum(terms: readonly number[]): number {
  let expansion: number[] = [];
  for (const term of terms) {
    const grown: number[] = [];
    let carry = term;
    for (const component of expansion) {
      const [sum, error] = twoSum(carry, component);
      if (error !== 0) grown.push(error);
      carry = sum;
    }
    if (carry !== 0) grown.push(carry);
    expansion = grown;
  }
  return expansion.length === 0 ? 0 : Math.sign(expansion[expansion.length - 1]!);
}
