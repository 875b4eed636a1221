/**
 * The capacity check (`--verify`, and the capacity plan: every file read back, every 4 KiB
 * block's stamp checked) in a few words: a label for the places that list runs rather than show
 * one (the results list, UI and CLI, and the compare view), and the verdict of a capacity plan.
 * A failed check is the most important thing to know about a drive, so it is named wherever the
 * run is. Pure: imports only the formatter.
 */
import { formatBytes, formatPercent } from './format.js';

export type CapacityVerdict = 'passed' | 'failed';

/** "Capacity check failed" / "Capacity checked", or null for a run that did not check. */
export function capacityCheckLabel(verdict: CapacityVerdict | null | undefined): string | null {
  if (verdict === 'failed') return 'Capacity check failed';
  if (verdict === 'passed') return 'Capacity checked';
  return null;
}

/** The fields of a verify section (contract bench.ts VerifySection) the verdict reads. */
export interface CheckedBlocks {
  verdict: CapacityVerdict;
  bytesChecked: number;
  badBytes: number;
  firstBad: {
    runOffset: number;
    found: { kind: 'other-block' | 'zeros' | 'damaged' | 'unreadable'; sameRun: boolean };
  } | null;
}

/** Below this share of what could be checked, a pass says how much was left unproved. */
const wholeShare = 0.95;

/** Why the blocks came back wrong, from what the first bad one held. */
function failure(found: NonNullable<CheckedBlocks['firstBad']>['found']): string {
  if (found.kind === 'other-block' && found.sameRun)
    return 'this drive stores less than it reports';
  if (found.kind === 'damaged')
    return 'blocks came back changed, as from a failing drive, cable or memory';
  if (found.kind === 'unreadable')
    return 'the drive could not read back what it was given, as a failing or fake-capacity drive does';
  return 'this drive did not keep what it was given, as a fake-capacity or failing drive does';
}

/**
 * A capacity plan's verdict in one sentence: "Capacity check failed: 577 MB of 889 MB read back
 * wrong from 310 MB on: this drive stores less than it reports." or "Capacity checked: 62.1 GB
 * written and read back intact." A pass over less than the space that may be used
 * (`allowanceBytes`: a quick run, or a cap) says how much that was.
 */
export function capacityVerdict(check: CheckedBlocks, allowanceBytes?: number): string {
  const checked = formatBytes(check.bytesChecked);
  if (check.verdict === 'failed') {
    const at = check.firstBad?.runOffset;
    const from =
      at === undefined ? '' : at === 0 ? ' from the start' : ` from ${formatBytes(at)} on`;
    const why = check.firstBad
      ? failure(check.firstBad.found)
      : 'this drive did not keep what it was given';
    return `Capacity check failed: ${formatBytes(check.badBytes)} of ${checked} read back wrong${from}: ${why}.`;
  }
  const passed = `Capacity checked: ${checked} written and read back intact.`;
  if (allowanceBytes === undefined || check.bytesChecked >= wholeShare * allowanceBytes)
    return passed;
  return `${passed} That is ${formatPercent(check.bytesChecked / allowanceBytes)} of the ${formatBytes(allowanceBytes)} that may be written here: check it all to prove the rest.`;
}
