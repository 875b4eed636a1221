/** The foot of the setup: warnings and messages, what will happen, and the start button. */
import { aboutDuration, formatBytes } from '../../../../../app/common/format.js';
import type { Plan } from '../../../../../app/contract/plan.js';
import { estimatedTime, type PlanEstimate } from '../estimates.js';
import type { TargetWarning } from '../target-warnings.js';
import { planStory, readFolderStory } from '../../../ui/plan-catalogue.js';
import type { SetupMessage } from './use-setup-lists.js';

/** The one click that fixes a refusal for want of space: keep less free (never under the floor). */
export function KeepFreeButton({
  bytes,
  onKeepFree,
}: {
  bytes: number;
  onKeepFree: (bytes: number) => void;
}) {
  return (
    <button type="button" className="button banner-action" onClick={() => onKeepFree(bytes)}>
      Keep {formatBytes(bytes)} free instead
    </button>
  );
}

export function StartArea({
  warnings,
  message,
  summary,
  confirmBytes,
  onNotNow,
  blocked,
  starting,
  onKeepFree,
}: {
  warnings: TargetWarning[];
  message: SetupMessage | null;
  /** What the run will do, in a sentence, and the estimate it states (startSummary). */
  summary: StartSummary;
  /** The bytes the user is asked to confirm writing, while asked. */
  confirmBytes: number | null;
  onNotNow: () => void;
  blocked: boolean;
  starting: boolean;
  /** Sets "Keep free on the disk" to the figure a refusal offers. */
  onKeepFree: (bytes: number) => void;
}) {
  return (
    <div className="start-area" aria-live="polite">
      {warnings.map((warning) => (
        <div
          key={warning.message}
          className={`banner ${warning.level === 'danger' ? 'banner-error' : 'banner-warning'}`}
        >
          {warning.message}
          {warning.keepFreeBytes !== undefined ? (
            <KeepFreeButton bytes={warning.keepFreeBytes} onKeepFree={onKeepFree} />
          ) : null}
        </div>
      ))}
      {message ? (
        <div
          className={`banner ${message.tone === 'error' ? 'banner-error' : 'banner-info'}`}
          role={message.tone === 'error' ? 'alert' : 'status'}
        >
          {message.text}
        </div>
      ) : null}
      <div className="start-row">
        <p
          className="start-summary"
          data-seconds={summary.estimate?.seconds}
          data-check-seconds={summary.estimate?.recoveryChecks?.seconds}
        >
          {summary.text}
        </p>
        {confirmBytes !== null ? (
          <>
            <span className="confirm-text">Write {formatBytes(confirmBytes)} to this disk?</span>
            <button type="button" className="button" onClick={onNotNow}>
              Not now
            </button>
            <button type="submit" className="button button-primary" disabled={starting}>
              Write {formatBytes(confirmBytes)}
            </button>
          </>
        ) : (
          <button
            type="submit"
            className="button button-primary button-large"
            disabled={blocked || starting}
          >
            {starting ? 'Starting…' : 'Start test'}
          </button>
        )}
      </div>
    </div>
  );
}

export interface StartSummary {
  text: string;
  /**
   * The estimate the sentence rounds ("about 0.3 s"), null when it states none; kept on the
   * sentence as data-seconds (and each cache check's as data-check-seconds) for the end-to-end
   * test that judges the estimate itself.
   */
  estimate: PlanEstimate | null;
}

/** The sentence above the start button. */
export function startSummary(
  target: { path: string } | null,
  readFolder: boolean,
  plan: Plan | undefined,
  estimate: PlanEstimate | null,
): StartSummary {
  if (target && readFolder)
    return {
      text: `${readFolderStory.title} ${target.path}: every file under it is read once, uncached; nothing is written.`,
      estimate: null,
    };
  if (target && plan && estimate) {
    const checks = estimate.recoveryChecks;
    // Only a cliff starts them, so they are said apart rather than added to the time.
    const after = checks
      ? ` If it finds a cache cliff, it then waits for the cache to empty: ${aboutDuration(checks.seconds)} for each check, at most ${checks.most}.`
      : '';
    const note = estimate.recoveryNote ? ` ${estimate.recoveryNote}` : '';
    return {
      text: `${planStory(plan).title} on ${target.path}: ${formatBytes(estimate.writeBytes)} written, ${estimatedTime(estimate)}.${after}${note}`,
      estimate,
    };
  }
  return { text: 'Choose where to test, then a test.', estimate: null };
}
