/**
 * How much a run writes, decided before it starts: the engine runs these sizes and the UI shows
 * them in its estimate, so both say the same before Start. Pure: imports only the formatter.
 */
import { formatBytes } from './format.js';

/** Sizes are whole 4 KiB blocks so direct I/O never needs a partial block. */
export const sizeQuantum = 4096;

/** `bytes` rounded to the nearest whole block, at least one block. */
export function toBlocks(bytes: number): number {
  return Math.max(sizeQuantum, Math.round(bytes / sizeQuantum) * sizeQuantum);
}

/**
 * `count` sizes evenly spaced on a log scale from `minBytes` to `maxBytes` inclusive (each the
 * previous times a constant ratio), rounded to whole blocks.
 */
export function logUniformSizes(count: number, minBytes: number, maxBytes: number): number[] {
  if (count === 1) return [toBlocks(minBytes)];
  const ratio = Math.log(maxBytes / minBytes) / (count - 1);
  return Array.from({ length: count }, (_, i) => toBlocks(minBytes * Math.exp(ratio * i)));
}

/** A size drawn log-uniformly between the bounds (`random` in [0, 1)), rounded to whole blocks. */
export function randomLogUniformSize(
  random: () => number,
  minBytes: number,
  maxBytes: number,
): number {
  return toBlocks(minBytes * Math.exp(random() * Math.log(maxBytes / minBytes)));
}

/** `bytes` rounded down to whole blocks (never negative): a size that must fit. */
export function blocksWithin(bytes: number): number {
  return Math.max(0, Math.floor(bytes / sizeQuantum) * sizeQuantum);
}

/**
 * A guess of a drive's SLC write cache for sizing a sustained run: dynamic caches are at most
 * about a third of the free space (TLC), and reviews put them at up to about a tenth of capacity
 * (storage-facts.md); the smaller of the two.
 */
export function cacheGuessBytes(volumeBytes: number, availableBytes: number): number {
  return Math.min(availableBytes / 3, volumeBytes * 0.1);
}

/**
 * The total a sustained run writes unless told: the smaller of the allowance and 4 × the cache
 * guess, in whole blocks (its last file is rounded up to one, so the total must not be past the
 * allowance), shrunk by `scale` like every other size of the plan.
 */
export function sustainedDefaultTotal(
  allowanceBytes: number,
  cacheGuess: number,
  scale = 1,
): number {
  const automatic = blocksWithin(Math.min(allowanceBytes, 4 * cacheGuess));
  return scale === 1 ? automatic : toBlocks(automatic * scale);
}

/**
 * The bytes a capacity check fills: the whole allowance (shrunk by `scale` for a quick run), or
 * the cap asked for, never more than the allowance (it cannot rotate files out: each is checked).
 */
export function capacityFillBytes(
  allowanceBytes: number,
  capBytes: number | null | undefined,
  scale = 1,
): number {
  const wanted = capBytes ?? (scale === 1 ? allowanceBytes : allowanceBytes * scale);
  return blocksWithin(Math.min(wanted, allowanceBytes));
}

/** A capacity check with less room than this has nothing worth checking: it is refused. */
export const capacityMinimumBytes = 2 ** 20;

/**
 * Room a probe leaves for what the file system spends beside the data (its extents, the
 * directory): the probe is written once the run's own files are removed, into the same allowance.
 */
const probeSlack = (allowanceBytes: number) => Math.max(4 * 2 ** 20, allowanceBytes / 100);

/** The recovery probes of a sustained run as they will run on this volume. */
export type RecoveryProbeSize =
  { probeBytes: number; note: string | null } | { probeBytes: null; note: string };

/**
 * The recovery probe sized to what may be written here: the plan's when it fits, else as much as
 * fits (it then shows whether that much writes fast again), or none when less than the plan's
 * smallest file would fit (a rate over less means little). `note` says why, for the plan line and
 * the estimate, before Start.
 */
export function recoveryProbeSize(
  plannedBytes: number,
  allowanceBytes: number,
  minimumBytes: number,
): RecoveryProbeSize {
  const fits = blocksWithin(allowanceBytes - probeSlack(allowanceBytes));
  if (fits >= plannedBytes) return { probeBytes: plannedBytes, note: null };
  if (fits >= minimumBytes)
    return {
      probeBytes: fits,
      note: `Recovery probes of ${formatBytes(fits)} instead of ${formatBytes(plannedBytes)}: that is what fits in the ${formatBytes(allowanceBytes)} that may be written here, so they show whether that much writes fast again.`,
    };
  return {
    probeBytes: null,
    note: `The recovery is not timed: a probe needs at least ${formatBytes(minimumBytes)}, and only ${formatBytes(Math.max(0, allowanceBytes))} may be written here.`,
  };
}
