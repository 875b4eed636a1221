/**
 * The sample intervals of a phase pooled into blocks that each hold whole delivery cycles, for the
 * search for changes of rate (rate-segments.ts). A drive, or a kernel throttle in front of it, may
 * pass a few chunks at once and then hold the next for 80 ms: single intervals then swing twenty-
 * fold while every cycle moves the same bytes. A block that ends only after such a burst has been
 * paid for by its hold measures the drive, not the cycle's phase.
 */
import { median } from 'simple-statistics';
import { stretchRate, type TransferCurve } from './transfer-curve.js';

/** Consecutive intervals pooled, in columns. */
export interface DeliveryBlocks {
  /** First interval of each block, and one past the last block's end (count + 1 entries). */
  firstInterval: Int32Array;
  logRate: Float64Array;
  bytes: Float64Array;
  seconds: Float64Array;
  count: number;
  /** The median interval's bytes. */
  medianBytes: number;
  /** Transfer seconds of one delivery cycle (a burst and its hold); 0 for a drive that delivers evenly. */
  cycleSeconds: number;
  /**
   * Whether each block ran on past its size to be whole (a burst in it waited for its hold): where
   * the blocks around a change did not, their intervals are steady on their own and the change can
   * be placed between them, not only between blocks.
   */
  extended: Uint8Array;
}

/**
 * What an interval is judged against, each side: at least this many intervals, and two delivery
 * cycles (`cycleSeconds`) of transfer time up to this much. A state of the drive (a cache's
 * stretch, a hot or cool spell) is longer: the analysis asks 0.5 s of any dip or spike.
 */
const sideIntervals = 4;
const maxSideSeconds = 0.25;
/** An interval this much slower than the median of the nine around it is a hold. */
const holdFactor = 3;
/** Holds among fewer intervals than this are stalls, not a rhythm of delivery. */
const minHoldShare = 0.02;
/**
 * Holds further apart than this (the median) are not a rhythm of delivery either: a throttle's or
 * a controller's cycle is a tenth of a second or so, and a stretch of the drive's state lasts half a
 * second at least (rate-segments.ts), so a "cycle" of seconds would swallow the states it is for.
 */
const maxCycleSeconds = 1;
/**
 * A block this much faster than the stretches either side of where it ends holds a burst (the
 * drive took it at once and will hold a later write), this much slower a hold whose burst comes
 * next. At 15 % noise a lone interval is 15 % off its neighbours once in six and then pooled with
 * the next, which costs nothing; a throttle's bursts run 3–20 × the rate it allows.
 */
const burstFactor = 1.15;

/**
 * The transfer seconds of one delivery cycle (a burst and the hold that pays for it: a kernel
 * throttle's slice, 20 or 100 ms; a controller flushing its buffer): the median time from one hold
 * to the next; 0 for a drive that delivers evenly (holds rarer than stalls). A hold is judged
 * against the intervals around it, so a phase whose slow part is even and fast part bursty still
 * shows the fast part's cycle.
 */
function cycleSeconds(curve: TransferCurve, minSize: number): number {
  const n = curve.count;
  const rate = (i: number) => curve.bytes[i]! / curve.seconds[i]!;
  const holdTimes: number[] = [];
  for (let i = 0; i < n; i += 1) {
    // A file's short last write is slow for its fixed costs, not held: one under `minSize` (half
    // the median interval's bytes, the size a block must reach) is not judged (a sawtooth run's
    // seven file tails in 263 intervals read as holds 4.1 s apart, every stretch shorter than that
    // "cycle" was joined, and 29 s of throttling became one segment).
    if (curve.bytes[i]! < minSize) continue;
    // Slower than the median of the nine around it by holdFactor: more than half of them faster.
    const [from, to] = [Math.max(0, i - 4), Math.min(n - 1, i + 4)];
    let faster = 0;
    for (let j = from; j <= to; j += 1) if (rate(j) > holdFactor * rate(i)) faster += 1;
    if (2 * faster > to - from + 1) holdTimes.push(curve.transferTime[i + 1]!);
  }
  if (holdTimes.length < 2 || holdTimes.length < minHoldShare * n) return 0;
  const cycle = median(holdTimes.slice(1).map((t, k) => t - holdTimes[k]!));
  return cycle <= maxCycleSeconds ? cycle : 0;
}

/**
 * The rates a block ending at each interval may have and still be whole: within `burstFactor` of
 * the stretches either side of the interval, at most that much above the faster side and below the
 * slower. The faster side above and the slower below, so the intervals either side of a change of
 * rate, where one side is all at the other rate, end blocks. A side shorter than half of its
 * intervals and time (at the phase's ends) leaves the interval unjudged. On a drive that delivers
 * evenly a block may end there: a fast stretch may be a cache that ran out in a tenth of a second,
 * and its intervals say more on their own. Behind a delivery cycle none may: the phase's first
 * intervals are the throttle's first slice, passed at the device's speed before its hold, and a
 * block of them alone measures the device, not the drive (a small-disk run, seed 917781707, had
 * its first slice as eighteen blocks at 3–6 GB/s and a hold at 46 MB/s: its three whole slices
 * at 790 MB/s were too few to be a stretch, and a 0.32 GB cache was not found).
 */
