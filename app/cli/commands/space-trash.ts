/**
 * `plumb space trash DIR [--apply]` moves the copies a scan finds to the system's Trash (dry run
 * unless --apply), and `plumb space trash --empty BATCH [--apply]` deletes exactly those files
 * from the Trash afterwards, measuring what that freed.
 */
import type {
  EmptyTrashReport,
  ScanResult,
  TrashAction,
  TrashReport,
} from '../../contract/space.js';
import { emptyTrashBatch, trashCopies } from '../../core/space/trash.js';
import { formatBytes } from '../../common/format.js';
import { writeJson } from '../../core/json-out.js';
import { cancelledLine, cliApplyJob } from '../apply-job.js';
import { exitCode, UsageError, type CommandIO } from '../command.js';
import { printableLine } from '../printable.js';

function bytesOrUnknown(bytes: number | null): string {
  return bytes === null ? 'unknown' : formatBytes(bytes);
}

function actionLine(action: TrashAction): string {
  const frees = `frees ${bytesOrUnknown(action.freesBytes)}: ${action.freesReason}`;
  switch (action.status) {
    case 'planned':
      return `would trash  ${action.target}  (keeps ${action.keeper}; ${frees})`;
    case 'moved':
      return `trashed      ${action.target}  → ${action.trashedPath ?? ''}  (${frees})`;
    case 'skipped':
      return `skip         ${action.target}: ${action.reason ?? ''}`;
    case 'failed':
      return `FAILED       ${action.target}: ${action.reason ?? ''} — the file is where it was`;
  }
}

const emptyingNote =
  'The space comes back only when these files are deleted from the Trash (emptying it).';

function printTrash(report: TrashReport, io: CommandIO, streamed: Set<TrashAction>): void {
  const out = (line = '') =>
    io.stdout.write(`${printableLine(line)}
`);
  for (const { batchId, moved } of report.interrupted ?? []) {
    out(
      `An earlier move to the Trash was stopped before it finished; the ${moved} copies it moved are batch ${batchId}: plumb space trash --empty ${batchId} --apply`,
    );
  }
  for (const action of report.actions) if (!streamed.has(action)) out(actionLine(action));
  const c = report.counts;
  if (!report.trash.available) {
    out(`No Trash: ${report.trash.reason ?? 'none reachable'}. Nothing was moved or deleted.`);
    return;
  }
  if (report.dryRun) {
    out(
      `Dry run: ${c.planned} copies would move to the Trash (${report.trash.location ?? ''}), each ` +
        `verified identical to the copy that stays; deleting them from the Trash would free ` +
        `${bytesOrUnknown(report.predictedBytes)}. ${c.skipped} skipped. Nothing was changed; run again with --apply to do it.`,
    );
    return;
  }
  out(
    `Moved ${c.moved} copies to the Trash (${report.trash.location ?? ''}), ${c.skipped} skipped, ${c.failed} failed. ` +
      `${emptyingNote} Deleting them would free ${bytesOrUnknown(report.predictedBytes)}.`,
  );
  if (report.batchId) {
    out(
      `To delete exactly these files from the Trash: plumb space trash --empty ${report.batchId} --apply`,
    );
  }
}

function printEmpty(report: EmptyTrashReport, io: CommandIO): void {
  const out = (line = '') => io.stdout.write(`${printableLine(line)}\n`);
  for (const file of report.files) {
    const what =
      file.status === 'planned'
        ? 'would delete'
        : file.status === 'deleted'
          ? 'deleted     '
          : file.status === 'skipped'
            ? 'skip        '
            : 'FAILED      ';
    out(
      `${what} ${file.trashedPath} (was ${file.original})${file.reason ? `: ${file.reason}` : ''}`,
    );
  }
  const c = report.counts;
  if (report.dryRun) {
    out(
      `Dry run: ${c.planned} files would be deleted from the Trash for good, freeing about ` +
        `${bytesOrUnknown(report.predictedBytes)}; ${c.skipped} skipped. Run again with --apply to do it.`,
    );
    return;
  }
  out(
    `Deleted ${c.deleted} files from the Trash, ${c.skipped} skipped, ${c.failed} failed. Predicted ` +
      `${bytesOrUnknown(report.predictedBytes)}, measured ${bytesOrUnknown(report.measuredFreedBytes)} freed on the volume.`,
  );
}

/** `plumb space trash --empty BATCH [--apply] [--json]` */
export async function emptyTrashCommand(
  batchId: string,
  values: { apply?: boolean; json?: boolean },
  io: CommandIO,
): Promise<number> {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(batchId)) {
    throw new UsageError(
      `"${batchId}" is not a batch id: use the one \`plumb space trash --apply\` printed.`,
    );
  }
  const { report, cancelled } = await cliApplyJob('trash-empty', io, null, (hooks) =>
    emptyTrashBatch(batchId, {
      apply: values.apply === true,
      batchDir: io.folders.spaceTrash,
      signal: hooks.signal,
      onProgress: hooks.onProgress,
    }),
  );
  if (values.json) await writeJson(io.stdout, report, 2);
  else printEmpty(report, io);
  if (cancelled) {
    io.stderr.write(`${cancelledLine(report.files, 'deleted', 'deleted from the Trash')}\n`);
    return exitCode.cancelled;
  }
  return report.counts.failed > 0 ? exitCode.failed : exitCode.ok;
}

/** `plumb space trash DIR [--apply] [--json]`, after the scan of DIR. */
export async function trashCommand(
  result: ScanResult,
  values: { apply?: boolean; json?: boolean },
  io: CommandIO,
): Promise<number> {
  const { report, cancelled, streamed } = await cliApplyJob(
    'trash',
    io,
    values.json ? null : actionLine,
    (hooks) =>
      trashCopies(result.groups, {
        apply: values.apply === true,
        sharingSupported: result.sharingSupported,
        batchDir: io.folders.spaceTrash,
        ...hooks,
      }),
  );
  if (values.json) await writeJson(io.stdout, { scan: result, trash: report }, 3);
  else printTrash(report, io, streamed);
  if (cancelled) {
    io.stderr.write(`${cancelledLine(report.actions, 'moved', 'moved to the Trash')}\n`);
    return exitCode.cancelled;
  }
  if (!report.trash.available && report.actions.length > 0) return exitCode.failed;
  return report.counts.failed > 0 ? exitCode.failed : exitCode.ok;
}
