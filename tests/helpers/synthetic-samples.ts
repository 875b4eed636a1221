/**
 * Sample streams as a sustained run would record them, for the analysis tests: the built-in
 * `sustained` plan's files (log-uniform 200 MB–2 GB, the last one taking the remainder) up to a
 * total sized like the plan's default, timed on a model drive whose rate may depend on the bytes
 * written (a cache) or on the time (heat), sampled about 4 times a second and never coarser than
 * 1/1000 of the planned bytes, with noise, stalls, a little wait at the start of each file and a gap to
 * open and close each file.
 */
import { builtinPlan } from '../../app/core/bench/builtin-plans.js';
import { randomLogUniformSize, sizeQuantum } from '../../app/common/run-sizes.js';
import { sustainedTotal } from '../../app/common/plan-kind-sustained.js';
import { newSeed, seededRandom } from '../../app/core/bench/seeded-random.js';
import { writeAllowance } from '../../app/common/reserve.js';
import { cacheGuessBytes } from '../../app/common/run-sizes.js';
import { reserveBytes } from '../../app/common/reserve.js';
import type { SustainedPlan } from '../../app/contract/plan.js';
import type { PhaseFile } from '../../app/core/analysis/findings.js';

export const sustainedPlan = builtinPlan('sustained') as SustainedPlan;

/** The instantaneous rate of a model drive, bytes/s, after `bytes` written and `seconds` elapsed. */
export type DriveModel = (bytes: number, seconds: number) => number;

export interface StreamOptions {
  random: () => number;
  totalBytes: number;
  drive: DriveModel;
  /** σ of the log-normal noise on each sample interval's time (default 0.08). */
  noise?: number;
  /** Chance that an interval stalls, taking 2–6 × as long (default 0.005). */
  stallChance?: number;
  cadenceSeconds?: number;
  /** Most bytes between two samples (default a thousandth of the total, as issue 13 asks). */
  maxSampleBytes?: number;
  /**
   * Chunk by chunk through a throttle, as a kernel's block throttle or a drive's controller
   * delivers at real rates (issue 23): instead of smooth noise on each sample.
   */
  delivery?: BurstyDelivery;
  /** Pauses a second, on average (a drive busy with itself: 0.2–2 s with nothing written); default 0. */
  pausesPerSecond?: number;
}

/**
 * A throttle in front of a fast device, like blk-throttle: time is cut into slices; in each, writes
 * pass at the device's own speed until the slice's allowance (the drive model's rate × the slice)
 * is spent, and the next write waits for the next slice. So chunks go through in bursts and are
 * then held: single intervals swing twenty-fold while every slice moves the drive's rate.
 */
export interface BurstyDelivery {
  /** The device's own speed, bytes/s (2–3.4 GB/s for the loop disks here). */
  deviceRate: number;
  /** The throttle's slice, seconds (blk-throttle: 100 ms on a rotational queue, 20 ms on an SSD). */
  sliceSeconds: number;
  /** Bytes each write submits (the timed write's chunk: 4 MiB). */
  chunkBytes: number;
  /**
   * Whether a rate that falls inside a slice is charged as Linux's blk-throttle charges a lowered
   * limit: a new slice starts there, owing what the old one passed ahead of its limit (the burst
   * it let through at the device's speed), paid at the new rate. The small-disk test's throttle
   * held 0.23 s after its last fast burst so (seed 917781707).
   */
  chargeFall?: boolean;
}

export interface SampleStream {
  t: number[];
  bytes: number[];
  file: number[];
  fileBytes: number[];
}

/** A standard normal draw (Box–Muller). */
export function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

export const between = (random: () => number, low: number, high: number) =>
  low + (high - low) * random();
export const logBetween = (random: () => number, low: number, high: number) =>
  low * Math.exp(random() * Math.log(high / low));

/**
 * The total the plan writes by default on a drive drawn at random: 64 GB to 2 TB, 30–95 % free,
 * through the same guard and cache guess the runner uses.
 */
export function defaultTotal(random: () => number): number {
  const volume = logBetween(random, 64e9, 2e12);
  const available = volume * between(random, 0.3, 0.95);
  const allowance = writeAllowance(available, reserveBytes(volume));
  return sustainedTotal(sustainedPlan, undefined, allowance, cacheGuessBytes(volume, available));
}

