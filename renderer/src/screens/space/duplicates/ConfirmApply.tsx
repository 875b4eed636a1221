/** The last word before copies change: what moving them to the Trash, or cloning them, will do. */
import { ConfirmDialog } from '../ConfirmDialog.js';
import { confirmationSentences } from '../duplicates-view.js';
import { TrashConfirmBody } from '../TrashParts.js';
import { trashName } from '../trash-view.js';
import type { Plan } from './use-apply-copies.js';

export function ConfirmApply({
  plan,
  busy,
  onConfirm,
  onCancel,
}: {
  plan: Plan;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  if (plan.action === 'trash') {
    const trash = trashName(plan.report.trash.kind);
    return (
      <ConfirmDialog
        title={`Move copies to the ${trash}?`}
        confirmLabel={`Move to ${trash}`}
        busy={busy}
        confirmDisabled={!plan.report.trash.available || plan.report.counts.planned === 0}
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
