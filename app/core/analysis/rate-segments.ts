import { median } from 'simple-statistics';
import { peltChunked } from './pelt.js';
import {
  sampleIntervals,
  type PhaseSamples,
  type SampleIntervals,
} from '../../common/phase-samples.js';
import {
  consolidate,
  intervalSigma,
  locateChange,
  noiseSigma,
  type RateSegment,
} from './segment-refine.js';

export type { RateSegment };

export interface SegmentOptions {
  /** Smallest change of rate between neighbouring segments, as a share of the higher (default 0.15). */
  minChange?: number;
  /** Fewest blocks in a segment (default 4: one odd second is never a segment). */
  minSegmentBlocks?: number;
  /** Fewest whole sample intervals in a segment (default 8): a rate from fewer is not a rate. */
  minSegmentSamples?: number;
  /**
   * Fewest bytes in a segment (default a thousandth of the phase, the sampler's coarsest step, or
   * eight median sample intervals when the samples are finer).
   */
  minSegmentBytes?: number;
  /**
   * Fewest transfer seconds in a segment slower or faster than both its neighbours (default 0.5): a
   * dip or spike that short is a hiccup (a stall, a few slow first writes of files), not a state of
   * the drive. Steps of a staircase and the first and last segments are exempt, so a cache that
   * fills in a tenth of a second is still found.
   */
  minInnerSeconds?: number;
  /** Least confidence for a change (default 0.75). */
  minConfidence?: number;
  /**
   * Penalty per change in units of σ² · ln(blocks) (default 3, near BIC's 2: false changes are
   * merged away afterwards by `minChange`, `minConfidence` and the fine pass, while 6 left a real
   * heat sawtooth on a throttled disk (52 ↔ 18 MB/s, 4 MiB bursts) as one steady segment); higher
   * finds fewer changes.
   */
  penaltyFactor?: number;
  /** Most blocks the intervals are pooled into (default 4000), which bounds the cost. */
  maxBlocks?: number;
}

/** Consecutive sample intervals pooled until long enough for a steady rate. Columns. */
interface Blocks {
  /** First interval of each block, and one past the last block's end. */
  firstInterval: Int32Array;
  logRate: Float64Array;
  bytes: Float64Array;
  seconds: Float64Array;
  count: number;
  /** The median interval's bytes. */
  medianBytes: number;
}

/**
 * Pools intervals into blocks: a block closes once it is as long as half the median interval in
 * time or in bytes (so only the short tails of files, short in both, join their neighbour: a fast
 * drive's intervals are short in time because the sampler caps their bytes, a slow one's small in
 * bytes) and holds at least 1/maxBlocks of the bytes or of the time, so a million samples become a
 * few thousand blocks and the segmentation stays fast, while a slow stretch is cut as finely in
 * time as a fast one (by bytes alone, a slow-down at a third of the rate gets a third the blocks).
 * Near the start a block holds at most an eighth of the bytes before it, so a small cache that
 * runs out early (0.5 GB of an 800 GB run) still spans enough blocks to be a segment. With the sampler's 4 per second and at most a thousandth
 * of the phase per sample, a run under about 15 minutes keeps every interval.
 */
