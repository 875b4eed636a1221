import { formatBytes } from '../../common/format.js';
import {
  defaultReserve,
  defaultReserveText,
  reserveBytes,
  reserveFloor,
  type ReservePolicy,
} from '../../common/reserve.js';

export { defaultReserve, reserveBytes, type ReservePolicy };

/** Bytes a run may still write without crossing the reserve (never negative). */
export function writeAllowance(availableBytes: number, reserve: number): number {
  return Math.max(0, availableBytes - reserve);
}

export { cacheGuessBytes } from '../../common/run-sizes.js';

/** Why a run does not fit, with what is needed to say what would. */
export interface Shortfall {
  neededBytes: number;
  availableBytes: number;
  reserveBytes: number;
  volumeBytes: number;
  /** The scale the run was asked at; its bytes grow about in proportion. */
  scale?: number;
}

/** `value` rounded down to two significant figures, so a suggestion is never just too big. */
function roundDown(value: number): number {
  if (value <= 0) return 0;
  const step = 10 ** (Math.floor(Math.log10(value)) - 1);
  return Math.floor(value / step) * step;
}

/**
 * What would make a refused run fit, in words every front end can use: a smaller scale, a smaller
 * reserve (never below the floor), or more free space. The CLI adds its flag names.
 */
export function whatWouldWork(shortfall: Shortfall): string {
  const { neededBytes, availableBytes, reserveBytes: reserve, volumeBytes, scale } = shortfall;
  const allowance = writeAllowance(availableBytes, reserve);
  const ways: string[] = [];
  if (scale !== undefined && allowance > 0) {
    const smaller = roundDown((scale * allowance) / neededBytes);
    if (smaller > 0) ways.push(`a scale of ${smaller} or less`);
  }
  const room = roundDown(availableBytes - neededBytes);
  // With nothing allowed there is no scale to suggest: any run would cross the reserve.
  if (room >= reserveBytes(volumeBytes, reserveFloor))
    ways.push(`keeping ${formatBytes(room)} free instead of ${formatBytes(reserve)}`);
  const short = neededBytes + reserve - availableBytes;
  ways.push(`freeing ${formatBytes(short)} on this volume, or another volume`);
  return `Plumb keeps ${formatBytes(reserve)} free here. What would work: ${ways.join('; ')}.`;
}

/** The sentence for a run stopped part way by the guard. */
export function guardMessage(neededBytes: number, availableBytes: number, reserve: number): string {
  return (
    `Stopped before the disk filled up: writing ${formatBytes(neededBytes)} more would leave less ` +
    `than ${formatBytes(reserve)} free (${formatBytes(availableBytes)} is free now; by default ` +
    `Plumb keeps ${defaultReserveText} free). Free some space or choose a smaller run, then try again.`
  );
}
