import { sampleIntervals, type PhaseSamples } from './phase-samples.js';

/** A rate curve against cumulative bytes: one point per sample interval, in columns. */
export interface RateCurve {
  /** Cumulative bytes at the middle of each point's window. */
  bytes: Float64Array;
  /** Elapsed seconds at the middle of each point's window. */
  seconds: Float64Array;
  /** Bytes ÷ transfer seconds over the window, bytes/s. */
  rate: Float64Array;
}

/**
 * Rate against cumulative bytes: for each sample interval, the bytes moved over the shortest run
 * of intervals ending there that lasts at least `windowSeconds` of transfer time, divided by that
 * time (gaps between files are not transfer time). A difference over a window, not over a single
 * pair of samples, so one late timestamp moves a point by its share of the window only. The
 * first points, before a whole window has passed, use what there is. O(n) with running sums.
 */
export function sampleRates(samples: PhaseSamples, windowSeconds = 1): RateCurve {
  const intervals = sampleIntervals(samples);
  const n = intervals.count;
  const out: RateCurve = {
    bytes: new Float64Array(n),
    seconds: new Float64Array(n),
    rate: new Float64Array(n),
  };
  let from = 0;
  let windowBytes = 0;
  let windowTime = 0;
  for (let i = 0; i < n; i += 1) {
    windowBytes += intervals.bytes[i]!;
    windowTime += intervals.seconds[i]!;
    // Drop the oldest interval while the window stays long enough without it.
    while (from < i && windowTime - intervals.seconds[from]! >= windowSeconds) {
      windowBytes -= intervals.bytes[from]!;
      windowTime -= intervals.seconds[from]!;
      from += 1;
    }
    const endBytes = intervals.startBytes[i]! + intervals.bytes[i]!;
    const endSeconds = intervals.startSeconds[i]! + intervals.seconds[i]!;
    out.bytes[i] = (intervals.startBytes[from]! + endBytes) / 2;
    out.seconds[i] = (intervals.startSeconds[from]! + endSeconds) / 2;
    out.rate[i] = windowBytes / windowTime;
  }
  return out;
}
