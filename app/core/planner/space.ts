/**
 * Free space over the years against the rules of seed 000: keep at least 20 % and never under
 * 50 GB free on the boot disk (100 GB is comfortable); other SSDs stay healthy with 20 % free.
 */
import type { PlannerRules } from '../../contract/planner.js';

export type SpaceStatus = 'comfortable' | 'ok' | 'below-minimum' | 'full';

export interface SpaceYear {
  year: number;
  usedBytes: number;
  freeBytes: number;
  status: SpaceStatus;
}

export type SpaceRules = Pick<
  PlannerRules,
  'bootMinFreeFraction' | 'bootMinFreeBytes' | 'bootComfortableFreeBytes' | 'healthyMinFreeFraction'
>;

/** How a disk of `capacityBytes` with `freeBytes` free stands against the rules. */
export function spaceStatus(
  capacityBytes: number,
  freeBytes: number,
  isBootDisk: boolean,
  rules: SpaceRules,
): SpaceStatus {
  if (freeBytes <= 0) return 'full';
  if (isBootDisk) {
    const minimum = Math.max(
      rules.bootMinFreeFraction.value * capacityBytes,
      rules.bootMinFreeBytes.value,
    );
    if (freeBytes < minimum) return 'below-minimum';
    return freeBytes >= Math.max(minimum, rules.bootComfortableFreeBytes.value)
      ? 'comfortable'
      : 'ok';
  }
  return freeBytes < rules.healthyMinFreeFraction.value * capacityBytes
    ? 'below-minimum'
    : 'comfortable';
}

/** Used and free space at the start and the end of each year, growing linearly. */
export function spaceOverYears(options: {
  capacityBytes: number;
  usedBytes: number;
  growthBytesPerYear: number;
  years: number;
  isBootDisk: boolean;
  rules: SpaceRules;
}): SpaceYear[] {
  const result: SpaceYear[] = [];
  for (let year = 0; year <= options.years; year += 1) {
    const usedBytes = options.usedBytes + options.growthBytesPerYear * year;
    const freeBytes = options.capacityBytes - usedBytes;
    result.push({
      year,
      usedBytes,
      freeBytes,
      status: spaceStatus(options.capacityBytes, freeBytes, options.isBootDisk, options.rules),
    });
  }
  return result;
}

/** The first year a disk falls below its minimum, or null if it never does. */
export function firstShortYear(years: readonly SpaceYear[]): number | null {
  return years.find((y) => y.status === 'below-minimum' || y.status === 'full')?.year ?? null;
}
