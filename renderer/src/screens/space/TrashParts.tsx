/**
 * The Trash on disks without clones: the confirmation's per-file figures, and the result card,
 * which offers (and runs) the second step: deleting exactly the moved files from the Trash.
 */
import { useState } from 'react';
import type { EmptyTrashReport, TrashReport } from '../../../../app/contract/space.js';
import type { PlumbClient } from '../../client.js';
import { useJob } from '../../jobs/use-job.js';
import { ApplyProgress } from './ApplyProgress.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { bytesOrUnknown } from './duplicates-view.js';
import { ActionProblems } from './ActionProblems.js';
import { Figure } from './ProgressCard.js';
import {
  emptiedComparison,
  emptyConfirmationSentences,
  trashAppliedSentence,
  trashConfirmationSentences,
  trashName,
} from './trash-view.js';

/** The body of the "Move copies to the Trash?" dialog. */
export function TrashConfirmBody({ plan }: { plan: TrashReport }) {
  return (
    <>
      <ul className="confirm-list" data-testid="confirm-sentences">
        {trashConfirmationSentences(plan).map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
      <table className="trash-files" data-testid="trash-files">
        <thead>
          <tr>
            <th scope="col">File to move</th>
            <th scope="col" className="numeric">
              Deleting it frees
            </th>
          </tr>
        </thead>
        <tbody>
          {plan.actions.map((action) => (
            <tr key={action.target}>
              <td className="mono" title={`Keeps ${action.keeper}`}>
                {action.target}
                {action.status === 'skipped' ? (
                  <span className="muted"> — skipped: {action.reason ?? ''}</span>
                ) : null}
              </td>
              <td className="numeric" title={action.freesReason}>
                {bytesOrUnknown(action.freesBytes)}
                <span className="trash-frees-reason muted">{action.freesReason}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

type EmptyState =
  | { kind: 'none' }
  | { kind: 'planning' }
  | { kind: 'confirm'; plan: EmptyTrashReport }
  | { kind: 'emptying'; plan: EmptyTrashReport }
  | { kind: 'emptied'; report: EmptyTrashReport };

/** After copies moved: what happened, and the second step. */
export function TrashSummary({ client, report }: { client: PlumbClient; report: TrashReport }) {
  const [step, setStep] = useState<EmptyState>({ kind: 'none' });
  const [error, setError] = useState<string | null>(null);
  const emptyJob = useJob(client);
  const name = trashName(report.trash.kind);
  const batchId = report.batchId;

  const review = async () => {
    if (!batchId) return;
    setError(null);
    setStep({ kind: 'planning' });
    try {
      setStep({ kind: 'confirm', plan: await client.call('space.trash.empty', { batchId }) });
    } catch (e) {
      setStep({ kind: 'none' });
      setError((e as Error).message);
    }
  };
  const confirm = async () => {
    if (step.kind !== 'confirm' || !batchId) return;
    setStep({ kind: 'emptying', plan: step.plan });
    try {
      const emptied = await emptyJob.run((jobId) =>
        client.call('space.trash.empty', { batchId, apply: true, jobId }),
      );
      setStep({ kind: 'emptied', report: emptied });
    } catch (e) {
      setStep({ kind: 'none' });
      setError((e as Error).message);
    }
  };

  const comparison = step.kind === 'emptied' ? emptiedComparison(step.report, name) : null;
  return (
    <article className="card space-applied" aria-label="What changed">
      <header className="card-header">
        <h2 className="card-title">Copies moved to the {name}</h2>
        <span className="card-subtitle">{report.trash.location}</span>
      </header>
      <div className="space-figures-row">
        <Figure label="Moved" value={String(report.counts.moved)} testId="trash-moved" />
        <Figure
          label="Skipped or failed"
          value={String(report.counts.skipped + report.counts.failed)}
          testId="trash-skipped"
        />
        <Figure
          label={`Deleting from the ${name} frees`}
          value={bytesOrUnknown(report.predictedBytes)}
          testId="trash-predicted"
        />
        {comparison ? (
          <Figure label="Measured freed" value={comparison.measured} testId="trash-measured" />
        ) : null}
      </div>
      <p className="space-applied-text" data-testid="trash-sentence">
        {comparison ? comparison.sentence : trashAppliedSentence(report)}
      </p>
      <ActionProblems actions={report.actions} />
      {error ? (
        <div className="banner banner-error" role="alert">
          {error}
        </div>
      ) : null}
      {batchId && step.kind !== 'emptied' ? (
        <div className="space-action-bar">
          <span className="muted">Until then the files can be put back from the {name}.</span>
          <button
            type="button"
            className="button"
            disabled={step.kind !== 'none'}
            onClick={() => void review()}
          >
            {step.kind === 'planning'
              ? 'Checking…'
              : `Delete these ${report.counts.moved} files from the ${name}…`}
          </button>
        </div>
      ) : null}
      {step.kind === 'confirm' || step.kind === 'emptying' ? (
        <ConfirmDialog
          title={`Delete ${step.plan.counts.planned} files from the ${name} for good?`}
          confirmLabel="Delete for good"
          busy={step.kind === 'emptying'}
          progress={<ApplyProgress job={emptyJob.job} />}
          onStop={emptyJob.job?.state === 'running' ? () => void emptyJob.cancel() : null}
          confirmDisabled={step.plan.counts.planned === 0}
          onConfirm={() => void confirm()}
          onCancel={() => setStep({ kind: 'none' })}
        >
          <ul className="confirm-list" data-testid="empty-sentences">
            {emptyConfirmationSentences(step.plan, name).map((sentence) => (
              <li key={sentence}>{sentence}</li>
            ))}
          </ul>
          <details className="confirm-files">
            <summary>The files that will be deleted</summary>
            <ul>
              {step.plan.files.map((file) => (
                <li key={file.trashedPath} className="mono">
                  {file.original}
                  {file.status === 'skipped' ? ` — skipped: ${file.reason ?? ''}` : ''}
                </li>
              ))}
            </ul>
          </details>
        </ConfirmDialog>
      ) : null}
    </article>
  );
}
