/**
 * Where exactly a rate changed, and what each stretch between the changes moved. A change found
 * between blocks (block-changes.ts) is placed among the blocks around it, inside the block that
 * straddles it, and among single intervals where those are steady on their own; each stretch's
 * rate is then its bytes over its transfer seconds between the placed changes, whole blocks only.
 */
import type { DeliveryBlocks } from './delivery-blocks.js';
import { endBytesOf, stretchRate, type TransferCurve } from './transfer-curve.js';

/** A sequence of stretches (blocks or sample intervals), as a change is located on it. */
interface Units {
  logRate: (j: number) => number;
  bytes: (j: number) => number;
  seconds: (j: number) => number;
  startBytes: (j: number) => number;
  /** Whether a file ended in it (the engine times a file's flush with its last write). */
  endsFile: (j: number) => boolean;
}

/** Where a change lies, and the first unit of stalls just before it that neither rate holds. */
interface Located {
  bytes: number;
  split: number;
  stallsFrom?: number;
}

/**
 * Where, among units [from, to), the rate changed from `before` to `after` bytes/s, as the
 * cumulative bytes of the phase there. First the split that best separates the two levels: least
 * absolute deviation of the units' log-rates from their side's level, each unit's cost capped at
 * half the step, and a unit far outside both levels (a stall, a burst) costing nothing, so
 * neither decides (a file's flush followed by a burst counts as the two pooled). Then, inside the
 * unit that straddles it, the share of its bytes at the rate before, from its duration and the two
 * rates: the last unit before the split or the first after, whichever holds more of the other
 * rate (stalls next to the split passed over: the change at the end of files' flushes, whose bytes
 * came before, at the start of other stalls, whose bytes come after; with neither, the split
 * itself).
 * Returns the split too, and the stalls left out of the rate before when the change is past them.
 */
