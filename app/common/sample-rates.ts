import { sampleIntervals, type PhaseSamples } from './phase-samples.js';

/** A rate curve against cumulative bytes: one point per sample interval, in columns. */
export interface RateCurve {
  /** Cumulative bytes at the middle of each point's window. */
  bytes: Float64Array;
  /**
   * Cumulative bytes at the end of each point's window: the bytes so far when that rate was taken,
   * where a chart of "the rate over the last second" places it (a drop then starts at its place).
   */
  endBytes: Float64Array;
  /** Elapsed seconds at the middle of each point's window. */
  seconds: Float64Array;
  /** Bytes ÷ transfer seconds over the window, bytes/s. */
  rate: Float64Array;
}

/** Transfer seconds each rate point is taken over at most, for the charts, live and saved alike. */
const rateWindowSeconds = 1;

/**
 * The window as a share of the transfer time so far, when that is shorter: a quick run moves its
 * half gigabyte in under a second, and a one-second window would draw it as the running average
 * from its start (a peak that decays, which reads like a cache running out). A hundredth of the
 * time so far keeps about a hundred independent points on any run, and one second from 100 s on.
 */
const rateWindowShare = 0.01;

/** Fewest sample intervals a window spans, so an early point is not one interval's noise. */
const rateWindowIntervals = 4;

/** Columns of numbers that grow by doubling, so appending a million costs about two million copies. */
function grown(column: Float64Array<ArrayBuffer>, needed: number): Float64Array<ArrayBuffer> {
  if (needed <= column.length) return column;
  const next = new Float64Array(Math.max(needed, column.length * 2, 64));
  next.set(column);
  return next;
}

/**
 * Rate against cumulative bytes, built one interval or sample at a time: for each sample interval,
 * the bytes moved over the shortest run of intervals ending there that lasts at least the window
 * of transfer time, divided by that time (gaps between files are not transfer time). The window is
 * `windowSeconds`, or `windowShare` of the transfer time up to there when that is less (null: a
 * fixed window), and never fewer than `minIntervals` intervals. A difference over a window, not
 * over a single pair of samples, so one late timestamp moves a point by its share of the window
 * only. The first points, before a whole window has
 * passed, use what there is. O(1) per sample, amortised, with running sums; the columns are
 * typed arrays growing by doubling (read the first `length` of them).
 */
export class SampleRateCurve {
  length = 0;
  bytes: Float64Array<ArrayBuffer> = new Float64Array(0);
  endBytes: Float64Array<ArrayBuffer> = new Float64Array(0);
  seconds: Float64Array<ArrayBuffer> = new Float64Array(0);
  rate: Float64Array<ArrayBuffer> = new Float64Array(0);
  // The intervals, for dropping the oldest from the window.
  private startBytes: Float64Array<ArrayBuffer> = new Float64Array(0);
  private startSeconds: Float64Array<ArrayBuffer> = new Float64Array(0);
  private moved: Float64Array<ArrayBuffer> = new Float64Array(0);
  private spent: Float64Array<ArrayBuffer> = new Float64Array(0);
  private from = 0;
  private windowBytes = 0;
  private windowTime = 0;
  /** Transfer seconds of every interval so far. */
  private transferTime = 0;
  private last: { t: number; bytes: number; file: number } | null = null;

  constructor(
    readonly windowSeconds = rateWindowSeconds,
    readonly windowShare: number | null = rateWindowShare,
    readonly minIntervals = rateWindowIntervals,
  ) {}

  /**
   * Adds a progress sample (elapsed seconds, cumulative bytes, file index). A sample that goes back
   * is left out and false returned; a stretch across files (a gap) or without time or bytes adds
   * no point.
   */
  push(t: number, bytes: number, file = 0): boolean {
    const last = this.last;
    if (last && !(t >= last.t && bytes >= last.bytes)) return false;
    this.last = { t, bytes, file };
    if (!last || last.file !== file || t === last.t || bytes === last.bytes) return true;
    this.addInterval(last.bytes, last.t, bytes - last.bytes, t - last.t);
    return true;
  }

  /** Adds one interval of transfer (what `push` makes of two samples of the same file). */
  addInterval(startBytes: number, startSeconds: number, bytes: number, seconds: number): void {
    const i = this.length;
    if (i >= this.rate.length) {
      const size = i + 1;
      this.startBytes = grown(this.startBytes, size);
      this.startSeconds = grown(this.startSeconds, size);
      this.moved = grown(this.moved, size);
      this.spent = grown(this.spent, size);
      this.bytes = grown(this.bytes, size);
      this.endBytes = grown(this.endBytes, size);
      this.seconds = grown(this.seconds, size);
      this.rate = grown(this.rate, size);
    }
    this.startBytes[i] = startBytes;
    this.startSeconds[i] = startSeconds;
    this.moved[i] = bytes;
    this.spent[i] = seconds;
    this.windowBytes += bytes;
    this.windowTime += seconds;
    this.transferTime += seconds;
    const window =
      this.windowShare === null
        ? this.windowSeconds
        : Math.min(this.windowSeconds, this.windowShare * this.transferTime);
    // Drop the oldest interval while the window stays long enough without it.
    while (
      i - this.from >= this.minIntervals &&
      this.windowTime - this.spent[this.from]! >= window
    ) {
      this.windowBytes -= this.moved[this.from]!;
      this.windowTime -= this.spent[this.from]!;
      this.from += 1;
    }
    const from = this.from;
    this.endBytes[i] = startBytes + bytes;
    this.bytes[i] = (this.startBytes[from]! + startBytes + bytes) / 2;
    this.seconds[i] = (this.startSeconds[from]! + startSeconds + seconds) / 2;
    this.rate[i] = this.windowBytes / this.windowTime;
    this.length = i + 1;
  }

  /** The points so far, as columns of exactly `length` (views, not copies). */
  curve(): RateCurve {
    return {
      bytes: this.bytes.subarray(0, this.length),
      endBytes: this.endBytes.subarray(0, this.length),
      seconds: this.seconds.subarray(0, this.length),
      rate: this.rate.subarray(0, this.length),
    };
  }
}

/**
 * Rate against cumulative bytes of a phase's samples, by the rule of `SampleRateCurve`. Throws a
 * RangeError naming the first bad sample when the columns differ in length or go back.
 */
export function sampleRates(
  samples: PhaseSamples,
  windowSeconds = rateWindowSeconds,
  windowShare: number | null = rateWindowShare,
  minIntervals = rateWindowIntervals,
): RateCurve {
  const intervals = sampleIntervals(samples);
  const curve = new SampleRateCurve(windowSeconds, windowShare, minIntervals);
  for (let i = 0; i < intervals.count; i += 1)
    curve.addInterval(
      intervals.startBytes[i]!,
      intervals.startSeconds[i]!,
      intervals.bytes[i]!,
      intervals.seconds[i]!,
    );
  return curve.curve();
}

/**
 * The rate curve a saved result's chart draws for one phase, from its stored samples: null when
 * there are none (a version 1 document, or a phase too short for an interval) or when they cannot
 * be read (columns that go back or differ in length); the chart then draws one point per file.
 */
export function storedRateCurve(samples: PhaseSamples | undefined | null): RateCurve | null {
  if (!samples || samples.t.length <= 1) return null;
  try {
    const curve = sampleRates(samples);
    return curve.rate.length > 0 ? curve : null;
  } catch {
    return null;
  }
}
