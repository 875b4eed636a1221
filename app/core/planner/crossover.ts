/**
 * Time against burst size: each option's curve is piecewise linear (in-cache slope up to the cache,
 * after-cache slope beyond), so curves are exact from their corners and crossovers are solved
 * segment by segment. A crossover is where a bigger cache over a slower link overtakes.
 */
import type { WriteRates } from './cache.js';

/**
 * Corners [bytes, seconds] of one time curve, from 0 to `maxBytes`, or to `fullAtBytes` when the
 * disk is full before that: a burst larger than its free space does not take longer, it does not
 * fit, so the curve stops there.
 */
export type TimeCurve = [number, number][];

export function timeCurve(
  rates: WriteRates,
  cacheBytes: number | null,
  maxBytes: number,
  fullAtBytes = Infinity,
): TimeCurve {
  const end = Math.max(0, Math.min(maxBytes, fullAtBytes));
  const corners: TimeCurve = [[0, 0]];
  if (cacheBytes !== null && cacheBytes > 0 && cacheBytes < end) {
    const atCliff = cacheBytes / rates.inCacheBytesPerSecond;
    corners.push([cacheBytes, atCliff]);
    corners.push([end, atCliff + (end - cacheBytes) / rates.afterCacheBytesPerSecond]);
  } else if (cacheBytes !== null && cacheBytes <= 0) {
    corners.push([end, end / rates.afterCacheBytesPerSecond]);
  } else {
    corners.push([end, end / rates.inCacheBytesPerSecond]);
  }
  return corners;
}

/** The largest size a curve covers: its disk's free space, or the chart's end. */
export function curveEnd(curve: TimeCurve): number {
  return curve[curve.length - 1]![0];
}

/** Seconds at `bytes` on a curve, by linear interpolation between its corners. */
export function secondsAt(curve: TimeCurve, bytes: number): number {
  for (let index = 1; index < curve.length; index += 1) {
    const [x0, y0] = curve[index - 1]!;
    const [x1, y1] = curve[index]!;
    if (bytes <= x1 || index === curve.length - 1) {
      return x1 === x0 ? y1 : y0 + ((bytes - x0) * (y1 - y0)) / (x1 - x0);
    }
  }
  return 0;
}

export interface CurveCrossover {
  bytes: number;
  seconds: number;
  fasterBelow: number;
  fasterAbove: number;
}

/** Where two curves cross (strict changes of which is faster), in increasing size, up to where
 * the shorter one ends. */
export function crossoversOf(
  a: TimeCurve,
  b: TimeCurve,
  indexA: number,
  indexB: number,
): CurveCrossover[] {
  // Only where both options can hold the burst: beyond one's end there is nothing to overtake.
  const shared = Math.min(curveEnd(a), curveEnd(b));
  const xs = [...new Set([...a, ...b].map(([x]) => Math.min(x, shared)))].sort((p, q) => p - q);
  const found: CurveCrossover[] = [];
  // Relative tolerance so float noise at equal times is not read as a crossing.
  const sign = (x: number) => {
    const gap = secondsAt(a, x) - secondsAt(b, x);
    return Math.abs(gap) <= 1e-9 * Math.max(1, secondsAt(a, x)) ? 0 : Math.sign(gap);
  };
  let last: { x: number; sign: number } | null = null;
  let previousX = 0;
  for (const x of xs) {
    const here = sign(x);
    if (here !== 0) {
      if (last && here !== last.sign) {
        // Touching at previousX means the crossing is there; otherwise both are linear between.
        let at = previousX;
        if (sign(previousX) !== 0) {
          const d0 = secondsAt(a, previousX) - secondsAt(b, previousX);
          const d1 = secondsAt(a, x) - secondsAt(b, x);
          at = previousX + ((x - previousX) * d0) / (d0 - d1);
        }
        found.push({
          bytes: at,
          seconds: secondsAt(a, at),
          fasterBelow: last.sign < 0 ? indexA : indexB,
          fasterAbove: last.sign < 0 ? indexB : indexA,
        });
      }
      last = { x, sign: here };
    }
    previousX = x;
  }
  return found;
}

/** All crossovers among a set of curves, smallest size first. */
export function allCrossovers(
  curves: readonly { index: number; curve: TimeCurve }[],
): CurveCrossover[] {
  const found: CurveCrossover[] = [];
  for (let i = 0; i < curves.length; i += 1) {
    for (let j = i + 1; j < curves.length; j += 1) {
      found.push(
        ...crossoversOf(curves[i]!.curve, curves[j]!.curve, curves[i]!.index, curves[j]!.index),
      );
    }
  }
  return found.sort((p, q) => p.bytes - q.bytes);
}