function locateChange(
  units: Units,
  from: number,
  to: number,
  before: number,
  after: number,
): Located {
  const [logBefore, logAfter] = [Math.log(before), Math.log(after)];
  const halfStep = Math.abs(logBefore - logAfter) / 2;
  const low = Math.min(logBefore, logAfter) - halfStep;
  const high = Math.max(logBefore, logAfter) + halfStep;
  // A unit in which a file ended, slow as the slower rate, then one faster than both: the flush
  // held the last write and the throttle spent what it saved after it, so the two are taken at
  // the rate they pool to when the split is looked for. (A flush 210 MB before a throttle fell,
  // then 214 MB at 721 MB/s under a 465 cap, put the change 245 MB early: burst-run1.)
  const faster = Math.max(logBefore, logAfter);
  const middle = (logBefore + logAfter) / 2;
  const flushThenBurst = (j: number) =>
    j >= from &&
    j + 1 < to &&
    units.endsFile(j) &&
    units.logRate(j) < middle &&
    units.logRate(j + 1) > faster;
  const searchRate = (j: number) => {
    const pair = flushThenBurst(j) ? j : flushThenBurst(j - 1) ? j - 1 : -1;
    if (pair < 0) return units.logRate(j);
    const bytes = units.bytes(pair) + units.bytes(pair + 1);
    return Math.log(bytes / (units.seconds(pair) + units.seconds(pair + 1)));
  };
  const neutral = (j: number) => units.logRate(j) < low || units.logRate(j) > high;
  const searchNeutral = (j: number) => searchRate(j) < low || searchRate(j) > high;
  const cost = (j: number, level: number) =>
    searchNeutral(j) ? 0 : Math.min(Math.abs(searchRate(j) - level), halfStep);
  let total = 0;
  for (let j = from; j < to; j += 1) total += cost(j, logAfter);
  let best = total;
  let split = from;
  for (let j = from + 1; j <= to; j += 1) {
    total += cost(j - 1, logBefore) - cost(j - 1, logAfter);
    if (total < best) [best, split] = [total, j];
  }
  if (split <= from || split >= to) return { bytes: units.startBytes(split), split };
  const shareBefore = (j: number) => {
    const bytes = units.bytes(j);
    const share = (units.seconds(j) - bytes / after) / (bytes / before - bytes / after);
    // Far outside both rates (a stall in it): its timing says nothing, so its middle.
    return share < -0.5 || share > 1.5 ? 0.5 : Math.min(1, Math.max(0, share));
  };
  let last = split - 1;
  while (last > from && neutral(last)) last -= 1;
  let first = split;
  while (first < to - 1 && neutral(first)) first += 1;
  const lastMiss = (1 - shareBefore(last)) * units.bytes(last);
  const firstMiss = shareBefore(first) * units.bytes(first);
  const inside = (j: number) => units.startBytes(j) + shareBefore(j) * units.bytes(j);
  let flushes = first > last + 1;
  for (let j = last + 1; j < first && flushes; j += 1)
    flushes = units.endsFile(j) && units.logRate(j) < low;
  // Stalls between the two rates that are only files' flushes (the engine times each with its
  // file's last write, whose bytes came at the rate before): the change at their last byte, in
  // them, so neither stretch's rate holds them; unless the unit before them plainly holds the rate
  // after. A flush 40 MB before a throttle fell, taken for a pause at the cache's end, put the
  // change 77 MB early (flush-run1); one the throttle held 0.77 s as the cache ran out is no part
  // of the cache's rate (pause-run1).
  // But when the unit after them holds more of the rate before than the last before them holds of
  // the rate after, the drive went on at the rate before once the flushes were done: the change is
  // in that unit, and the flushes are left out of the rate before instead. (A flush 57 MB before
  // a throttle fell, the block after it half at each rate, put the change 53 MB early:
  // flush-run2.)
  if (flushes && shareBefore(last) >= 0.8) {
    if (firstMiss > lastMiss) return { bytes: inside(first), split, stallsFrom: last + 1 };
    return { bytes: units.startBytes(first) - 1, split: first };
  }
  if (lastMiss > firstMiss) return { bytes: inside(last), split };
  // Any other stall just before the first unit at the rate after goes with that rate (a drive
  // whose cache ran out pauses then): the change at the stall's start, in it, so neither stretch's
  // rate holds it.
  if (first > last + 1 && shareBefore(first) < 0.5)
    return { bytes: units.startBytes(last + 1), split: last + 1 };
  if (firstMiss > 0) return { bytes: inside(first), split };
  return { bytes: units.startBytes(split), split };
}

/** Blocks either side of a change's block whose intervals may place it more finely. */
const refineBlocks = 2;

/**
 * Where between blocks [from, to) the change from `before` to `after` bytes/s lies, as cumulative
 * bytes: among the blocks, then, where the blocks around it closed at their size (a steady drive,
 * its samples pooled only to bound the cost), among their intervals. A bursty drive's single
 * intervals are bursts and holds, which say nothing of where its rate changed. With it, the
 * first interval of stalls just before it that the rate before leaves out (locateChange).
 */
function changeBytes(
  curve: TransferCurve,
  blocks: DeliveryBlocks,
  from: number,
  to: number,
  before: number,
  after: number,
): { bytes: number; stallsFrom?: number } {
  const firstInterval = (block: number) => blocks.firstInterval[block]!;
  const end = endBytesOf(curve);
  const coarse = locateChange(
    {
      logRate: (j) => blocks.logRate[j]!,
      bytes: (j) => blocks.bytes[j]!,
      seconds: (j) => blocks.seconds[j]!,
      startBytes: (j) => (j < blocks.count ? curve.startBytes[firstInterval(j)]! : end),
      endsFile: (j) => {
        for (let i = firstInterval(j); i < firstInterval(j + 1); i += 1)
          if (curve.endsFile[i]) return true;
        return false;
      },
    },
    from,
    to,
    before,
    after,
  );
  const firstBlock = Math.max(from, coarse.split - refineBlocks);
  const endBlock = Math.min(to, coarse.split + refineBlocks);
  let extended = 0;
  for (let j = firstBlock; j < endBlock; j += 1) extended += blocks.extended[j]!;
  if (extended > 0.25 * (endBlock - firstBlock))
    return coarse.stallsFrom === undefined
      ? { bytes: coarse.bytes }
      : { bytes: coarse.bytes, stallsFrom: firstInterval(coarse.stallsFrom) };
  const fine = locateChange(
    {
      logRate: (i) => Math.log(Math.max(curve.bytes[i]!, 1) / curve.seconds[i]!),
      bytes: (i) => curve.bytes[i]!,
      seconds: (i) => curve.seconds[i]!,
      startBytes: (i) => (i < curve.count ? curve.startBytes[i]! : end),
      endsFile: (i) => curve.endsFile[i] === 1,
    },
    firstInterval(firstBlock),
    firstInterval(endBlock),
    before,
    after,
  );
  return fine;
}