function poolBlocks(intervals: SampleIntervals, maxBlocks: number): Blocks {
  const n = intervals.count;
  const stride = Math.max(1, Math.floor(n / 10_001));
  const durations: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < n; i += stride) {
    durations.push(intervals.seconds[i]!);
    sizes.push(intervals.bytes[i]!);
  }
  const minSeconds = n > 0 ? 0.5 * median(durations) : 0;
  const medianBytes = n > 0 ? median(sizes) : 0;
  const minSize = 0.5 * medianBytes;
  let totalBytes = 0;
  let totalSeconds = 0;
  for (let i = 0; i < n; i += 1) {
    totalBytes += intervals.bytes[i]!;
    totalSeconds += intervals.seconds[i]!;
  }
  const minBytes = Math.max(totalBytes / maxBlocks, 0);
  const minTime = Math.max(totalSeconds / maxBlocks, 0);
  const firstInterval = new Int32Array(n + 1);
  const bytes = new Float64Array(n);
  const seconds = new Float64Array(n);
  let count = 0;
  let start = 0;
  let blockBytes = 0;
  let blockSeconds = 0;
  let doneBytes = 0;
  for (let i = 0; i < n; i += 1) {
    blockBytes += intervals.bytes[i]!;
    blockSeconds += intervals.seconds[i]!;
    const long =
      (blockSeconds >= minSeconds || blockBytes >= minSize) &&
      (blockBytes >= Math.min(minBytes, doneBytes / 8) || blockSeconds >= minTime);
    if (long || i === n - 1) {
      const short = !long;
      if (short && count > 0) {
        // The last, short block joins the one before.
        bytes[count - 1] = bytes[count - 1]! + blockBytes;
        seconds[count - 1] = seconds[count - 1]! + blockSeconds;
      } else {
        firstInterval[count] = start;
        bytes[count] = blockBytes;
        seconds[count] = blockSeconds;
        count += 1;
      }
      start = i + 1;
      doneBytes += blockBytes;
      blockBytes = 0;
      blockSeconds = 0;
    }
  }
  firstInterval[count] = n;
  const logRate = new Float64Array(count);
  for (let j = 0; j < count; j += 1) logRate[j] = Math.log(bytes[j]! / seconds[j]!);
  return {
    firstInterval: firstInterval.subarray(0, count + 1),
    logRate,
    bytes: bytes.subarray(0, count),
    seconds: seconds.subarray(0, count),
    count,
    medianBytes,
  };
}

/**
 * Each value pulled to within 3σ of the median of its five neighbours, so a lone stall (one
 * block ten times slower) costs a squared-error segmentation no more than a modest deviation,
 * while a step, which the running median follows, is untouched.
 */
function clipOutliers(values: Float64Array, sigma: number): Float64Array {
  const clipped = new Float64Array(values.length);
  const window: number[] = [];
  for (let i = 0; i < values.length; i += 1) {
    window.length = 0;
    for (let j = Math.max(0, i - 2); j <= Math.min(values.length - 1, i + 2); j += 1)
      window.push(values[j]!);
    window.sort((a, b) => a - b);
    const center = window[window.length >> 1]!;
    clipped[i] = Math.min(center + 3 * sigma, Math.max(center - 3 * sigma, values[i]!));
  }
  return clipped;
}

interface Draft {
  /** First block of the segment; the segment runs to the next draft's first block. */
  first: number;
  level: number;
}

/** Median log-rate of blocks [from, to), leaving out the outermost block at each inner edge. */
function segmentLevel(
  logRate: Float64Array,
  from: number,
  to: number,
  atStart: boolean,
  atEnd: boolean,
): number {
  let lo = from;
  let hi = to;
  if (hi - lo >= 5) {
    if (!atStart) lo += 1;
    if (!atEnd) hi -= 1;
  }
  return median(Array.from(logRate.subarray(lo, hi)));
}

/** Share of blocks [from, to) beyond `midpoint` on the side of `level`. */
function sideShare(
  logRate: Float64Array,
  from: number,
  to: number,
  level: number,
  midpoint: number,
): number {
  let right = 0;
  for (let j = from; j < to; j += 1)
    if (level > midpoint ? logRate[j]! > midpoint : logRate[j]! < midpoint) right += 1;
  return right / (to - from);
}

/**
 * How sure the change from blocks [aFirst, bFirst) to [bFirst, bEnd) is: the share of blocks on
 * the side of their own segment's level, the worse of the two sides. Only the blocks near the
 * change count, as many on each side as the shorter segment has (a mixed stretch far off, say a
 * slow-down too short to be cut off at the end of a long segment, says nothing about this change),
 * leaving out the block next to the change when a side has three or more (it holds both rates, so
 * it is a coin toss, and in a slow-down of five blocks one toss would decide).
 */
