/**
 * The capacity check (`--verify`: every file read back, every 4 KiB block's stamp checked) in a
 * few words, for the places that list runs rather than show one: the results list (UI and CLI)
 * and the compare view. A failed check is the most important thing to know about a drive, so it
 * is named wherever the run is. Pure: imports nothing.
 */

export type CapacityVerdict = 'passed' | 'failed';

/** "Capacity check failed" / "Capacity checked", or null for a run that did not check. */
export function capacityCheckLabel(verdict: CapacityVerdict | null | undefined): string | null {
  if (verdict === 'failed') return 'Capacity check failed';
  if (verdict === 'passed') return 'Capacity checked';
  return null;
}
