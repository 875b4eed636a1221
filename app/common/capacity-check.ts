/**
 * The capacity check (`--verify`: every file read back, every 4 KiB block's stamp checked) in a
 * few words, for the places that list runs rather than show one: the results list (UI and CLI)
 * and the compare view. A failed check is the most important thing to know about a drive, so it
 * is named wherever the run is; and, where one run is shown (the CLI summary, the result page,
 * the PDF), how many bytes the check proved. Pure: imports only the shared formatting.
 */

import { formatBytes } from './format.js';

export type CapacityVerdict = 'passed' | 'failed';

/** "Capacity check failed" / "Capacity checked", or null for a run that did not check. */
export function capacityCheckLabel(verdict: CapacityVerdict | null | undefined): string | null {
  if (verdict === 'failed') return 'Capacity check failed';
  if (verdict === 'passed') return 'Capacity checked';
  return null;
}

/** What a check proved or disproved, in one line ("Capacity checked: 4.70 GB written and read back intact"). */
export function capacityCheckSentence(section: {
  verdict: CapacityVerdict;
  bytesChecked: number;
  badBytes: number;
  filesNotChecked: number;
}): string {
  if (section.verdict === 'failed')
    return `Capacity check failed: ${formatBytes(section.badBytes)} of ${formatBytes(section.bytesChecked)} read back wrong`;
  const unchecked =
    section.filesNotChecked > 0
      ? ` (${section.filesNotChecked} ${section.filesNotChecked === 1 ? 'file' : 'files'} rotated out during the run not checked)`
      : '';
  return `Capacity checked: ${formatBytes(section.bytesChecked)} written and read back intact${unchecked}`;
}
