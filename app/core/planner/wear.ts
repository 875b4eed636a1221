/**
 * Wear life from rated endurance: years until the TBW is written at a steady daily write load.
 * Makers that publish no TBW (Apple) get a proxy in proportion to capacity.
 */
import type { PlannerRules } from '../../contract/planner.js';

const daysPerYear = 365;
const terabyte = 1e12;

/** Endurance in bytes: the rated TBW, or the proxy TB-written-per-TB times the capacity. */
export function enduranceBytes(
  tbwBytes: number | null,
  capacityBytes: number,
  rules: Pick<PlannerRules, 'tbwPerCapacityProxy'>,
): { bytes: number; assumed: boolean } {
  if (tbwBytes !== null) return { bytes: tbwBytes, assumed: false };
  return {
    bytes: rules.tbwPerCapacityProxy.value * terabyte * (capacityBytes / terabyte),
    assumed: true,
  };
}

/** Years until `enduranceBytes` are written at `dailyWriteBytes`; null when nothing is written. */
export function wearLifeYears(enduranceBytes: number, dailyWriteBytes: number): number | null {
  if (dailyWriteBytes <= 0) return null;
  return enduranceBytes / (dailyWriteBytes * daysPerYear);
}
