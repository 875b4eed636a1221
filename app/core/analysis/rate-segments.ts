/**
 * A phase cut into stretches of steady rate: where a write cache ran out (each tier of it), where a
 * drive slowed down and sped up again. Every rate is a stretch's bytes over its transfer seconds
 * (transfer-curve.ts): a drive that passes some chunks at once and holds others moves what that
 * says, whatever any one interval's rate was. The changes are found on blocks of whole delivery
 * cycles (delivery-blocks.ts, block-changes.ts), then placed and measured on the samples
 * (change-place.ts), and a change the measured stretches do not bear out goes.
 */
import type { PhaseSamples } from '../../common/phase-samples.js';
import { blockChanges, changeConfidence } from './block-changes.js';
import { measureStretches, type MeasuredStretch } from './change-place.js';
import { deliveryBlocks } from './delivery-blocks.js';
import { transferCurve, type TransferCurve } from './transfer-curve.js';

/** A stretch of a phase at one rate. */
export interface RateSegment {
  /** Cumulative bytes and elapsed seconds where the rate changed to this one (the phase's start for the first). */
  startBytes: number;
  startSeconds: number;
  /** Bytes over transfer seconds of the stretch (the blocks either change falls in left out), bytes/s. */
  rate: number;
  /** Transfer seconds and bytes in it (gaps between files not counted). */
  seconds: number;
  bytes: number;
  /**
   * Share of blocks on the side of the midpoint rate they belong to, near the change into it, the
   * worse of its two sides (0–1); 1 for the first segment.
   */
  confidence: number;
}

export interface SegmentOptions {
  /** Smallest change of rate between neighbouring segments, as a share of the higher (default 0.15). */
  minChange?: number;
  /** Fewest blocks in a segment (default 4: one odd second is never a segment). */
  minSegmentBlocks?: number;
  /**
   * Fewest bytes in a segment (default a thousandth of the phase, the sampler's coarsest step, or
   * eight median sample intervals when the samples are finer).
   */
  minSegmentBytes?: number;
  /**
   * Fewest transfer seconds in an inner segment (default 0.5): a dip or spike that short is a
   * hiccup (a stall, a few slow first writes of files), and a step that short the drive passing
   * from one rate to the next, not a state of the drive. The first and last segments are exempt,
   * so a cache that fills in a tenth of a second is still found (behind a throttle, one that lasts
   * a delivery cycle: a shorter stretch is a burst or a hold).
   */
  minInnerSeconds?: number;
  /** Least confidence for a change (default 0.75). */
  minConfidence?: number;
  /**
   * Penalty per change in units of σ² · ln(blocks) (default 3, near BIC's 2): changes PELT
   * proposes are judged afterwards by the tests above; higher finds fewer changes.
   */
  penaltyFactor?: number;
  /** Most blocks the intervals are pooled into (default 4000), which bounds the cost. */
  maxBlocks?: number;
}

/**
 * How far apart the curve's farthest points above and below a line of slope `rate` lie among the
 * points [from, to]: the bytes a drive's own bursts run ahead and its holds fall behind.
 */
function ripple(curve: TransferCurve, from: number, to: number, rate: number): number {
  let [above, below] = [-Infinity, Infinity];
  for (let p = from; p <= to; p += 1) {
    const deviation = curve.movedBytes[p]! - rate * curve.transferTime[p]!;
    [above, below] = [Math.max(above, deviation), Math.min(below, deviation)];
  }
  return to > from ? above - below : 0;
}

/**
 * Transfer seconds of a neighbour its ripple is read over: at least a quarter second, at most a
 * second (a throttle's cycles are a quarter second at most, so a second holds its bursts and holds
 * whole, and a pause the drive took further on is not read as its ripple).
 */
const rippleSeconds = { least: 0.25, most: 1 };
/** A stretch must gain (or lose) this many times its neighbour's ripple to be a state of its own. */
const rippleFactor = 3;

/**
 * Whether stretch `k` gained (or lost) against its neighbour's rate no more than `rippleFactor`
 * times the ripple of the neighbour's own delivery, over the neighbour's part next to it as long as
 * k (within `rippleSeconds`): then it is one of the neighbour's bursts or holds, not a state of
 * the drive. A throttle's first slice passes at the device's speed before its first hold, and its
 * first slices after a change may pass a slice's bytes more than the new rate allows; a write
 * cache gains hundreds of MB over what follows.
 */
function withinRipple(
  curve: TransferCurve,
  stretches: readonly MeasuredStretch[],
  k: number,
  neighbour: number,
): boolean {
  const stretch = stretches[k]!;
  const rate = stretches[neighbour]!.rate;
  const gained = Math.abs(stretch.bytes - rate * stretch.seconds);
  const time = curve.transferTime;
  let { first: from, end: to } = stretches[neighbour]!;
  const window = Math.min(Math.max(stretch.seconds, rippleSeconds.least), rippleSeconds.most);
  if (neighbour > k) while (to > from + 1 && time[to]! - time[from]! > window) to -= 1;
  else while (from < to - 1 && time[to]! - time[from]! > window) from += 1;
  return gained <= rippleFactor * ripple(curve, from, to, rate);
}

