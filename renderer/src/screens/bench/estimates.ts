/**
 * How big and how long a plan will be on a volume, before it runs: bytes from the plan's own
 * kind (app/common/plan-kinds.ts, which the engine sizes its run with too), time from an earlier
 * run on the same volume or, failing that, a typical rate for its bus. The same free-space guard
 * as the engine (app/common/reserve) decides whether it fits.
 */
import type { ResultListItem, RunPace } from '../../../../app/contract/bench.js';
import type { Plan } from '../../../../app/contract/plan.js';
import type { RunRates } from '../../../../app/common/plan-kind.js';
import { planKindOf, scaledPlan, sizeRun } from '../../../../app/common/plan-kinds.js';
import { uiReserveBytes, writeAllowance } from '../../../../app/common/reserve.js';
import type { VolumeInfo } from '../../../../app/contract/volume.js';
import { mountOf } from '../../ui/volume-text.js';
import { aboutDuration } from '../../../../app/common/format.js';

const GB = 1e9;

export type VolumeFacts = Pick<
  VolumeInfo,
  'totalBytes' | 'availableBytes' | 'bus' | 'medium' | 'directIoAlignment' | 'fsType'
>;

export interface RateBasis extends RunRates {
  /** Where the rates come from, for the sentence under the estimate. */
  source: string;
  /** Typical rates for the bus, nothing measured on this volume yet: the time is a first guess. */
  guess?: boolean;
}

/**
 * Costs of a run beyond its bytes when the volume has no history, measured on an ext4 SSD
 * (virtio) with the standard plan at 1 %: 15 ms per written file, 2 ms per read file, 0.3 s per
 * run; rounded up, so a first estimate errs long.
 */
const typicalCosts = {
  writeFileSeconds: 0.015,
  readFileSeconds: 0.002,
  runSeconds: 0.5,
  // The grid at 1 % there: 8 runs of 0.25 s took 2.4 s (in the app) to 4 s (CLI) in all.
  queueRunSeconds: 0.1,
};

/** Typical uncached rates by bus, bytes/s: modest, so estimates err long rather than short. */
export function typicalRates(volume: Pick<VolumeInfo, 'bus' | 'medium'>): RateBasis {
  const bus = volume.bus?.toLowerCase() ?? '';
  const basis = (writeRate: number, readRate: number, source: string): RateBasis => ({
    writeRate,
    readRate,
    ...typicalCosts,
    source,
    guess: true,
  });
  if (volume.medium === 'hdd') return basis(0.15 * GB, 0.15 * GB, 'typical for a hard disk');
  if (bus.includes('nvme')) return basis(1.5 * GB, 2 * GB, 'typical for an NVMe SSD');
  if (bus.includes('thunderbolt')) return basis(1.5 * GB, 2 * GB, 'typical for a Thunderbolt SSD');
  if (bus.includes('usb')) return basis(0.4 * GB, 0.45 * GB, 'typical for a USB drive');
  if (bus.includes('sata')) return basis(0.45 * GB, 0.5 * GB, 'typical for a SATA SSD');
  return basis(0.5 * GB, 0.6 * GB, 'a cautious guess for an unknown disk');
}

export interface PlanOptions {
  scale: number;
  /** A cap on what a run that fills writes (sustained, capacity). */
  totalBytes?: number;
  reserveBytes?: number;
}

export interface PlanEstimate {
  /** Files the plan transfers, null when it runs until a limit. */
  files: number | null;
  writeBytes: number;
  readBytes: number;
  /** Most space the run holds at once. */
  spaceBytes: number;
  seconds: number;
  /** Space the guard lets the run use. */
  allowanceBytes: number;
  /** Free space the guard keeps. */
  reserveBytes: number;
  fits: boolean;
  /**
   * A sustained run's checks that its cache emptied, run only if it finds a cliff (so not in
   * `seconds`): each idles, then writes a probe. Null for plans without them.
   */
  recoveryChecks: { seconds: number; most: number } | null;
  /** What the run says before it starts about its sizes here (smaller recovery probes, or none). */
  recoveryNote: string | null;
  /** Timed from typical rates, nothing measured on this volume: said to be a first guess. */
  guess: boolean;
}

/**
 * The estimated time in words: "about 4.9 s", and for a first guess (no earlier run on the
 * volume) "about 4.9 s — a first guess; it improves as the run goes", or on a test card, where
 * room is short, "about 4.9 s (a first guess)".
 */
export function estimatedTime(
  estimate: Pick<PlanEstimate, 'seconds' | 'guess'>,
  room: 'sentence' | 'card' = 'sentence',
): string {
  const about = aboutDuration(estimate.seconds);
  if (!estimate.guess) return about;
  return room === 'card'
    ? `${about} (a first guess)`
    : `${about} — a first guess; it improves as the run goes`;
}

