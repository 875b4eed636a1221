/**
 * The second, fine pass of the rate segmentation (rate-segments.ts): the changes found on pooled
 * blocks placed between single sample intervals, each segment's rate measured on its own whole
 * intervals, and segments the intervals do not bear out (too few samples, or a rate within the
 * noise of their neighbour's) merged away. Everything here works on every sample interval.
 */
import { median } from 'simple-statistics';
import type { SampleIntervals } from '../../common/phase-samples.js';

/** A stretch of a phase at one rate (rate-segments.ts finds them; this file refines and measures them). */
export interface RateSegment {
  /** Cumulative bytes and elapsed seconds where the rate changed to this one (0, 0 for the first). */
  startBytes: number;
  startSeconds: number;
  /** Median rate of its blocks, bytes/s (the blocks that straddle a change left out). */
  rate: number;
  /** Transfer seconds and bytes in it (gaps between files not counted). */
  seconds: number;
  bytes: number;
  /**
   * Share of blocks on the side of the midpoint rate they belong to, the worse of this segment and
   * the one before (0–1); 1 for the first segment.
   */
  confidence: number;
}

const logRateOf = (intervals: SampleIntervals, i: number) =>
  Math.log(intervals.bytes[i]! / intervals.seconds[i]!);

/**
 * Robust noise of a series with steps: the median absolute difference of neighbours (at most
 * about 20,000 pairs, every `stride`-th), as a σ: steps and stalls are too rare to move a median.
 */
export function noiseSigma(value: (i: number) => number, count: number): number {
  const stride = Math.max(1, Math.floor(count / 20_000));
  const differences: number[] = [];
  for (let i = 1; i < count; i += stride) differences.push(Math.abs(value(i) - value(i - 1)));
  if (differences.length === 0) return 0.005;
  return Math.max((1.4826 * median(differences)) / Math.SQRT2, 0.005);
}

/** The noise of single intervals' log-rates. */
export const intervalSigma = (intervals: SampleIntervals) =>
  noiseSigma((i) => logRateOf(intervals, i), intervals.count);

/**
 * Where, between intervals `fromInterval` and `toInterval`, the rate changed from `before` to
 * `after`: the split that best separates the two levels (least absolute deviation, each
 * sample's cost capped at half the step; a stall or burst far outside both weighs nothing),
 * then inside the interval that straddles it, the share of its bytes at the rate before, from its
 * duration and the two rates.
 */
export function locateChange(
  intervals: SampleIntervals,
  fromInterval: number,
  toInterval: number,
  before: number,
  after: number,
  sigma: number,
): { bytes: number; seconds: number } {
  const logBefore = Math.log(before);
  const logAfter = Math.log(after);
  const halfStep = Math.abs(logBefore - logAfter) / 2;
  // An interval well outside both levels (a stall, a burst) says nothing about where the change
  // was: it costs the same on either side. Well outside is by more than half the step as well as
  // 3σ: a kernel throttle's samples vary by under 1 %, and a level measured on a trimmed stretch
  // can lie 3σ from every one of its samples, which then all counted for nothing and let one burst
  // at the end place the change (a last slow-down of 2.5 s read as 473 MB/s, and the throttling
  // went unreported).
  const band = Math.max(3 * sigma, halfStep);
  const low = Math.min(logBefore, logAfter) - band;
  const high = Math.max(logBefore, logAfter) + band;
  const neutral = (i: number) => {
    const value = logRateOf(intervals, i);
    return value < low || value > high;
  };
  // A sample costs either side at most half the step: a slow one among the faster may be a stall
  // (a fast drive's stall can last a whole sample), and a fast one among the slower is as likely
  // noise as a slow one among the faster. Capping only the slow ones placed changes late where the
  // noise is near half the step: a sample or two of fast noise just after the change outweighed
  // several slow samples (13 % noise, a 30 % fall: 5 samples late, where the cap both ways is
  // unbiased and its 99th percentile error 1.5 samples instead of 4.6).
  const deviation = (i: number, level: number) => {
    if (neutral(i)) return 0;
    return Math.min(Math.abs(logRateOf(intervals, i) - level), halfStep);
  };
  let cost = 0;
  for (let i = fromInterval; i < toInterval; i += 1) cost += deviation(i, logAfter);
  let bestCost = cost;
  let split = fromInterval;
  for (let p = fromInterval + 1; p <= toInterval; p += 1) {
    cost += deviation(p - 1, logBefore) - deviation(p - 1, logAfter);
    if (cost < bestCost) {
      bestCost = cost;
      split = p;
    }
  }
  const shareBefore = (i: number) => {
    const b = intervals.bytes[i]!;
    const share = (intervals.seconds[i]! - b / after) / (b / before - b / after);
    // Far outside both rates (a stall in it): its timing says nothing, so its middle.
    if (share < -0.5 || share > 1.5) return 0.5;
    return Math.min(1, Math.max(0, share));
  };
  // The change is in the last interval before the split or the first after, stalls either side
  // passed over (a stall just before a change looks like the slower rate and ties the split): take
  // the one whose timing is most between the two rates; with neither, the middle of the stalls.
  let interval = split;
  let share = 0;
  if (split > fromInterval && split < toInterval) {
    let last = split - 1;
    while (last > fromInterval && neutral(last)) last -= 1;
    let first = split;
    while (first < toInterval - 1 && neutral(first)) first += 1;
    const lastShare = shareBefore(last);
    const firstShare = shareBefore(first);
    const lastMiss = (1 - lastShare) * intervals.bytes[last]!;
    const firstMiss = firstShare * intervals.bytes[first]!;
    if (lastMiss > firstMiss) [interval, share] = [last, lastShare];
    else if (firstMiss > 0 || first === last + 1) [interval, share] = [first, firstShare];
    else [interval, share] = [(last + first) >> 1, (last + first) % 2 === 0 ? 0.5 : 1];
  } else if (split === toInterval) {
    [interval, share] = [split - 1, 1];
  }
  const atBytes = intervals.bytes[interval]! * share;
  return {
    bytes: intervals.startBytes[interval]! + atBytes,
    seconds: intervals.startSeconds[interval]! + atBytes / before,
  };
}

