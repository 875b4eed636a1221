/**
 * Where the rate changed, found on delivery blocks (delivery-blocks.ts): PELT proposes the changes
 * of the blocks' log-rates, and every change that fails a test is merged away, weakest first.
 */
import { median } from 'simple-statistics';
import { peltChunked } from './pelt.js';

export interface ChangeTests {
  /** Smallest step between neighbouring segments, as a share of the higher. */
  minChange: number;
  /** Fewest blocks in a segment. */
  minSegmentBlocks: number;
  /** Fewest bytes in a segment. */
  minBytes: number;
  /** Fewest transfer seconds in a segment slower or faster than both its neighbours. */
  minInnerSeconds: number;
  /** Least share of the blocks near a change on the side of their own segment. */
  minConfidence: number;
  /** Penalty per change in units of σ² · ln(blocks). */
  penaltyFactor: number;
}

/**
 * Robust noise of a series with steps: the median absolute difference of neighbours (at most
 * about 20,000 pairs), as a σ: steps and stalls are too rare to move a median.
 */
function noiseSigma(values: Float64Array): number {
  const stride = Math.max(1, Math.floor(values.length / 20_000));
  const differences: number[] = [];
  for (let i = 1; i < values.length; i += stride)
    differences.push(Math.abs(values[i]! - values[i - 1]!));
  if (differences.length === 0) return 0.005;
  return Math.max((1.4826 * median(differences)) / Math.SQRT2, 0.005);
}

/**
 * Each value pulled to within 3σ of the median of its five neighbours, so a lone stall (one block
 * ten times slower) costs a squared-error segmentation no more than a modest deviation, while a
 * step, which the running median follows, is untouched.
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

/** Robust spread (1.4826 × the median absolute deviation from the median) of values [from, to). */
function spread(values: Float64Array, from: number, to: number): number {
  const list = Array.from(values.subarray(from, to));
  const level = median(list);
  return 1.4826 * median(list.map((v) => Math.abs(v - level)));
}

/** Share of values [from, to) beyond `midpoint` on the side of `level`. */
function sideShare(
  values: Float64Array,
  from: number,
  to: number,
  level: number,
  midpoint: number,
) {
  let right = 0;
  for (let j = from; j < to; j += 1)
    if (level > midpoint ? values[j]! > midpoint : values[j]! < midpoint) right += 1;
  return right / (to - from);
}

/**
 * How sure the change from blocks [aFirst, bFirst) at log-rate `aLevel` to [bFirst, bEnd) at
 * `bLevel` is: the share of blocks on the side of their own segment's level, the worse of the two
 * sides, counting as many blocks each side as the shorter segment has, and leaving out the block
 * next to the change when a side has three or more (it holds both rates).
 */
export function changeConfidence(
  logRates: Float64Array,
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
    sideShare(logRates, bFirst - near, aEnd, aLevel, midpoint),
    sideShare(logRates, bStart, bFirst + near, bLevel, midpoint),
  );
}

/**
 * The first block of each segment of steady rate, and the blocks' log-rates with outliers clipped
 * (what the confidence of a change is read on). PELT partitions the clipped log-rates with a
 * penalty of `penaltyFactor` · σ² · ln m; then a change must be a step of at least `minChange` in
 * the segments' bytes over seconds; clear against the noise of the two segments (their rates
 * √(penaltyFactor · ln m) standard errors apart, each side's spread its own, as a bursty fast
 * stretch is noisier than a steady slow one); consistent (`minConfidence` of the blocks near it on
 * their own side); between segments of `minBytes` at least; and a dip or spike must last
 * `minInnerSeconds`. On log-rate, so a fall from 7 GB/s to 2.2 GB/s and one from 700 MB/s to
 * 220 MB/s are alike.
 */
export function blockChanges(
  logRate: Float64Array,
  blockBytes: Float64Array,
  blockSeconds: Float64Array,
  tests: ChangeTests,
): { starts: number[]; clipped: Float64Array } {
  const m = logRate.length;
  const sigma = noiseSigma(logRate);
  const clipped = clipOutliers(logRate, sigma);
  const starts = peltChunked(
    clipped,
    tests.minSegmentBlocks,
    tests.penaltyFactor * sigma * sigma * Math.log(m),
  );
  // Running sums of the blocks' bytes and seconds: a segment's rate in O(1).
  const bytesBefore = new Float64Array(m + 1);
  const secondsBefore = new Float64Array(m + 1);
  for (let j = 0; j < m; j += 1) {
    bytesBefore[j + 1] = bytesBefore[j]! + blockBytes[j]!;
    secondsBefore[j + 1] = secondsBefore[j]! + blockSeconds[j]!;
  }
  const end = (k: number) => (k + 1 < starts.length ? starts[k + 1]! : m);
  const logRateOf = (k: number) =>
    Math.log(
      (bytesBefore[end(k)]! - bytesBefore[starts[k]!]!) /
        (secondsBefore[end(k)]! - secondsBefore[starts[k]!]!),
    );
  const minStep = -Math.log(1 - tests.minChange);
  const minScore = Math.sqrt(tests.penaltyFactor * Math.log(m));
  const excursion = (k: number) =>
    k > 0 &&
    k < starts.length - 1 &&
    Math.sign(logRateOf(k) - logRateOf(k - 1)) === Math.sign(logRateOf(k) - logRateOf(k + 1));
  // A dip or spike too short to keep joins the neighbour nearer its rate: its shortness weakens
  // the change on that side only. (The 0.4 s a throttle held as its cache ran out, the fast
  // slices' debt paid at the slow rate, is the slow stretch's; joined to the fast one instead,
  // the cache was lost.)
  const nearerChange = (k: number) =>
    Math.abs(logRateOf(k) - logRateOf(k - 1)) <= Math.abs(logRateOf(k) - logRateOf(k + 1))
      ? k
      : k + 1;
  const innerSeconds = (k: number, change: number) =>
    excursion(k) && nearerChange(k) === change
      ? secondsBefore[end(k)]! - secondsBefore[starts[k]!]!
      : Infinity;
  // How weak the change into segment k is: above 1, too weak to keep.
  const weakness = (k: number): number => {
    const [aFirst, bFirst, bEnd] = [starts[k - 1]!, starts[k]!, end(k)];
    const [a, b] = [logRateOf(k - 1), logRateOf(k)];
    const error = Math.sqrt(
      Math.max(spread(clipped, aFirst, bFirst), sigma) ** 2 / (bFirst - aFirst) +
        Math.max(spread(clipped, bFirst, bEnd), sigma) ** 2 / (bEnd - bFirst),
    );
    const step = Math.abs(a - b);
    const shortest = Math.min(
      bytesBefore[bFirst]! - bytesBefore[aFirst]!,
      bytesBefore[bEnd]! - bytesBefore[bFirst]!,
    );
    return Math.max(
      minScore / Math.max(step / error, 1e-12),
      minStep / Math.max(step, 1e-12),
      tests.minConfidence / Math.max(changeConfidence(clipped, aFirst, bFirst, bEnd, a, b), 1e-12),
      tests.minBytes / Math.max(shortest, 1e-12),
      tests.minInnerSeconds / Math.max(Math.min(innerSeconds(k - 1, k), innerSeconds(k, k)), 1e-12),
    );
  };
  for (;;) {
    let weakest = 0;
    let worst = 1;
    for (let k = 1; k < starts.length; k += 1) {
      const w = weakness(k);
      if (w > worst) [weakest, worst] = [k, w];
    }
    if (weakest === 0) break;
    starts.splice(weakest, 1);
  }
  return { starts, clipped };
}
