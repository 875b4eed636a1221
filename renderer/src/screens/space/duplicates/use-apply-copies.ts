/** Turning the chosen copies into clones (or moving them to the Trash): plan, confirm, apply. */
import { useState } from 'react';
import type { DedupeReport, ScanResult, TrashReport } from '../../../../../app/contract/space.js';
import type { PlumbClient } from '../../../client.js';
import { useJob } from '../../../jobs/use-job.js';

/** Clones where the file system has them; elsewhere the copies go to the Trash. */
export type Plan =
  { action: 'clone'; report: DedupeReport } | { action: 'trash'; report: TrashReport };

export type ApplyState =
  | { kind: 'none' }
  | { kind: 'planning' }
  | { kind: 'confirm'; plan: Plan; groupIds: string[] }
  | { kind: 'applying'; plan: Plan; groupIds: string[] }
  | { kind: 'applied'; result: Plan };

/**
 * `keepersOf` gives the file kept per group where it is not the scan's own choice; `onApplied`
 * runs once an apply has ended, before its summary shows (to bring the figures up to date).
 */
export function useApplyCopies(
  client: PlumbClient,
  result: ScanResult | null,
  trashMode: boolean,
  keepersOf: (groupIds: readonly string[]) => Record<string, string>,
  onApplied: (done: Plan) => Promise<void>,
) {
  const [apply, setApply] = useState<ApplyState>({ kind: 'none' });
  const [applyError, setApplyError] = useState<string | null>(null);
  // The apply runs as a job: its progress is shown in the dialog, and Stop cancels it.
  const applyJob = useJob(client);

  const review = async (groupIds: string[]) => {
    if (!result) return;
    setApplyError(null);
    setApply({ kind: 'planning' });
    try {
      const request = { scanId: result.scanId, groupIds, keepers: keepersOf(groupIds) };
      const plan: Plan = trashMode
        ? { action: 'trash', report: await client.call('space.trash', request) }
        : { action: 'clone', report: await client.call('space.dedupe', request) };
      setApply({ kind: 'confirm', plan, groupIds });
    } catch (error) {
      setApply({ kind: 'none' });
      setApplyError((error as Error).message);
    }
  };

  const confirm = async () => {
    if (apply.kind !== 'confirm' || !result) return;
    setApply({ ...apply, kind: 'applying' });
    try {
      const request = {
        scanId: result.scanId,
        groupIds: apply.groupIds,
        keepers: keepersOf(apply.groupIds),
        apply: true,
      };
      const action = apply.plan.action;
      const done: Plan = await applyJob.run(async (jobId) =>
        action === 'trash'
          ? { action, report: await client.call('space.trash', { ...request, jobId }) }
          : { action, report: await client.call('space.dedupe', { ...request, jobId }) },
      );
      await onApplied(done);
      setApply({ kind: 'applied', result: done });
    } catch (error) {
      setApply({ kind: 'none' });
      setApplyError((error as Error).message);
    }
  };

  /** Back to nothing planned and no error: a new scan, or the confirmation closed. */
  const reset = () => {
    setApply({ kind: 'none' });
    setApplyError(null);
  };

  return {
    apply,
    applyJob,
    applyError,
    setApplyError,
    review,
    confirm,
    cancel: () => setApply({ kind: 'none' }),
    reset,
  };
}
