/**
 * The transfer curve of a phase: its bytes against its transfer time, the time spent inside files
 * (the gaps between files, spent opening, flushing and closing, left out). Every rate the cliff
 * detector reports is a slope of this curve over a stretch, its bytes over its seconds: a drive
 * that passes some chunks at once and holds others (a kernel throttle, a controller collecting
 * garbage) moves what the slope says, whatever any one interval's rate was.
 */
import {
  sampleIntervals,
  type PhaseSamples,
  type SampleIntervals,
} from '../../common/phase-samples.js';

/** A phase's sample intervals (phase-samples.ts) with running sums over them. */
export interface TransferCurve extends SampleIntervals {
  /**
   * The transfer seconds and bytes before interval i, one longer than the intervals: the curve is
   * (transferTime[i], movedBytes[i]).
   */
  transferTime: Float64Array;
  movedBytes: Float64Array;
}

/** The transfer curve of `samples` (a RangeError naming the first bad sample when they go back). */
export function transferCurve(samples: PhaseSamples): TransferCurve {
  const intervals = sampleIntervals(samples);
  const transferTime = new Float64Array(intervals.count + 1);
  const movedBytes = new Float64Array(intervals.count + 1);
  for (let i = 0; i < intervals.count; i += 1) {
    transferTime[i + 1] = transferTime[i]! + intervals.seconds[i]!;
    movedBytes[i + 1] = movedBytes[i]! + intervals.bytes[i]!;
  }
  return { ...intervals, transferTime, movedBytes };
}

/** Bytes over transfer seconds of intervals [from, to); null when they took no time. */
export function stretchRate(curve: TransferCurve, from: number, to: number): number | null {
  const seconds = curve.transferTime[to]! - curve.transferTime[from]!;
  return seconds > 0 ? (curve.movedBytes[to]! - curve.movedBytes[from]!) / seconds : null;
}

/** Cumulative bytes of the phase at the end of its last interval (0 with none). */
export function endBytesOf(curve: TransferCurve): number {
  const last = curve.count - 1;
  return last >= 0 ? curve.startBytes[last]! + curve.bytes[last]! : 0;
}
