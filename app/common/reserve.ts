/**
 * The free-space guard's policy: how much a benchmark must leave free on a volume. Shared by the
 * engine (which enforces it) and the UI (which says before Start whether a plan fits).
 */

export interface ReservePolicy {
  /** Share of the volume to keep free. */
  fraction: number;
  /** Bytes to keep free at least. */
  minBytes: number;
}

/**
 * The default: the larger of 10 % of the volume and 1 GB. The 10 % keeps a big SSD's spare area
 * for its own cache; 1 GB (not the earlier 20 GB) lets an 8 GB SD card or a 16 GB stick be tested.
 */
export const defaultReserve: ReservePolicy = { fraction: 0.1, minBytes: 1e9 };

/**
 * The least a run started from a page or window may leave free, whatever it asks: the larger of
 * 1 % of the volume and 256 MB, so a system volume is never filled from the UI.
 */
export const reserveFloor: ReservePolicy = { fraction: 0.01, minBytes: 256e6 };

/** Free space a run must leave: the larger of `fraction` of the volume and `minBytes`. */
export function reserveBytes(volumeBytes: number, policy: ReservePolicy = defaultReserve): number {
  return Math.max(policy.fraction * volumeBytes, policy.minBytes);
}

/** Bytes a run may still write without crossing the reserve (never negative). */
export function writeAllowance(availableBytes: number, reserve: number): number {
  return Math.max(0, availableBytes - reserve);
}

/**
 * The reserve a run from the UI keeps: the default, or the user's figure when set, but never less
 * than the floor.
 */
export function uiReserveBytes(volumeBytes: number, requestedBytes?: number): number {
  const floor = reserveBytes(volumeBytes, reserveFloor);
  return Math.max(floor, requestedBytes ?? reserveBytes(volumeBytes));
}

/** The policy in words, for refusals: "the larger of 10 % of the volume and 1 GB". */
export const defaultReserveText = 'the larger of 10 % of the volume and 1 GB';