/** Seconds to write `bytes` from (`at`, `seconds`) on `drive`, in small pieces so a change inside is timed part at each rate. */
function ideal(drive: DriveModel, at: number, seconds: number, bytes: number): number {
  const pieces = 32;
  let elapsed = 0;
  for (let i = 0; i < pieces; i += 1)
    elapsed += bytes / pieces / drive(at + ((i + 0.5) * bytes) / pieces, seconds + elapsed);
  return elapsed;
}

/**
 * The next file of the sustained plan (log-uniform in its sizes, the last one taking the
 * remainder) begun at `now` with `written` bytes of `totalBytes` done: its size recorded and its
 * first sample taken. Returns its size.
 */
function startFile(
  out: SampleStream,
  random: () => number,
  totalBytes: number,
  written: number,
  now: number,
  index: number,
): number {
  const remaining = totalBytes - written;
  let size = randomLogUniformSize(random, sustainedPlan.minFileBytes, sustainedPlan.maxFileBytes);
  if (remaining - size < sustainedPlan.minFileBytes)
    size = Math.ceil(remaining / sizeQuantum) * sizeQuantum;
  out.fileBytes.push(size);
  out.t.push(now);
  out.bytes.push(written);
  out.file.push(index);
  return size;
}

/**
 * The sustained plan's files written chunk by chunk through a `BurstyDelivery` throttle, sampled as
 * the native sampler does (at the end of a chunk, once `maxStep` bytes or the cadence has passed).
 */
function burstyStream(options: StreamOptions, delivery: BurstyDelivery): SampleStream {
  const { random, totalBytes, drive } = options;
  const cadence = options.cadenceSeconds ?? 0.25;
  const maxStep = options.maxSampleBytes ?? totalBytes / 1000;
  const pauses = options.pausesPerSecond ?? 0;
  const out: SampleStream = { t: [], bytes: [], file: [], fileBytes: [] };
  let written = 0;
  let now = 0;
  // The throttle's clock runs while the file is written, not while it is opened and closed: a
  // drive's own cycles (and a test's truth) are in transfer time, so no hold hides in a gap.
  let busy = 0;
  let sliceEnd = 0;
  let allowance = 0;
  let sliceRate = 0;
  let sliceStart = 0;
  let sliceBytes = 0;
  /** A slice starts now at `rate`, allowing `bytes`. */
  const startSlice = (rate: number, bytes: number) => {
    [allowance, sliceEnd, sliceRate, sliceStart, sliceBytes] = [
      bytes,
      busy + delivery.sliceSeconds,
      rate,
      busy,
      0,
    ];
  };
  for (let index = 0; written < totalBytes; index += 1) {
    now += between(random, 0.005, 0.04); // open
    const fileEnd = written + startFile(out, random, totalBytes, written, now, index);
    let sampledAt = now;
    let sampledBytes = written;
    const advance = (seconds: number) => {
      now += seconds;
      busy += seconds;
    };
    while (written < fileEnd) {
      const chunk = Math.min(delivery.chunkBytes, fileEnd - written);
      if (busy >= sliceEnd) {
        // A new slice, its allowance at the drive's rate now (an overdraft carried over).
        const rate = drive(written, now);
        startSlice(rate, Math.min(allowance, 0) + rate * delivery.sliceSeconds);
      } else if (delivery.chargeFall) {
        const rate = drive(written, now);
        if (rate < sliceRate) {
          const ahead = Math.max(0, sliceBytes - sliceRate * (busy - sliceStart));
          startSlice(rate, rate * delivery.sliceSeconds - ahead);
        }
      }
      if (allowance <= 0) {
        advance(sliceEnd - busy); // held until the next slice
        continue;
      }
      if (pauses > 0 && random() < pauses * (chunk / delivery.deviceRate))
        advance(between(random, 0.2, 2));
      advance((chunk / delivery.deviceRate) * Math.exp(0.1 * normal(random)));
      allowance -= chunk;
      sliceBytes += chunk;
      written += chunk;
      if (written - sampledBytes >= maxStep || now - sampledAt >= cadence || written === fileEnd) {
        out.t.push(now);
        out.bytes.push(written);
        out.file.push(index);
        sampledAt = now;
        sampledBytes = written;
      }
    }
    now += between(random, 0.005, 0.05); // flush and close
  }
  return out;
}

