import { median } from 'simple-statistics';
import type { PhaseSamples } from '../../common/phase-samples.js';
import { rateSegments, type RateSegment, type SegmentOptions } from './rate-segments.js';

/** A rate that fell and came back, again and again, while the phase went on. */
export interface Throttling {
  /** Slow-downs after the first stretch (each a fall from the faster level). */
  count: number;
  /** Times the rate came back up while the transfer went on. */
  recoveries: number;
  /** Median seconds from the start of one slow-down to the start of the next. */
  periodSeconds: number;
  /** Share of the transfer time spent slow, from the first slow-down to the end of the phase. */
  slowShare: number;
  /** Median rates of the fast and the slow stretches, bytes/s. */
  fastRate: number;
  slowRate: number;
  /** Where the first slow-down began. */
  firstBytes: number;
  firstSeconds: number;
}

export interface RateShape {
  segments: RateSegment[];
  /**
   * When the rate only ever fell, step by step (a write cache running out: static, then dynamic,
   * then folding), every step: the first at the start, each later one from where the rate fell to
   * it. Null when it did not fall, or when it also rose.
   */
  steps: RateSegment[] | null;
  /** When it fell and came back at least twice while going on: throttling, never a cache. */
  throttling: Throttling | null;
}

/**
 * The threshold between slow and fast: the log-rate that splits the segments into the two groups
 * most apart (Otsu's method, each segment weighing its seconds), halfway between their means, so
 * one odd segment (a stall of a second, far slower than the throttled rate) does not set it as the
 * slowest segment would.
 */
function slowThreshold(segments: readonly RateSegment[]): number {
  const sorted = segments
    .map((s) => ({ level: Math.log(s.rate), weight: Math.max(s.seconds, 1e-9) }))
    .sort((a, b) => a.level - b.level);
  const totalWeight = sorted.reduce((sum, s) => sum + s.weight, 0);
  const totalSum = sorted.reduce((sum, s) => sum + s.weight * s.level, 0);
  let best = -Infinity;
  let threshold = (sorted[0]!.level + sorted.at(-1)!.level) / 2;
  let weight = 0;
  let sum = 0;
  for (let k = 0; k < sorted.length - 1; k += 1) {
    weight += sorted[k]!.weight;
    sum += sorted[k]!.weight * sorted[k]!.level;
    const low = sum / weight;
    const high = (totalSum - sum) / (totalWeight - weight);
    const between = weight * (totalWeight - weight) * (high - low) ** 2;
    if (between > best) [best, threshold] = [between, (low + high) / 2];
  }
  return threshold;
}

/** The stretches of a phase below the slow threshold, as runs of consecutive segments: the slow-downs. */
function slowEpisodes(segments: readonly RateSegment[]): { first: number; last: number }[] {
  const midpoint = slowThreshold(segments);
  const episodes: { first: number; last: number }[] = [];
  segments.forEach((segment, k) => {
    if (Math.log(segment.rate) >= midpoint) return;
    const open = episodes.at(-1);
    if (open && open.last === k - 1) open.last = k;
    else episodes.push({ first: k, last: k });
  });
  return episodes;
}

/** Least share of the time spent slow for a repeating slow-down to count as throttling. */
const minSlowShare = 0.05;

function throttlingOf(segments: readonly RateSegment[]): Throttling | null {
  const slowdowns = slowEpisodes(segments).filter((e) => e.first > 0);
  const recoveries = slowdowns.filter((e) => e.last < segments.length - 1).length;
  // Twice down and back up: one stall that came back beside a cache's fall is not a pattern.
  if (slowdowns.length < 2 || recoveries < 2) return null;
  const starts = slowdowns.map((e) => segments[e.first]!.startSeconds);
  const periods = starts.slice(1).map((s, i) => s - starts[i]!);
  const slow = new Set(slowdowns.flatMap((e) => segments.slice(e.first, e.last + 1)));
  const fromFirst = segments.slice(slowdowns[0]!.first);
  const sum = (list: readonly RateSegment[]) => list.reduce((total, s) => total + s.seconds, 0);
  const slowSeconds = sum(fromFirst.filter((s) => slow.has(s)));
  const slowShare = slowSeconds / sum(fromFirst);
  // A few stalls scattered over an hour of writing also go down and back up; slow for under a
  // twentieth of the time, the drive is not being throttled.
  if (slowShare < minSlowShare) return null;
  return {
    count: slowdowns.length,
    recoveries,
    periodSeconds: median(periods),
    slowShare,
    fastRate: median(segments.filter((s) => !slow.has(s)).map((s) => s.rate)),
    slowRate: median([...slow].map((s) => s.rate)),
    firstBytes: segments[slowdowns[0]!.first]!.startBytes,
    firstSeconds: segments[slowdowns[0]!.first]!.startSeconds,
  };
}

/**
 * The segments with every dip or spike that came back taken out (a stall of a few seconds, the
 * drive busy with itself; a few seconds faster, as when its housekeeping ends, or a run of fast
 * samples that noise alone can make in an hour of writing): it joins the stretch before it, and
 * the stretch after joins that one when their rates differ by less than `minChange`, so a dip or
 * a spike in the middle of a cache's fast stretch leaves one fast stretch. A cache's rate only
 * falls, but a moment faster inside it is not a rise to a new level.
 */
function withoutExcursions(segments: readonly RateSegment[], minChange: number): RateSegment[] {
  const kept: RateSegment[] = [];
  segments.forEach((segment, k) => {
    const previous = kept.at(-1);
    const next = segments[k + 1];
    const excursion =
      previous &&
      next &&
      Math.sign(segment.rate - previous.rate) === Math.sign(segment.rate - next.rate);
    const same =
      previous && Math.abs(Math.log(segment.rate / previous.rate)) < -Math.log(1 - minChange);
    if (previous && (excursion || same)) {
      // The joined stretch's rate is its parts' rates over their time, the dip or spike included
      // (what the drive sustained there), so the next stretch is compared with what the drive did,
      // not with where the stretch began.
      const [seconds, bytes] = [previous.seconds + segment.seconds, previous.bytes + segment.bytes];
      const rate = (previous.rate * previous.seconds + segment.rate * segment.seconds) / seconds;
      kept[kept.length - 1] = { ...previous, rate, seconds, bytes };
    } else kept.push(segment);
  });
  return kept;
}

/**
 * Cache or heat, from the shape of the rate while writing goes on: a full write cache stays slow
 * until writing stops, so its rate only falls, in steps; a drive throttling on heat slows, cools a
 * little at the lower rate and speeds up again, over and over, so a rate that fell and came back
 * at least twice is throttling (with its period and the share of time spent slow) and never a
 * cache. A single dip or spike that came back is neither: it is left out of the steps. Null when
 * the samples are too few to segment.
 */
export function rateShape(samples: PhaseSamples, options: SegmentOptions = {}): RateShape | null {
  const segments = rateSegments(samples, options);
  if (!segments) return null;
  const throttling = throttlingOf(segments);
  const steady = throttling ? [] : withoutExcursions(segments, options.minChange ?? 0.15);
  const onlyFell = steady.every((s, k) => k === 0 || s.rate < steady[k - 1]!.rate);
  return { segments, steps: steady.length >= 2 && onlyFell ? steady : null, throttling };
}
