/**
 * How big and how long a plan will be on a volume, before it runs: bytes from the plan itself,
 * time from an earlier run on the same volume or, failing that, a typical rate for its bus.
 * The same free-space guard as the engine (app/common/reserve) decides whether it fits.
 */
import type { Plan, ResultListItem, RunPace } from '../../../../app/contract/bench.js';
import { uiReserveBytes } from '../../../../app/common/reserve.js';
import {
  cacheGuessBytes,
  capacityFillBytes,
  capacityMinimumBytes,
  recoveryProbeSize,
  sustainedDefaultTotal,
  toBlocks,
} from '../../../../app/common/run-sizes.js';
import type { VolumeInfo } from '../../../../app/contract/volume.js';

export { toBlocks };

const GB = 1e9;

export type VolumeFacts = Pick<
  VolumeInfo,
  'totalBytes' | 'availableBytes' | 'bus' | 'medium' | 'directIoAlignment' | 'fsType'
>;

export interface RateBasis {
  writeRate: number;
  readRate: number;
  /** Wall seconds each file costs beyond its bytes (open, flush, close, making the data). */
  writeFileSeconds: number;
  readFileSeconds: number;
  /** Seconds a run spends outside its phases (setting up, analysing, saving). */
  runSeconds: number;
  /** Wall seconds each run of the grid costs beyond its set duration (setup spread over runs). */
  queueRunSeconds: number;
  /** Where the rates come from, for the sentence under the estimate. */
  source: string;
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
  /** A cap on a sustained run's total. */
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
  /** Why the recovery probes are smaller than the plan's, or not run, on this volume. */
  recoveryNote: string | null;
}

function logUniformTotal(count: number, minBytes: number, maxBytes: number): number {
  if (count === 1) return toBlocks(minBytes);
  const ratio = Math.log(maxBytes / minBytes) / (count - 1);
  let total = 0;
  for (let i = 0; i < count; i += 1) total += toBlocks(minBytes * Math.exp(ratio * i));
  return total;
}