/** Bytes of blocks [from, to). */
function blockBytes(blocks: DeliveryBlocks, from: number, to: number): number {
  let sum = 0;
  for (let j = from; j < to; j += 1) sum += blocks.bytes[j]!;
  return sum;
}

/**
 * The level of segment [fromBlock, toBlock) beside a change, to place it by: the bytes over the
 * seconds of the blocks in its outer half (by bytes), blocks under 40 % of their median (by
 * bytes, so neither a pause nor a run of tiny bursts decides it) left out. A pause the drive took
 * there then does not pull the level towards the other side's, where every block would be
 * outside both levels and the split fall anywhere. (A file's flush held 0.31 s at a third of the
 * rate 460 MB before a throttle fell from 420 MB/s to 255: counted, it put the level at 342 and
 * the change at the phase's start, flush-run1 once its first slice was one block.)
 */
function placementLevel(
  blocks: DeliveryBlocks,
  fromBlock: number,
  toBlock: number,
  outer: 'first' | 'last',
): number {
  const half = blockBytes(blocks, fromBlock, toBlock) / 2;
  let [from, to] = [fromBlock, toBlock];
  if (outer === 'first')
    for (let moved = 0; to > from + 1 && moved + blocks.bytes[to - 1]! <= half; to -= 1)
      moved += blocks.bytes[to - 1]!;
  else
    for (let moved = 0; from < to - 1 && moved + blocks.bytes[from]! <= half; from += 1)
      moved += blocks.bytes[from]!;
  const order = Array.from({ length: to - from }, (_, i) => from + i).sort(
    (a, b) => blocks.logRate[a]! - blocks.logRate[b]!,
  );
  const halfway = blockBytes(blocks, from, to) / 2;
  let middle = order[0]!;
  for (let moved = 0, i = 0; i < order.length && moved < halfway; i += 1)
    [moved, middle] = [moved + blocks.bytes[order[i]!]!, order[i]!];
  const floor = blocks.logRate[middle]! - Math.log(2.5);
  let [bytes, seconds] = [0, 0];
  for (let j = from; j < to; j += 1)
    if (blocks.logRate[j]! >= floor)
      [bytes, seconds] = [bytes + blocks.bytes[j]!, seconds + blocks.seconds[j]!];
  return bytes / seconds;
}

/** A placed change: the phase's bytes and elapsed seconds there, and the interval it falls in. */
export interface PlacedChange {
  bytes: number;
  seconds: number;
  /** Transfer seconds (gaps between files left out) from the first interval's start. */
  transferSeconds: number;
  interval: number;
}

/** The change at cumulative `bytes`, inside the interval there (its rate taken as even). */
function placedAt(curve: TransferCurve, bytes: number): PlacedChange {
  let [lo, hi] = [0, curve.count - 1];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (curve.startBytes[mid]! <= bytes) lo = mid;
    else hi = mid - 1;
  }
  const share =
    curve.bytes[lo]! > 0
      ? Math.min(1, Math.max(0, (bytes - curve.startBytes[lo]!) / curve.bytes[lo]!))
      : 0;
  const into = share * curve.seconds[lo]!;
  return {
    bytes: curve.startBytes[lo]! + share * curve.bytes[lo]!,
    seconds: curve.startSeconds[lo]! + into,
    transferSeconds: curve.transferTime[lo]! + into,
    interval: lo,
  };
}