function changeConfidence(
  logRate: Float64Array,
  aFirst: number,
  bFirst: number,
  bEnd: number,
  aLevel: number,
  bLevel: number,
): number {
  const midpoint = (aLevel + bLevel) / 2;
  const near = Math.min(bFirst - aFirst, bEnd - bFirst);
  const aEnd = near >= 3 ? bFirst - 1 : bFirst;
  const bStart = near >= 3 ? bFirst + 1 : bFirst;
  return Math.min(
    sideShare(logRate, bFirst - near, aEnd, aLevel, midpoint),
    sideShare(logRate, bStart, bFirst + near, bLevel, midpoint),
  );
}

/**
 * The phase cut into stretches of steady rate: sample intervals pooled into blocks, their
 * log-rates (outliers clipped) partitioned by PELT with a penalty of `penaltyFactor` · σ² · ln m
 * (σ the blocks' robust noise, so a noisier drive needs a bigger change to count), then changes
 * too small (under `minChange`), too unsure (under `minConfidence`), or that leave a segment under
 * `minSegmentBytes` merged away, weakest first. The blocks only serve the search: then, on every
 * sample interval (segment-refine.ts), each segment's rate is measured on its own whole intervals
 * (trimmed), segments of fewer than `minSegmentSamples` (a short slow-down between two fast
 * stretches excepted) or within the intervals' noise of a neighbour are merged, and each change is
 * placed between samples and inside the interval that straddles it. Works on log-rate, so a fall
 * from 7 GB/s to 2.2 GB/s and one from 700 MB/s to 220 MB/s are alike. Null when the samples hold
 * fewer than two blocks.
 */
