/**
 * What to tell the user before Start: a test that does not fit (with what would), a large write,
 * no uncached I/O, buffered mode.
 */
import { reserveBytes, reserveFloor } from '../../../../app/common/reserve.js';
import type { Plan } from '../../../../app/contract/plan.js';
import {
  estimatePlan,
  type PlanEstimate,
  type PlanOptions,
  type RateBasis,
  type VolumeFacts,
} from './estimates.js';

export type WarningLevel = 'caution' | 'danger';

export interface TargetWarning {
  level: WarningLevel;
  message: string;
  /** A reserve that would let the refused test run: offered as one click. */
  keepFreeBytes?: number;
}

/** A run that writes this much is one to confirm first. */
export const largeWriteBytes = 20e9;

/** What would let a plan that does not fit run: a smaller scale offered, or a smaller reserve. */
export interface FitAdvice {
  /** The largest of the offered scales (below the chosen one) at which the plan fits. */
  scale: number | null;
  /** The most free space the run could keep and still fit, when the floor allows it. */
  reserveBytes: number | null;
}

export function whatFits(
  plan: Plan,
  options: PlanOptions,
  volume: VolumeFacts,
  rates: RateBasis,
  offeredScales: readonly number[],
): FitAdvice {
  const smaller = [...offeredScales].filter((s) => s < options.scale).sort((a, b) => b - a);
  const scale =
    smaller.find((s) => estimatePlan(plan, { ...options, scale: s }, volume, rates).fits) ?? null;
  const needed = estimatePlan(plan, options, volume, rates).spaceBytes;
  // Rounded down to 10 MB so the figure shown, typed back in, still fits.
  const room = Math.floor((volume.availableBytes - needed) / 1e7) * 1e7;
  const floor = reserveBytes(volume.totalBytes, reserveFloor);
  return { scale, reserveBytes: room >= floor ? room : null };
}

/** What a user should know before starting: big writes, no uncached I/O, not enough room. */
export function targetWarnings(
  estimate: PlanEstimate,
  volume: VolumeFacts,
  buffered: boolean,
  formatBytes: (bytes: number) => string,
  advice: FitAdvice = { scale: null, reserveBytes: null },
  scaleName: (scale: number) => string = String,
): TargetWarning[] {
  const warnings: TargetWarning[] = [];
  if (!estimate.fits) {
    const ways = [
      advice.scale !== null ? `choose the scale “${scaleName(advice.scale)}”` : null,
      advice.reserveBytes !== null
        ? `set “Keep free on the disk” to ${formatBytes(advice.reserveBytes)} or less (under Advanced)`
        : null,
      'free space on this disk, or pick another disk',
    ].filter((w): w is string => w !== null);
    warnings.push({
      level: 'danger',
      ...(advice.reserveBytes !== null ? { keepFreeBytes: advice.reserveBytes } : {}),
      message: `Not enough free space: this test needs ${formatBytes(estimate.spaceBytes)}, and Plumb keeps ${formatBytes(estimate.reserveBytes)} free here, which leaves ${formatBytes(estimate.allowanceBytes)}. To run it: ${ways.join('; or ')}.`,
    });
  }
  if (estimate.writeBytes >= largeWriteBytes) {
    warnings.push({
      level: 'caution',
      message: `This test writes ${formatBytes(estimate.writeBytes)}. SSDs wear with writing; a run this size is fine now and then, not every day.`,
    });
  }
  const noDirectIo = volume.directIoAlignment === null || volume.fsType === 'tmpfs';
  if (!buffered && noDirectIo) {
    warnings.push({
      level: 'caution',
      message: `${volume.fsType ?? 'This file system'} does not offer uncached (direct) I/O here, so Plumb will write through the system cache with flushes and mark the result "buffered": figures may be higher than the drive can sustain.`,
    });
  }
  if (buffered) {
    warnings.push({
      level: 'caution',
      message:
        'Buffered mode measures the system cache as well as the drive: use it only to compare with tools that do the same.',
    });
  }
  return warnings;
}