export function sustainedStream(options: StreamOptions): SampleStream {
  if (options.delivery) return burstyStream(options, options.delivery);
  const { random, totalBytes, drive } = options;
  const pauses = options.pausesPerSecond ?? 0;
  const noise = options.noise ?? 0.08;
  const stallChance = options.stallChance ?? 0.005;
  const cadence = options.cadenceSeconds ?? 0.25;
  const maxStep = options.maxSampleBytes ?? totalBytes / 1000;
  const out: SampleStream = { t: [], bytes: [], file: [], fileBytes: [] };
  let written = 0;
  let now = 0;
  for (let index = 0; written < totalBytes; index += 1) {
    now += between(random, 0.005, 0.04); // open
    const fileEnd = written + startFile(out, random, totalBytes, written, now, index);
    let first = true;
    while (written < fileEnd) {
      const step = Math.min(fileEnd - written, maxStep, drive(written, now) * cadence);
      let seconds = ideal(drive, written, now, step) * Math.exp(noise * normal(random));
      if (random() < stallChance) seconds *= between(random, 2, 6);
      if (pauses > 0 && random() < pauses * seconds) seconds += between(random, 0.2, 2);
      if (first) seconds += between(random, 0, 0.005); // the first write of a file waits a little
      first = false;
      now += seconds;
      written += step;
      out.t.push(now);
      out.bytes.push(written);
      out.file.push(index);
    }
    now += between(random, 0.005, 0.05); // flush and close
  }
  return out;
}

/**
 * Bytes over seconds of a stream inside [fromBytes, toBytes): what the drive sustained there, the
 * truth a detector's rate of that stretch is held to (a drive that stalls or holds writes moves
 * less than its nominal rate, and "what a drive sustains over a stretch is all its bytes over all
 * its seconds": issue 23).
 */
export function streamRate(
  stream: Pick<SampleStream, 't' | 'bytes' | 'file'>,
  fromBytes: number,
  toBytes: number,
): number {
  let bytes = 0;
  let seconds = 0;
  for (let i = 1; i < stream.t.length; i += 1) {
    if (stream.file[i] !== stream.file[i - 1]) continue;
    if (stream.bytes[i - 1]! < fromBytes || stream.bytes[i]! > toBytes) continue;
    bytes += stream.bytes[i]! - stream.bytes[i - 1]!;
    seconds += stream.t[i]! - stream.t[i - 1]!;
  }
  return bytes / seconds;
}

/**
 * `streamRate` for a bursty stream, over whole cycles: a stretch cut by bytes may end between a
 * burst and the hold that pays for it and read a hold fast. So it runs from the end of the first
 * hold (an interval of at least `holdSeconds`) after `fromBytes` (or from it, at the phase's start)
 * to the end of the last hold before `toBytes`.
 */
export function cycleRate(
  stream: SampleStream,
  fromBytes: number,
  toBytes: number,
  holdSeconds: number,
): number {
  const holdEnds: number[] = [];
  for (let i = 1; i < stream.t.length; i += 1)
    if (stream.file[i] === stream.file[i - 1] && stream.t[i]! - stream.t[i - 1]! >= holdSeconds)
      holdEnds.push(stream.bytes[i]!);
  const start = fromBytes <= 0 ? 0 : (holdEnds.find((b) => b >= fromBytes) ?? fromBytes);
  const end = holdEnds.findLast((b) => b <= toBytes && b > start) ?? toBytes;
  return streamRate(stream, start, end);
}

/** The per-file records of a stream (write phase), as the findings take them. */
export function fileRecords(stream: SampleStream): PhaseFile[] {
  return stream.fileBytes.map((bytes, index) => {
    const first = stream.file.indexOf(index);
    const last = stream.file.lastIndexOf(index);
    return {
      phase: 'write',
      bytes,
      seconds: stream.t[last]! - stream.t[first]!,
      cumulativeBytes: stream.bytes[last]!,
      t: stream.t[last]!,
    };
  });
}

/**
 * A base seed for a property test: PLUMB_TEST_SEED if set (to replay a failure), else a fresh one,
 * in CI too (the analysis holds for every honest draw: issue 13). Printed, and every failure
 * message carries it.
 */
export function baseSeed(): number {
  const given = process.env.PLUMB_TEST_SEED;
  const seed = given ? Number(given) : newSeed();
  console.log(`base seed ${seed} (PLUMB_TEST_SEED=${seed} replays it)`);
  return seed;
}

export { seededRandom };