/** The whole intervals of each segment, [first, end), the ones that straddle a change left out. */
function intervalSpans(intervals: SampleIntervals, segments: readonly RateSegment[]) {
  const spans: { first: number; end: number }[] = [];
  let i = 0;
  segments.forEach((segment, k) => {
    const limit = k + 1 < segments.length ? segments[k + 1]!.startBytes : Infinity;
    while (i < intervals.count && intervals.startBytes[i]! < segment.startBytes) i += 1;
    const first = i;
    while (i < intervals.count && intervals.startBytes[i]! + intervals.bytes[i]! <= limit) i += 1;
    spans.push({ first, end: i });
  });
  return spans;
}

/**
 * The rate of intervals [first, end): the bytes over the seconds of the middle half by rate (a
 * quarter trimmed at each end, so stalls and the slow first write of a file do not pull it),
 * without the interval next to each change when there are enough (a drive may take a moment to
 * settle at its new rate). Bytes over seconds, not a mean of the intervals' rates: a throttled or
 * bursty drive passes some chunks at once and holds others, and any mean of such rates lands far
 * above what the drive moved (a kernel throttle at 59 MB/s read as 85). Null with none.
 */
function spanRate(
  intervals: SampleIntervals,
  first: number,
  end: number,
  atStart: boolean,
  atEnd: boolean,
): number | null {
  let lo = first;
  let hi = end;
  if (hi - lo >= 12) {
    if (!atStart) lo += 1;
    if (!atEnd) hi -= 1;
  }
  if (hi <= lo) return null;
  const order = Array.from({ length: hi - lo }, (_, k) => lo + k);
  const logs = new Float64Array(intervals.count);
  for (const i of order) logs[i] = logRateOf(intervals, i);
  order.sort((a, b) => logs[a]! - logs[b]!);
  // At least one off each end from three on: of three, one a stall, the median.
  const cut = order.length >= 3 ? Math.max(1, Math.floor(order.length / 4)) : 0;
  let bytes = 0;
  let seconds = 0;
  for (let j = cut; j < order.length - cut; j += 1) {
    bytes += intervals.bytes[order[j]!]!;
    seconds += intervals.seconds[order[j]!]!;
  }
  return seconds > 0 ? bytes / seconds : null;
}

/**
 * Each segment's rate made again from its own whole sample intervals, then the segments they do
 * not bear out merged, weakest first, each merge measured again: one with fewer than `minSamples`
 * whole intervals (a rate from so few is not a rate) joins the neighbour nearer its rate, and two
 * neighbours whose rates differ by less than `minChange` (a share of the higher) or by less than
 * `minScore` standard errors of interval noise `sigma` become one. Returns the segments kept.
 */