/**
 * Which change, once placed and measured, the stretches do not bear out (the index of the stretch
 * it starts), or 0 when all hold: a stretch in fewer blocks than `minBlocks`, an inner
 * one shorter than `minInnerSeconds` (the drive passing from one rate to the next, or a hiccup),
 * or any shorter than one delivery cycle (a burst or a hold, not a state of the drive: the
 * throttle's first slice at a phase's start, passed at the device's speed before its hold),
 * joins the neighbour nearer its rate, the shortest first; then, the shortest first, an end
 * stretch, or an inner one shorter than a second (a state of a drive lasts longer than a burst of
 * its delivery), within its neighbour's ripple; then a step under `minChange`, the smallest
 * first.
 */
function unsupportedChange(
  curve: TransferCurve,
  stretches: readonly MeasuredStretch[],
  minInnerSeconds: number,
  minBlocks: number,
  minChange: number,
  cycleSeconds: number,
): number {
  const step = (k: number) => Math.abs(Math.log(stretches[k]!.rate / stretches[k - 1]!.rate));
  const last = stretches.length - 1;
  // The neighbour a stretch joins: the nearer in rate (an end stretch has one).
  const into = (k: number) => (k === 0 ? 1 : k === last || step(k) <= step(k + 1) ? k : k + 1);
  let join = 0;
  let shortest = Infinity;
  for (let k = 0; k <= last && last >= 1; k += 1) {
    const inner = k > 0 && k < last;
    const tooShort =
      (inner && stretches[k]!.seconds < minInnerSeconds) || stretches[k]!.seconds < cycleSeconds;
    // The blocks its changes fall in count: each holds some of it (a cache of four slices whose
    // last is charged at the new rate has three whole blocks and part of a fourth).
    const partBlocks = (k > 0 ? 1 : 0) + (k < last ? 1 : 0);
    const tooFewBlocks = stretches[k]!.wholeBlocks + partBlocks < minBlocks;
    if ((!tooShort && !tooFewBlocks) || stretches[k]!.seconds >= shortest) continue;
    shortest = stretches[k]!.seconds;
    join = into(k);
  }
  if (join > 0) return join;
  for (let k = 0; k <= last && last >= 1; k += 1) {
    const inner = k > 0 && k < last;
    if (stretches[k]!.seconds >= (inner ? Math.min(shortest, rippleSeconds.most) : shortest))
      continue;
    const neighbour = into(k) === k ? k - 1 : k + 1;
    if (!withinRipple(curve, stretches, k, neighbour)) continue;
    shortest = stretches[k]!.seconds;
    join = into(k);
  }
  if (join > 0) return join;
  let least = -Math.log(1 - minChange);
  for (let k = 1; k <= last; k += 1) if (step(k) < least) [join, least] = [k, step(k)];
  return join;
}

/** The phase cut into stretches of steady rate (see the file's comment); null when the samples hold fewer than two blocks. */
export function rateSegments(
  samples: PhaseSamples,
  options: SegmentOptions = {},
): RateSegment[] | null {
  const curve = transferCurve(samples);
  const blocks = deliveryBlocks(curve, options.maxBlocks ?? 4000);
  if (blocks.count < 2) return null;
  const tests = {
    minChange: options.minChange ?? 0.15,
    minSegmentBlocks: Math.max(2, options.minSegmentBlocks ?? 4),
    minInnerSeconds: options.minInnerSeconds ?? 0.5,
    minConfidence: options.minConfidence ?? 0.75,
    penaltyFactor: options.penaltyFactor ?? 3,
    minBytes:
      options.minSegmentBytes ??
      Math.min(curve.movedBytes[curve.count]! / 1000, 8 * blocks.medianBytes),
  };
  const { starts, clipped } = blockChanges(blocks.logRate, blocks.bytes, blocks.seconds, tests);
  for (;;) {
    const stretches = measureStretches(curve, blocks, starts);
    const join = unsupportedChange(
      curve,
      stretches,
      tests.minInnerSeconds,
      tests.minSegmentBlocks,
      tests.minChange,
      blocks.cycleSeconds,
    );
    if (join > 0) {
      starts.splice(join, 1);
      continue;
    }
    return stretches.map(({ startBytes, startSeconds, rate, seconds, bytes }, k) => ({
      startBytes,
      startSeconds,
      rate,
      seconds,
      bytes,
      confidence:
        k === 0
          ? 1
          : changeConfidence(
              clipped,
              starts[k - 1]!,
              starts[k]!,
              k + 1 < starts.length ? starts[k + 1]! : blocks.count,
              Math.log(stretches[k - 1]!.rate),
              Math.log(rate),
            ),
    }));
  }
}