/** A stretch between placed changes: its rate, its bytes and seconds, the intervals it holds. */
export interface MeasuredStretch {
  startBytes: number;
  startSeconds: number;
  rate: number;
  seconds: number;
  bytes: number;
  /** Its intervals [first, end), the ones the changes fall in left out. */
  first: number;
  end: number;
  /** Blocks wholly inside it (the ones the changes fall in left out): what its rate is made of. */
  wholeBlocks: number;
}

/**
 * The stretches of the segments that start at blocks `starts`. Each change is looked for from the
 * middle of the segment before it to the middle of the one after, between the levels of their
 * outer halves (away from this change). Each stretch's rate is the bytes over the seconds of its
 * whole blocks between the changes (the block a change falls in holds both rates, and a bursty
 * drive's part of a cycle is not its rate), of the intervals between them where it has none.
 */
export function measureStretches(
  curve: TransferCurve,
  blocks: DeliveryBlocks,
  starts: readonly number[],
): MeasuredStretch[] {
  const count = starts.length;
  const firstInterval = (block: number) => blocks.firstInterval[block]!;
  const endBlock = (k: number) => (k + 1 < count ? starts[k + 1]! : blocks.count);
  const rateOf = (from: number, to: number) =>
    stretchRate(curve, from, Math.max(to, from + 1)) ?? 0;
  // Each change, with where the stalls just before it start (the rate before it leaves them out).
  const changes: (PlacedChange & { stallsFrom?: number })[] = [];
  for (let k = 1; k < count; k += 1) {
    const before = placementLevel(blocks, starts[k - 1]!, starts[k]!, 'first');
    const after = placementLevel(blocks, starts[k]!, endBlock(k), 'last');
    const fromBlock = Math.floor((starts[k - 1]! + starts[k]!) / 2);
    const toBlock = Math.ceil((starts[k]! + endBlock(k)) / 2);
    const change = changeBytes(curve, blocks, fromBlock, toBlock, before, after);
    changes.push({ ...placedAt(curve, change.bytes), stallsFrom: change.stallsFrom });
  }
  const blockOf = (interval: number) => {
    let [lo, hi] = [0, blocks.count - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (firstInterval(mid) <= interval) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const last = curve.count;
  return Array.from({ length: count }, (_, k) => {
    const first = k === 0 ? 0 : changes[k - 1]!.interval + 1;
    const end = k + 1 < count ? changes[k]!.interval : last;
    const fromBlock = k === 0 ? 0 : Math.min(blockOf(first - 1) + 1, blocks.count);
    const toBlock = k + 1 < count ? blockOf(end) : blocks.count;
    const from = firstInterval(fromBlock);
    let to = k + 1 < count ? firstInterval(toBlock) : last;
    const stalls = k + 1 < count ? changes[k]!.stallsFrom : undefined;
    if (stalls !== undefined && stalls > from && stalls < to) to = stalls;
    const startTime = k === 0 ? 0 : changes[k - 1]!.transferSeconds;
    const endTime = k + 1 < count ? changes[k]!.transferSeconds : curve.transferTime[last]!;
    const startBytes = k === 0 ? (curve.startBytes[0] ?? 0) : changes[k - 1]!.bytes;
    const endBytes = k + 1 < count ? changes[k]!.bytes : endBytesOf(curve);
    return {
      startBytes,
      startSeconds: k === 0 ? (curve.startSeconds[0] ?? 0) : changes[k - 1]!.seconds,
      rate: to > from ? rateOf(from, to) : rateOf(first, end),
      seconds: endTime - startTime,
      bytes: endBytes - startBytes,
      first,
      end,
      wholeBlocks: Math.max(0, toBlock - fromBlock),
    };
  });
}