export function consolidate(
  intervals: SampleIntervals,
  input: readonly RateSegment[],
  options: { minSamples: number; minChange: number; minScore: number; sigma: number },
): RateSegment[] {
  const segments = input.map((s) => ({ ...s }));
  const minStep = -Math.log(1 - options.minChange);
  const spans = measure(intervals, segments);
  const counts = spans.map((s) => s.end - s.first);
  while (segments.length >= 2) {
    const gap = (k: number) => Math.abs(Math.log(segments[k]!.rate / segments[k - 1]!.rate));
    // The change into segment k in standard errors of the two segments' rates.
    const score = (k: number) => {
      const [na, nb] = [counts[k - 1]!, counts[k]!];
      return (gap(k) / options.sigma) * Math.sqrt((na * nb) / (na + nb));
    };
    // A short stretch slower (or faster) than both neighbours, clearly, is a state of the drive
    // (a slow-down of a second or two while it throttles); a short one between them or at either
    // end is a transition or the first writes settling, and joins its neighbour.
    const excursion = (k: number) =>
      k > 0 &&
      k < segments.length - 1 &&
      counts[k]! >= 2 &&
      Math.sign(segments[k]!.rate - segments[k - 1]!.rate) ===
        Math.sign(segments[k]!.rate - segments[k + 1]!.rate) &&
      Math.min(score(k), score(k + 1)) >= options.minScore &&
      Math.min(gap(k), gap(k + 1)) >= minStep;
    // The shortest segment under minSamples goes first, into its nearer neighbour.
    let shortest = -1;
    counts.forEach((count, k) => {
      if (count >= options.minSamples || excursion(k)) return;
      if (shortest < 0 || count < counts[shortest]!) shortest = k;
    });
    let join = -1; // the change into segment `join` is removed
    if (shortest >= 0) {
      if (shortest === 0) join = 1;
      else if (shortest === segments.length - 1) join = shortest;
      else join = gap(shortest) <= gap(shortest + 1) ? shortest : shortest + 1;
    } else {
      let weakest = 1;
      for (let k = 1; k < segments.length; k += 1) {
        const weakness = Math.max(
          minStep / Math.max(gap(k), 1e-12),
          options.minScore / Math.max(score(k), 1e-12),
        );
        if (weakness > weakest) {
          weakest = weakness;
          join = k;
        }
      }
      if (join < 0) break;
    }
    const earlier = segments[join - 1]!;
    const later = segments[join]!;
    const merged = {
      ...earlier,
      seconds: earlier.seconds + later.seconds,
      bytes: earlier.bytes + later.bytes,
    };
    // The merged segment's whole intervals: both spans and the one that straddled the change.
    const span = { first: spans[join - 1]!.first, end: spans[join]!.end };
    const atEnd = join === segments.length - 1;
    merged.rate = spanRate(intervals, span.first, span.end, join === 1, atEnd) ?? merged.rate;
    segments.splice(join - 1, 2, merged);
    spans.splice(join - 1, 2, span);
    counts.splice(join - 1, 2, span.end - span.first);
  }
  // Each change placed again between the whole spans of its two segments, now that their rates
  // are measured on their own intervals (the first placing used the blocks' rates, which a
  // short segment's straddling block pulls towards its neighbour's), and the rates measured again.
  for (let k = 1; k < segments.length; k += 1) {
    const at = locateChange(
      intervals,
      spans[k - 1]!.first,
      spans[k]!.end,
      segments[k - 1]!.rate,
      segments[k]!.rate,
      options.sigma,
    );
    segments[k]!.startBytes = at.bytes;
    segments[k]!.startSeconds = at.seconds;
  }
  measure(intervals, segments);
  return segments;
}

/** Each segment's rate measured on its whole intervals (kept when it has none); its spans. */
function measure(intervals: SampleIntervals, segments: RateSegment[]) {
  const spans = intervalSpans(intervals, segments);
  segments.forEach((segment, k) => {
    const last = segments.length - 1;
    const rate = spanRate(intervals, spans[k]!.first, spans[k]!.end, k === 0, k === last);
    if (rate !== null) segment.rate = rate;
  });
  return spans;
}
