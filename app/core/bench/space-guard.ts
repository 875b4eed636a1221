import { formatBytes } from '../../common/format.js';

/** What to do about a refusal, in words that fit every front end (the CLI adds its flags). */
export const guardAdvice =
  'choose a smaller run (a lower scale, or less to write in all) or a folder on a volume with more free space.';

export interface ReservePolicy {
  /** Share of the volume to keep free (default 0.1). */
  fraction: number;
  /** Bytes to keep free at least (default 20 GB). */
  minBytes: number;
}

export const defaultReserve: ReservePolicy = { fraction: 0.1, minBytes: 20e9 };

/** Free space a run must leave: the larger of `fraction` of the volume and `minBytes`. */
export function reserveBytes(volumeBytes: number, policy: ReservePolicy = defaultReserve): number {
  return Math.max(policy.fraction * volumeBytes, policy.minBytes);
}

/** Bytes a run may still write without crossing the reserve (never negative). */
export function writeAllowance(availableBytes: number, reserve: number): number {
  return Math.max(0, availableBytes - reserve);
}

/**
 * A guess of a drive's SLC write cache for sizing a sustained run: dynamic caches are at most
 * about a third of the free space (TLC), and reviews put them at up to about a tenth of capacity
 * (storage-facts.md); the smaller of the two.
 */
export function cacheGuessBytes(volumeBytes: number, availableBytes: number): number {
  return Math.min(availableBytes / 3, volumeBytes * 0.1);
}

/** The sentence for a run stopped or refused by the guard. */
export function guardMessage(neededBytes: number, availableBytes: number, reserve: number): string {
  return (
    `Not enough free space: writing ${formatBytes(neededBytes)} would leave less than ` +
    `${formatBytes(reserve)} free (${formatBytes(availableBytes)} is free now). The guard keeps the ` +
    `larger of 10 % of the volume and 20 GB free; ${guardAdvice}`
  );
}