export function estimatePlan(
  plan: Plan,
  options: PlanOptions,
  volume: VolumeFacts,
  rates: RateBasis,
): PlanEstimate {
  const scale = options.scale;
  const reserve = uiReserveBytes(volume.totalBytes, options.reserveBytes);
  const allowanceBytes = Math.max(0, volume.availableBytes - reserve);
  const size = (bytes: number) => (scale === 1 ? bytes : toBlocks(bytes * scale));
  switch (plan.kind) {
    case 'files': {
      const base = plan.sizes
        ? plan.sizes.reduce((sum, b) => sum + size(b), 0)
        : logUniformTotal(
            plan.logUniform!.count,
            size(plan.logUniform!.minBytes),
            size(plan.logUniform!.maxBytes),
          );
      const count = (plan.sizes?.length ?? plan.logUniform!.count) * plan.repeats;
      const writeBytes = base * plan.repeats;
      const readBytes = plan.readBack ? writeBytes : 0;
      return {
        files: plan.readBack ? 2 * count : count,
        writeBytes,
        readBytes,
        spaceBytes: writeBytes,
        seconds:
          rates.runSeconds +
          count * rates.writeFileSeconds +
          writeBytes / rates.writeRate +
          (plan.readBack ? count * rates.readFileSeconds + readBytes / rates.readRate : 0),
        allowanceBytes,
        reserveBytes: reserve,
        fits: writeBytes <= allowanceBytes,
        recoveryChecks: null,
        recoveryNote: null,
      };
    }
    case 'sustained': {
      const cacheGuess = cacheGuessBytes(volume.totalBytes, volume.availableBytes);
      const total =
        options.totalBytes ??
        (plan.totalBytes !== null
          ? size(plan.totalBytes)
          : sustainedDefaultTotal(allowanceBytes, cacheGuess, scale));
      // Files are drawn log-uniformly between the two sizes; their mean gives their number.
      const smallest = size(plan.minFileBytes);
      const largest = size(plan.maxFileBytes);
      const meanFile =
        largest > smallest ? (largest - smallest) / Math.log(largest / smallest) : largest;
      // The recovery probes run only after a cliff, so they are not counted in advance; they are
      // sized to the space that may be used, as the engine sizes them.
      const probe = plan.recovery
        ? recoveryProbeSize(size(plan.recovery.probeBytes), allowanceBytes, smallest)
        : null;
      return {
        files: null,
        writeBytes: total,
        readBytes: 0,
        spaceBytes: Math.min(total, allowanceBytes),
        seconds:
          rates.runSeconds +
          Math.ceil(total / meanFile) * rates.writeFileSeconds +
          total / rates.writeRate,
        allowanceBytes,
        reserveBytes: reserve,
        fits: allowanceBytes >= Math.min(total, size(plan.maxFileBytes)) && total > 0,
        recoveryChecks:
          plan.recovery && probe?.probeBytes
            ? {
                seconds:
                  plan.recovery.idleSeconds +
                  rates.writeFileSeconds +
                  probe.probeBytes / rates.writeRate,
                most: plan.recovery.maxProbes,
              }
            : null,
        recoveryNote: probe?.note ?? null,
      };
    }
    case 'capacity': {
      // All of the allowance (or the cap), written, then read back and checked block by block.
      const fill = capacityFillBytes(
        allowanceBytes,
        options.totalBytes ?? (plan.totalBytes === null ? null : size(plan.totalBytes)),
        scale,
      );
      const count = Math.ceil(fill / size(plan.fileBytes));
      return {
        files: 2 * count,
        writeBytes: fill,
        readBytes: fill,
        spaceBytes: Math.max(fill, capacityMinimumBytes),
        seconds:
          rates.runSeconds +
          count * (rates.writeFileSeconds + rates.readFileSeconds) +
          fill / rates.writeRate +
          fill / rates.readRate,
        allowanceBytes,
        reserveBytes: reserve,
        fits: fill >= capacityMinimumBytes,
        recoveryChecks: null,
        recoveryNote: null,
      };
    }
    case 'presets': {
      const fileBytes = size(plan.fileBytes);
      const duration =
        scale === 1 ? plan.durationSeconds : Math.max(0.25, plan.durationSeconds * scale);
      return {
        files: null,
        writeBytes: fileBytes,
        readBytes: 0,
        spaceBytes: fileBytes,
        // The grid's own setup (its file, written first) is in the per-run cost measured.
        seconds: plan.runs.length * (duration + rates.queueRunSeconds),
        allowanceBytes,
        reserveBytes: reserve,
        fits: fileBytes <= allowanceBytes,
        recoveryChecks: null,
        recoveryNote: null,
      };
    }
    case 'paired': {
      // This folder's share: its files alone, then together in each pairing it writes or reads in.
      const stage = plan.filesPerStage * size(plan.fileBytes);
      const writes = plan.direction === 'both' ? 3 : 2;
      const reads = plan.direction === 'opposite' ? 0 : 2;
      return {
        files: null,
        writeBytes: writes * stage,
        readBytes: reads * stage,
        spaceBytes: 2 * stage,
        seconds:
          rates.runSeconds +
          2 *
            plan.filesPerStage *
            (writes * rates.writeFileSeconds + reads * rates.readFileSeconds) +
          (2 * writes * stage) / rates.writeRate +
          (2 * reads * stage) / rates.readRate,
        allowanceBytes,
        reserveBytes: reserve,
        fits: 2 * stage <= allowanceBytes,
        recoveryChecks: null,
        recoveryNote: null,
      };
    }
    case 'task': {
      // A write of the input size, the input itself, and per repeat an uncached read, the task's
      // read and its output (at most the input); compression time is not known in advance.
      const input = size(plan.inputBytes);
      return {
        files: null,
        writeBytes: (2 + plan.repeats) * input,
        readBytes: 2 * plan.repeats * input,
        spaceBytes: 2 * input,
        seconds:
          rates.runSeconds +
          ((2 + plan.repeats) * input) / rates.writeRate +
          (2 * plan.repeats * input) / rates.readRate,
        allowanceBytes,
        reserveBytes: reserve,
        fits: 2 * input <= allowanceBytes,
        recoveryChecks: null,
        recoveryNote: null,
      };
    }
  }
}

/** The mount point (of `mountPoints`) that holds `path`: the longest one it lies under. */
export function mountOf(path: string, mountPoints: readonly string[]): string | null {
  let best: string | null = null;
  for (const mount of mountPoints) {
    const prefix = /[/\\]$/.test(mount) ? mount : `${mount}/`;
    const under = path === mount || path.startsWith(prefix);
    if (under && (best === null || mount.length > best.length)) best = mount;
  }
  return best;
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
 * used only when this one has none.
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
  const paces = (samePlan.length > 0 ? samePlan : paced)
    .slice(0, paceRuns)
    .map((item) => item.pace) as (RunPace & { write: NonNullable<RunPace['write']> })[];
  const ofThisTest = samePlan.length > 0 ? ' of this test' : '';
  if (paces.length > 0) {
    // A plan that only writes (sustained) takes the volume's reads from the runs that read.
    const readsOf = (list: readonly (RunPace | null | undefined)[]) =>
      list
        .map((pace) => pace?.read ?? null)
        .filter((read) => read !== null)
        .slice(0, paceRuns);
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