export function rateSegments(
  samples: PhaseSamples,
  options: SegmentOptions = {},
): RateSegment[] | null {
  const intervals = sampleIntervals(samples);
  const minChange = options.minChange ?? 0.15;
  const minBlocks = Math.max(2, options.minSegmentBlocks ?? 4);
  const blocks = poolBlocks(intervals, options.maxBlocks ?? 4000);
  const minBytes =
    options.minSegmentBytes ?? Math.min(intervals.totalBytes / 1000, 8 * blocks.medianBytes);
  const minConfidence = options.minConfidence ?? 0.75;
  const minInnerSeconds = options.minInnerSeconds ?? 0.5;
  const penaltyFactor = options.penaltyFactor ?? 3;
  const m = blocks.count;
  if (m < 2) return null;
  const { logRate } = blocks;
  const sigma = noiseSigma((j) => logRate[j]!, m);
  // Outliers clipped for the search and for the confidence: a stall is not a vote against a change.
  const clipped = clipOutliers(logRate, sigma);
  const starts = peltChunked(clipped, minBlocks, penaltyFactor * sigma * sigma * Math.log(m));

  const blockBytes = new Float64Array(m + 1);
  const blockSeconds = new Float64Array(m + 1);
  for (let j = 0; j < m; j += 1) {
    blockBytes[j + 1] = blockBytes[j]! + blocks.bytes[j]!;
    blockSeconds[j + 1] = blockSeconds[j]! + blocks.seconds[j]!;
  }
  const drafts: Draft[] = starts.map((first) => ({ first, level: 0 }));
  const end = (k: number) => (k + 1 < drafts.length ? drafts[k + 1]!.first : m);
  const relevel = (k: number) => {
    drafts[k]!.level = segmentLevel(
      logRate,
      drafts[k]!.first,
      end(k),
      k === 0,
      k === drafts.length - 1,
    );
  };
  drafts.forEach((_, k) => relevel(k));
  const minStep = -Math.log(1 - minChange);
  const minScore = Math.sqrt(penaltyFactor * Math.log(m));
  // How weak the change into segment k is (above 1: too weak to keep), by the three tests.
  const weakness = (k: number): number => {
    const a = drafts[k - 1]!;
    const b = drafts[k]!;
    const step = Math.abs(a.level - b.level);
    const confidence = changeConfidence(clipped, a.first, b.first, end(k), a.level, b.level);
    const shortest = Math.min(
      blockBytes[b.first]! - blockBytes[a.first]!,
      blockBytes[end(k)]! - blockBytes[b.first]!,
    );
    // Only a stretch that went and came back (a dip or a spike) is held to minInnerSeconds.
    const excursion = (j: number) =>
      j > 0 &&
      j < drafts.length - 1 &&
      Math.sign(drafts[j]!.level - drafts[j - 1]!.level) ===
        Math.sign(drafts[j]!.level - drafts[j + 1]!.level);
    const inner = (j: number) =>
      excursion(j) ? blockSeconds[end(j)]! - blockSeconds[drafts[j]!.first]! : Infinity;
    // The step in standard errors of the two medians, held to the same bar as PELT's penalty.
    const na = b.first - a.first;
    const nb = end(k) - b.first;
    const score = (step / sigma) * Math.sqrt((na * nb) / (na + nb));
    return Math.max(
      minScore / Math.max(score, 1e-12),
      minStep / Math.max(step, 1e-12),
      minConfidence / Math.max(confidence, 1e-12),
      minBytes / Math.max(shortest, 1e-12),
      minInnerSeconds / Math.max(Math.min(inner(k - 1), inner(k)), 1e-12),
    );
  };
  for (;;) {
    let weakest = 0;
    let worst = 1;
    for (let k = 1; k < drafts.length; k += 1) {
      const w = weakness(k);
      if (w > worst) [weakest, worst] = [k, w];
    }
    if (weakest === 0) break;
    drafts.splice(weakest, 1);
    relevel(weakest - 1);
    if (weakest < drafts.length) relevel(weakest);
  }

  // The intervals' noise, as the blocks show it when that is less: a kernel throttle or a bursty
  // drive passes one chunk in 2 ms and holds the next for 150 ms, so single intervals swing 60-fold
  // while every quarter second moves the same bytes. Their spread as a σ would make every change
  // of a sawtooth (60 ↔ 15 MB/s) too weak to keep, and the fine pass merged all of them; the
  // blocks' σ times √(intervals a block) is what independent intervals of that steadiness give.
  const fineSigma = Math.min(intervalSigma(intervals), sigma * Math.sqrt(intervals.count / m));
  const segments = drafts.map((draft, k) => {
    const to = end(k);
    let seconds = 0;
    for (let j = draft.first; j < to; j += 1) seconds += blocks.seconds[j]!;
    let startBytes = intervals.startBytes[0]!;
    let startSeconds = intervals.startSeconds[0]!;
    let confidence = 1;
    if (k > 0) {
      const before = drafts[k - 1]!;
      // Search the two blocks either side of the change, within the two segments.
      const fromBlock = Math.max(before.first, draft.first - 2);
      const toBlock = Math.min(to, draft.first + 2);
      const at = locateChange(
        intervals,
        blocks.firstInterval[fromBlock]!,
        blocks.firstInterval[toBlock]!,
        Math.exp(before.level),
        Math.exp(draft.level),
        Infinity,
      );
      startBytes = at.bytes;
      startSeconds = at.seconds;
      confidence = changeConfidence(
        clipped,
        before.first,
        draft.first,
        to,
        before.level,
        draft.level,
      );
    }
    return {
      startBytes,
      startSeconds,
      rate: Math.exp(draft.level),
      seconds,
      bytes: blockBytes[to]! - blockBytes[draft.first]!,
      confidence,
    };
  });
  return consolidate(intervals, segments, {
    minSamples: options.minSegmentSamples ?? 8,
    minChange,
    minScore,
    sigma: fineSigma,
  });
}
