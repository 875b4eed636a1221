/**
 * One button for a speed test with nothing to choose, as Blackmagic's Disk Speed Test has: the
 * standard plan on the chosen folder at the chosen scale, ending with one read and one write figure.
 */
import { scalePercent } from '../../../../../app/common/quick-run.js';
import { formatBytes } from '../../../../../app/common/format.js';
import { estimatedTime, type PlanEstimate } from '../estimates.js';
import type { TargetWarning } from '../target-warnings.js';
import { KeepFreeButton } from './StartArea.js';

export function QuickTest({
  estimate,
  scale,
  refusal,
  starting,
  onRun,
  onKeepFree,
}: {
  /** The standard plan's estimate here, once a folder is chosen. */
  estimate: PlanEstimate | null;
  /** The share of the full plan chosen (1 for full size). */
  scale: number;
  /** Why it cannot run here, in words (and a reserve that would fix it); null when it can. */
  refusal: Pick<TargetWarning, 'message' | 'keepFreeBytes'> | null;
  starting: boolean;
  onRun: () => void;
  onKeepFree: (bytes: number) => void;
}) {
  const what = estimate
    ? `Writes ${formatBytes(estimate.writeBytes)} and reads it back, ${estimatedTime(estimate)}.`
    : 'Choose where to test first.';
  return (
    <section className="quick-test" aria-labelledby="quick-test-title">
      <div className="quick-test-text">
        <h3 id="quick-test-title" className="quick-test-title">
          Speed test
        </h3>
        <p className="muted" id="quick-test-what">
          The standard test at {scale < 1 ? `${scalePercent(scale)} of` : ''} full size, for one
          read and one write figure. {refusal?.message ?? what} Or choose a test below.
        </p>
        {refusal?.keepFreeBytes !== undefined ? (
          <KeepFreeButton bytes={refusal.keepFreeBytes} onKeepFree={onKeepFree} />
        ) : null}
      </div>
      <button
        type="button"
        className="button button-primary quick-test-button"
        aria-describedby="quick-test-what"
        disabled={estimate === null || refusal !== null || starting}
        onClick={onRun}
      >
        {starting ? 'Starting…' : 'Run speed test'}
      </button>
    </section>
  );
}
