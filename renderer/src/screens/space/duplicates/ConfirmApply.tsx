/** The last word before copies change: what moving them to the Trash, or cloning them, will do. */
import { ConfirmDialog } from '../ConfirmDialog.js';
import { confirmationSentences } from '../duplicates-view.js';
import { TrashConfirmBody } from '../TrashParts.js';
import { trashName } from '../trash-view.js';
import type { UseJob } from '../../../jobs/use-job.js';
import { ApplyProgress } from '../ApplyProgress.js';
import type { Plan } from './use-apply-copies.js';

export function ConfirmApply({
  plan,
  busy,
  job,
  onConfirm,
  onCancel,
}: {
  plan: Plan;
  busy: boolean;
  /** The apply's job: its progress, and Stop while it runs. */
  job: UseJob;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const progress = <ApplyProgress job={job.job} />;
  const onStop = job.job?.state === 'running' ? () => void job.cancel() : null;
  if (plan.action === 'trash') {
    const trash = trashName(plan.report.trash.kind);
    return (
      <ConfirmDialog
        title={`Move copies to the ${trash}?`}
        confirmLabel={`Move to ${trash}`}
        busy={busy}
        confirmDisabled={!plan.report.trash.available || plan.report.counts.planned === 0}
        progress={progress}
        onStop={onStop}
        onConfirm={onConfirm}
        onCancel={onCancel}
      >
        <TrashConfirmBody plan={plan.report} />
      </ConfirmDialog>
    );
  }
  return (
    <ConfirmDialog
      title="Replace copies with clones?"
      confirmLabel="Replace with clones"
      busy={busy}
      confirmDisabled={plan.report.counts.planned === 0}
      progress={progress}
      onStop={onStop}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <ul className="confirm-list" data-testid="confirm-sentences">
        {confirmationSentences(plan.report).map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
      <details className="confirm-files">
        <summary>The files that will change</summary>
        <ul>
          {plan.report.actions.map((action) => (
            <li key={action.target} className="mono">
              {action.target}
              {action.status === 'skipped' ? ` — skipped: ${action.reason ?? ''}` : ''}
            </li>
          ))}
        </ul>
      </details>
    </ConfirmDialog>
  );
}