/** The plan (not yet scaled) sized on the volume as the engine will size it, and timed. */
export function estimatePlan(
  plan: Plan,
  options: PlanOptions,
  volume: VolumeFacts,
  rates: RateBasis,
): PlanEstimate {
  const reserve = uiReserveBytes(volume.totalBytes, options.reserveBytes);
  const allowanceBytes = writeAllowance(volume.availableBytes, reserve);
  const scaled = scaledPlan(plan, options.scale);
  const sized = sizeRun(scaled, {
    allowanceBytes,
    volumeBytes: volume.totalBytes,
    availableBytes: volume.availableBytes,
    scale: options.scale,
    totalBytes: options.totalBytes,
    verify: false,
  });
  const time = planKindOf(sized.plan).time(sized, rates);
  return {
    files: sized.files,
    writeBytes: sized.writeBytes,
    readBytes: sized.readBytes,
    spaceBytes: sized.spaceBytes,
    seconds: time.seconds,
    allowanceBytes,
    reserveBytes: reserve,
    fits: sized.fits,
    recoveryChecks: time.recoveryChecks,
    recoveryNote: sized.notes.length > 0 ? sized.notes.join(' ') : null,
    guess: rates.guess === true,
  };
}

/** Earlier runs whose pace is combined for an estimate: enough that one odd run does not set it. */
const paceRuns = 3;

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Rates and costs from the newest earlier runs on the same volume, when there are any: each the
 * median over up to three runs timed on the wall clock, so a run made while the disk was briefly
 * slower (or the app's first, its code still cold) does not set the next estimate alone. Runs of
 * `planName` come first: a file's fixed cost depends on its size (on this VM 7 ms for the
 * standard plan's mix, 9 ms for the sustained plan's 2–20 MB files), so another plan's runs are
 * used alone only when this one has none, and blended in when it has one.
 */
export function ratesFromHistory(
  history: readonly (Pick<ResultListItem, 'volumePath' | 'writeMedian' | 'readMedian' | 'pace'> &
    Partial<Pick<ResultListItem, 'plan'>>)[],
  mountPoint: string | null,
  mountPoints: readonly string[],
  fallback: RateBasis,
  planName?: string,
): RateBasis {
  if (!mountPoint) return fallback;
  const onVolume = history.filter((item) => mountOf(item.volumePath, mountPoints) === mountPoint);
  const queueRuns = onVolume
    .map((item) => item.pace?.queueRunSeconds)
    .filter((value): value is number => typeof value === 'number')
    .slice(0, paceRuns);
  const queueRunSeconds = queueRuns.length > 0 ? medianOf(queueRuns) : fallback.queueRunSeconds;
  const paced = onVolume.filter((item) => item.pace?.write);
  const samePlan = planName === undefined ? [] : paced.filter((item) => item.plan === planName);
  const others = paced.filter((item) => !samePlan.includes(item));
  const paceOf = (list: typeof paced) =>
    list.slice(0, paceRuns).map((item) => item.pace) as (RunPace & {
      write: NonNullable<RunPace['write']>;
    })[];
  // A plan that only writes (sustained) takes the volume's reads from the runs that read.
  const readsOf = (list: readonly (RunPace | null | undefined)[]) =>
    list
      .map((pace) => pace?.read ?? null)
      .filter((read) => read !== null)
      .slice(0, paceRuns);
  const figuresOf = (paces: ReturnType<typeof paceOf>) => {
    const ownReads = readsOf(paces);
    const reads = ownReads.length > 0 ? ownReads : readsOf(paced.map((item) => item.pace));
    return {
      writeRate: medianOf(paces.map((pace) => pace.write.bytesPerSecond)),
      readRate:
        reads.length > 0 ? medianOf(reads.map((read) => read.bytesPerSecond)) : fallback.readRate,
      writeFileSeconds: medianOf(paces.map((pace) => pace.write.fileSeconds)),
      readFileSeconds:
        reads.length > 0
          ? medianOf(reads.map((read) => read.fileSeconds))
          : fallback.readFileSeconds,
      runSeconds: medianOf(paces.map((pace) => pace.runSeconds)),
    };
  };
  // One run of this test is one sample: made while the machine was busy, it would set the next
  // estimate alone (52 % off in CI). Then each figure is the mean of that run's and the median
  // of the other tests' newest runs here: an odd run counts half, and a test's own file costs
  // (7 ms a file for the standard mix, 9 ms for the sustained plan's) still count.
  if (samePlan.length === 1 && others.length > 0) {
    const own = figuresOf(paceOf(samePlan));
    const rest = figuresOf(paceOf(others));
    const mean = (key: keyof typeof own) => (own[key] + rest[key]) / 2;
    const count = Math.min(others.length, paceRuns);
    return {
      writeRate: mean('writeRate'),
      readRate: mean('readRate'),
      writeFileSeconds: mean('writeFileSeconds'),
      readFileSeconds: mean('readFileSeconds'),
      runSeconds: mean('runSeconds'),
      queueRunSeconds,
      source: `from your last run of this test and ${count === 1 ? 'one other run' : `${count} other runs`} on this volume`,
    };
  }
  const paces = paceOf(samePlan.length > 0 ? samePlan : paced);
  const ofThisTest = samePlan.length > 0 ? ' of this test' : '';
  if (paces.length > 0) {
    return {
      ...figuresOf(paces),
      queueRunSeconds,
      source:
        paces.length === 1
          ? `from your last run${ofThisTest} on this volume`
          : `from your last ${paces.length} runs${ofThisTest} on this volume`,
    };
  }
  const same = onVolume.find((item) => item.writeMedian !== null);
  if (!same)
    return queueRunSeconds === fallback.queueRunSeconds
      ? fallback
      : { ...fallback, queueRunSeconds };
  return {
    ...fallback,
    queueRunSeconds,
    writeRate: same.writeMedian!,
    readRate: same.readMedian ?? same.writeMedian!,
    source: 'from your last run on this volume',
  };
}
