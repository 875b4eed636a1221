import { formatBytes } from '../../common/format.js';
import {
  defaultReserveText,
  reserveBytes,
  reserveFloor,
  writeAllowance,
} from '../../common/reserve.js';

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
  return Number(roundedDownText(value));
}

/** roundDown's figure as a person writes it: "0.0011", not 0.0010999999999999998. */
function roundedDownText(value: number): string {
  if (value <= 0) return '0';
  const exponent = Math.floor(Math.log10(value)) - 1;
  const digits = Math.floor(value / 10 ** exponent);
  return (digits * 10 ** exponent).toFixed(Math.max(0, -exponent));
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
    const smaller = roundedDownText((scale * allowance) / neededBytes);
    if (Number(smaller) > 0) ways.push(`a scale of ${smaller} or less`);
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
  const then = 'Free some space or choose a smaller run, then try again.';
  if (reserve <= 0) {
    // The reserve was set to nothing: the default is not what stopped it, the disk itself was.
    return (
      `Stopped before the disk filled up: writing ${formatBytes(neededBytes)} more does not fit ` +
      `in the ${formatBytes(availableBytes)} free now (no free space was to be kept). ${then}`
    );
  }
  return (
    `Stopped before the disk filled up: writing ${formatBytes(neededBytes)} more would leave less ` +
    `than ${formatBytes(reserve)} free (${formatBytes(availableBytes)} is free now; by default ` +
    `Plumb keeps ${defaultReserveText} free). ${then}`
  );
}