function wholeBlockRates(
  curve: TransferCurve,
  cycle: number,
): { low: Float64Array; high: Float64Array } {
  const n = curve.count;
  const sideSeconds = Math.min(2 * cycle, maxSideSeconds);
  const time = curve.transferTime;
  const low = new Float64Array(n);
  const high = new Float64Array(n);
  const enough = (intervals: number, seconds: number, share: number) =>
    intervals >= share * sideIntervals && seconds >= share * sideSeconds;
  let from = 0; // the before side is [from, i)
  let to = 0; // the after side is (i, to)
  for (let i = 0; i < n; i += 1) {
    while (from < i - 1 && enough(i - from - 1, time[i]! - time[from + 1]!, 1)) from += 1;
    if (to < i + 1) to = i + 1;
    while (to < n && !enough(to - i - 1, time[to]! - time[i + 1]!, 1)) to += 1;
    const before = enough(i - from, time[i]! - time[from]!, 0.5)
      ? stretchRate(curve, from, i)
      : null;
    const after = enough(to - i - 1, time[to]! - time[i + 1]!, 0.5)
      ? stretchRate(curve, i + 1, to)
      : null;
    const judged = before !== null && after !== null;
    const open = !judged && cycle === 0; // unjudged: any rate (even delivery) or none (a cycle)
    low[i] = judged ? Math.min(before, after) / burstFactor : open ? 0 : Infinity;
    high[i] = judged ? Math.max(before, after) * burstFactor : open ? Infinity : 0;
  }
  return { low, high };
}

/**
 * Blocks of consecutive intervals. A block ends only where it is whole (wholeBlockRates: not
 * inside a burst the drive has not paid for, nor on a hold before its burst), unless it has run
 * past two sides' time (a pause of seconds), and once it is long enough: as long as half the
 * median interval in time or in bytes (so only the short tails of files join a neighbour), and holding at least
 * 1/`maxBlocks` of the bytes or of the time (a million samples become a few thousand blocks, a slow
 * stretch cut as finely in time as a fast one). Near the start a block holds at most an eighth of
 * the bytes before it, so a small cache that runs out early (0.5 GB of an 800 GB run) still spans
 * enough blocks to be a segment.
 */
export function deliveryBlocks(curve: TransferCurve, maxBlocks: number): DeliveryBlocks {
  const n = curve.count;
  const stride = Math.max(1, Math.floor(n / 10_001));
  const durations: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < n; i += stride) {
    durations.push(curve.seconds[i]!);
    sizes.push(curve.bytes[i]!);
  }
  const minSeconds = n > 0 ? 0.5 * median(durations) : 0;
  const medianBytes = n > 0 ? median(sizes) : 0;
  const minSize = 0.5 * medianBytes;
  const minBytes = curve.movedBytes[n]! / maxBlocks;
  const minTime = curve.transferTime[n]! / maxBlocks;
  const cycle = cycleSeconds(curve, minSize);
  const whole = wholeBlockRates(curve, cycle);
  const firstInterval = new Int32Array(n + 1);
  const bytes = new Float64Array(n);
  const seconds = new Float64Array(n);
  const extended = new Uint8Array(n);
  let count = 0;
  let longEnough = false; // the block has reached its size
  let start = 0;
  let blockBytes = 0;
  let blockSeconds = 0;
  let doneBytes = 0;
  for (let i = 0; i < n; i += 1) {
    blockBytes += curve.bytes[i]!;
    blockSeconds += curve.seconds[i]!;
    const blockRate = blockBytes / blockSeconds;
    // A block that runs past two sides' time without becoming whole (a pause of seconds) ends.
    const isWhole =
      (blockRate >= whole.low[i]! && blockRate <= whole.high[i]!) ||
      (blockSeconds >= 2 * maxSideSeconds && i + 1 - start >= sideIntervals);
    const sized =
      (blockSeconds >= minSeconds || blockBytes >= minSize) &&
      (blockBytes >= Math.min(minBytes, doneBytes / 8) || blockSeconds >= minTime);
    const wasLongEnough = longEnough;
    longEnough = sized;
    const long = isWhole && sized;
    if (long || i === n - 1) {
      if (!long && count > 0) {
        // The last, short block joins the one before.
        bytes[count - 1] = bytes[count - 1]! + blockBytes;
        seconds[count - 1] = seconds[count - 1]! + blockSeconds;
      } else {
        firstInterval[count] = start;
        bytes[count] = blockBytes;
        seconds[count] = blockSeconds;
        extended[count] = wasLongEnough ? 1 : 0;
        count += 1;
      }
      longEnough = false;
      start = i + 1;
      doneBytes += blockBytes;
      blockBytes = 0;
      blockSeconds = 0;
    }
  }
  firstInterval[count] = n;
  const logRate = new Float64Array(count);
  for (let j = 0; j < count; j += 1) logRate[j] = Math.log(Math.max(bytes[j]!, 1) / seconds[j]!);
  return {
    firstInterval: firstInterval.subarray(0, count + 1),
    logRate,
    bytes: bytes.subarray(0, count),
    seconds: seconds.subarray(0, count),
    count,
    medianBytes,
    cycleSeconds: cycle,
    extended: extended.subarray(0, count),
  };
}
