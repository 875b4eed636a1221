/**
 * Sample streams as a sustained run would record them, for the analysis tests: the built-in
 * `sustained` plan's files (log-uniform 200 MB–2 GB, the last one taking the remainder) up to a
 * total sized like the plan's default, timed on a model drive whose rate may depend on the bytes
 * written (a cache) or on the time (heat), sampled about 4 times a second and never coarser than
 * 1/1000 of the planned bytes, with noise, stalls, a little wait at the start of each file and a gap to
 * open and close each file.
 */
import { builtinPlan } from '../../app/core/bench/builtin-plans.js';
import { randomLogUniformSize, sizeQuantum } from '../../app/core/bench/file-sizes.js';
import { sustainedTotal } from '../../app/core/bench/phases.js';
import { newSeed, seededRandom } from '../../app/core/bench/seeded-random.js';
import { cacheGuessBytes, reserveBytes, writeAllowance } from '../../app/core/bench/space-guard.js';
import type { SustainedPlan } from '../../app/contract/bench.js';
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

export function sustainedStream(options: StreamOptions): SampleStream {
  const { random, totalBytes, drive } = options;
  const noise = options.noise ?? 0.08;
  const stallChance = options.stallChance ?? 0.005;
  const cadence = options.cadenceSeconds ?? 0.25;
  const maxStep = options.maxSampleBytes ?? totalBytes / 1000;
  const out: SampleStream = { t: [], bytes: [], file: [], fileBytes: [] };
  let written = 0;
  let now = 0;
  for (let index = 0; written < totalBytes; index += 1) {
    const remaining = totalBytes - written;
    let size = randomLogUniformSize(random, sustainedPlan.minFileBytes, sustainedPlan.maxFileBytes);
    if (remaining - size < sustainedPlan.minFileBytes)
      size = Math.ceil(remaining / sizeQuantum) * sizeQuantum;
    out.fileBytes.push(size);
    now += between(random, 0.005, 0.04); // open
    const fileEnd = written + size;
    out.t.push(now);
    out.bytes.push(written);
    out.file.push(index);
    let first = true;
    while (written < fileEnd) {
      const step = Math.min(fileEnd - written, maxStep, drive(written, now) * cadence);
      let seconds = ideal(drive, written, now, step) * Math.exp(noise * normal(random));
      if (random() < stallChance) seconds *= between(random, 2, 6);
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
