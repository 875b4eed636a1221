/** Scan a folder for copies, show honest totals, and turn the chosen copies into clones. */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { AppAbout } from '../../../../app/contract/app.js';
import type {
  DedupeReport,
  DuplicateGroup,
  ScanProgress,
  ScanResult,
  SpaceEvent,
  TrashReport,
} from '../../../../app/contract/space.js';
import type { PlumbClient } from '../../client.js';
import { useJob } from '../../jobs/use-job.js';
import { ApplyProgress } from './ApplyProgress.js';
import { formatBytes, formatDuration } from '../../../../app/common/format.js';
import { FreeSpace } from '../../shell/FreeSpace.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import {
  confirmationSentences,
  freedComparison,
  methodNames,
  progressFigures,
  scanAge,
  selectionText,
  sortGroups,
  summariseSelection,
  totalLines,
  filterGroups,
  keepersInFolder,
  type GroupFilter,
} from './duplicates-view.js';
import { GroupFilters } from './GroupFilters.js';
import { FolderField } from './FolderField.js';
import { GroupTable } from './GroupTable.js';
import { ActionProblems } from './ActionProblems.js';
import { Figure, ProgressCard } from './ProgressCard.js';
import { TrashConfirmBody, TrashSummary } from './TrashParts.js';
import { trashName } from './trash-view.js';

type ScanState =
  | { kind: 'idle' }
  | { kind: 'scanning'; path: string; scanId: string | null; progress: ScanProgress | null }
  | { kind: 'done'; result: ScanResult; savedAt?: string }
  | { kind: 'cancelled'; path: string }
  | { kind: 'error'; message: string };

/** Clones where the file system has them; elsewhere the copies go to the Trash. */
type Plan = { action: 'clone'; report: DedupeReport } | { action: 'trash'; report: TrashReport };

type ApplyState =
  | { kind: 'none' }
  | { kind: 'planning' }
  | { kind: 'confirm'; plan: Plan; groupIds: string[] }
  | { kind: 'applying'; plan: Plan; groupIds: string[] }
  | { kind: 'applied'; result: Plan };

export function DuplicatesPanel({
  client,
  about,
}: {
  client: PlumbClient;
  about: AppAbout | null;
}) {
  const [scan, setScan] = useState<ScanState>({ kind: 'idle' });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [apply, setApply] = useState<ApplyState>({ kind: 'none' });
  const applyJob = useJob(client);
  const [applyError, setApplyError] = useState<string | null>(null);
  const [filter, setFilter] = useState<GroupFilter>({ minBytes: 0, folder: '' });
  // The file kept per group when not the scan's (the oldest): by hand, or the copy in a folder.
  const [keepers, setKeepers] = useState<Record<string, string>>({});
  // The scan's id is chosen here before it starts (as its job's), so no event comes before it.
  const scanJob = useJob(client);
  const scanIdRef = useRef<string | null>(null);

  useEffect(() => {
    const handle = (event: SpaceEvent) => {
      const id = event.type === 'progress' ? event.progress.scanId : event.scanId;
      if (id !== scanIdRef.current) return;
      if (event.type === 'progress')
        setScan((s) => (s.kind === 'scanning' ? { ...s, progress: event.progress } : s));
      else if (event.type === 'done') {
        setScan({ kind: 'done', result: event.result });
        setSelected(new Set());
        setKeepers({});
      } else if (event.type === 'cancelled')
        setScan((s) => ({ kind: 'cancelled', path: s.kind === 'scanning' ? s.path : '' }));
      else setScan({ kind: 'error', message: event.error.message });
    };
    const off = client.on('space.event', handle);
    return off;
  }, [client]);

  // Reopening the view shows the last scan kept (with its age) until a new one is started.
  useEffect(() => {
    let live = true;
    client.call('space.lastScan', {}).then(
      (saved) => {
        if (live && saved)
          setScan((s) =>
            s.kind === 'idle' ? { kind: 'done', result: saved.result, savedAt: saved.savedAt } : s,
          );
      },
      () => undefined, // nothing kept (or unreadable): the first steps stay
    );
    return () => {
      live = false;
    };
  }, [client]);

  const startScan = async (path: string) => {
    if (!path) {
      setScan({ kind: 'error', message: 'Type the path of a folder to look for copies in.' });
      return;
    }
    scanIdRef.current = null;
    setApply({ kind: 'none' });
    setApplyError(null);
    setScan({ kind: 'scanning', path, scanId: null, progress: null });
    try {
      // The folder typed and submitted here is the one the server lets this session scan.
      await client.call('session.choosePath', { path });
      const { scanId } = await scanJob.run((jobId) => {
        scanIdRef.current = jobId;
        return client.call('space.scan', { path, jobId });
      });
      setScan((s) => (s.kind === 'scanning' ? { ...s, scanId } : s));
    } catch (error) {
      scanIdRef.current = null;
      setScan({ kind: 'error', message: (error as Error).message });
    }
  };

  const cancelScan = async () => {
    if (scan.kind !== 'scanning' || !scan.scanId) return;
    await scanJob.cancel();
  };

  const result = scan.kind === 'done' ? scan.result : null;
  const allGroups = useMemo(() => (result ? sortGroups(result.groups) : []), [result]);
  const groups = useMemo(() => filterGroups(allGroups, filter), [allGroups, filter]);
  // A disk without clones (NTFS, exFAT, HFS+, ext4) offers the Trash instead of 0 B everywhere.
  const trashMode = result?.sharingSupported === false;
  const summary = summariseSelection(groups, selected, trashMode ? 'trash' : 'clone');
  const applied = apply.kind === 'applied';

  const review = async () => {
    if (!result) return;
    const groupIds = groups.filter((g) => selected.has(g.id)).map((g) => g.id);
    setApplyError(null);
    setApply({ kind: 'planning' });
    try {
      const plan: Plan = trashMode
        ? {
            action: 'trash',
            report: await client.call('space.trash', {
              scanId: result.scanId,
              groupIds,
              keepers: chosenKeepers(groupIds),
            }),
          }
        : {
            action: 'clone',
            report: await client.call('space.dedupe', {
              scanId: result.scanId,
              groupIds,
              keepers: chosenKeepers(groupIds),
            }),
          };
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
        keepers: chosenKeepers(apply.groupIds),
        apply: true,
      };
      const action = apply.plan.action;
      const done: Plan = await applyJob.run(async (jobId) =>
        action === 'trash'
          ? { action, report: await client.call('space.trash', { ...request, jobId }) }
          : { action, report: await client.call('space.dedupe', { ...request, jobId }) },
      );
      setApply({ kind: 'applied', result: done });
    } catch (error) {
      setApply({ kind: 'none' });
      setApplyError((error as Error).message);
    }
  };

  const chosenKeepers = (groupIds: readonly string[]) =>
    Object.fromEntries(groupIds.filter((id) => keepers[id]).map((id) => [id, keepers[id]!]));

  // The desktop app shows a file in the file manager; a browser cannot, so it copies the path.
  const revealLabel =
    client.transport === 'electron'
      ? about?.platform === 'darwin'
        ? 'Show in Finder'
        : about?.platform === 'win32'
          ? 'Show in Explorer'
          : 'Show in Files'
      : 'Copy path';
  const reveal = async (file: string) => {
    try {
      if (client.transport === 'electron') await client.call('dialog.revealPath', { path: file });
      else await navigator.clipboard.writeText(file);
    } catch (error) {
      setApplyError((error as Error).message);
    }
  };

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <div className="space-panel">
      <FolderField
        client={client}
        label="Folder to look for copies in"
        placeholder={about ? about.homeDir : '/path/to/folder'}
        actionLabel="Scan"
        busy={scan.kind === 'scanning' || apply.kind === 'applying'}
        dialogTitle="Choose a folder to look for copies in"
        offered="space"
        onSubmit={(path) => void startScan(path)}
      />
      <div aria-live="polite" className="space-status">
        {scan.kind === 'idle' ? <FirstSteps /> : null}
        {scan.kind === 'scanning' ? (
          <ProgressCard
            title="Scanning"
            path={scan.path}
            figures={progressFigures(scan.progress)}
            barLabel="Scan progress"
            bytesLabel="Read"
            cancelLabel="Cancel scan"
            canCancel={scan.scanId !== null}
            onCancel={() => void cancelScan()}
            testIdPrefix="scan"
          />
        ) : null}
        {scan.kind === 'cancelled' ? (
          <div className="banner banner-warning" role="status">
            Scan cancelled. Nothing was changed; scan again when you are ready.
          </div>
        ) : null}
        {scan.kind === 'error' ? (
          <div className="banner banner-error" role="alert">
            {scan.message}
          </div>
        ) : null}
      </div>
      {result ? (
        <>
          <ScanSummary
            result={result}
            savedAt={scan.kind === 'done' ? scan.savedAt : undefined}
            onRescan={() => void startScan(result.root)}
          />
          <FreeSpace
            client={client}
            path={result.root}
            refresh={apply.kind}
            lead="On this volume: "
          />
          <Totals result={result} groups={groups} />
          {applyError ? (
            <div className="banner banner-error" role="alert">
              {applyError}
            </div>
          ) : null}
          {apply.kind === 'applied' && apply.result.action === 'clone' ? (
            <AppliedSummary report={apply.result.report} />
          ) : null}
          {apply.kind === 'applied' && apply.result.action === 'trash' ? (
            <TrashSummary client={client} report={apply.result.report} />
          ) : null}
          {allGroups.length === 0 ? (
            <p className="empty-state">
              No duplicate copies here: every file in this folder is one of a kind. Try a larger
              folder, such as your home folder or a folder of downloads and backups.
            </p>
          ) : (
            <section className="space-groups" aria-labelledby="groups-title">
              <div className="toolbar">
                <h2 id="groups-title" className="section-title">
                  {groups.length.toLocaleString('en-US')} duplicate{' '}
                  {groups.length === 1 ? 'group' : 'groups'}
                  {groups.length < allGroups.length
                    ? ` shown of ${allGroups.length.toLocaleString('en-US')}`
                    : ''}
                  , largest saving first
                </h2>
              </div>
              <GroupFilters
                filter={filter}
                disabled={applied || apply.kind === 'applying'}
                onFilter={setFilter}
                onKeepInFolder={() => setKeepers(keepersInFolder(allGroups, filter.folder))}
                onKeepOldest={() => setKeepers({})}
              />
              <GroupTable
                root={result.root}
                groups={groups}
                mode={trashMode ? 'trash' : 'clone'}
                keepers={keepers}
                onKeep={(id, file) => setKeepers((k) => ({ ...k, [id]: file }))}
                revealLabel={revealLabel}
                onReveal={(file) => void reveal(file)}
                selected={selected}
                disabled={applied || apply.kind === 'applying'}
                onToggle={toggle}
                onToggleAll={(all) =>
                  setSelected(all ? new Set(groups.map((g) => g.id)) : new Set())
                }
              />
              <div className="space-action-bar">
                <span className="muted" data-testid="selection-summary">
                  {applied
                    ? 'These groups were changed: scan again to see the folder as it is now.'
                    : selectionText(summary)}
                </span>
                {applied ? (
                  <button
                    type="button"
                    className="button"
                    onClick={() => void startScan(result.root)}
                  >
                    Scan again
                  </button>
                ) : (
                  <button
                    type="button"
                    className="button button-primary"
                    disabled={summary.groups === 0 || apply.kind !== 'none'}
                    onClick={() => void review()}
                  >
                    {apply.kind === 'planning'
                      ? 'Checking…'
                      : trashMode
                        ? 'Move copies to Trash…'
                        : 'Replace copies with clones…'}
                  </button>
                )}
              </div>
            </section>
          )}
        </>
      ) : null}
      {(apply.kind === 'confirm' || apply.kind === 'applying') && apply.plan.action === 'trash' ? (
        <ConfirmDialog
          title={`Move copies to the ${trashName(apply.plan.report.trash.kind)}?`}
          confirmLabel={`Move to ${trashName(apply.plan.report.trash.kind)}`}
          busy={apply.kind === 'applying'}
          confirmDisabled={
            !apply.plan.report.trash.available || apply.plan.report.counts.planned === 0
          }
          progress={<ApplyProgress job={applyJob.job} />}
          onStop={applyJob.job?.state === 'running' ? () => void applyJob.cancel() : null}
          onConfirm={() => void confirm()}
          onCancel={() => setApply({ kind: 'none' })}
        >
          <TrashConfirmBody plan={apply.plan.report} />
        </ConfirmDialog>
      ) : null}
      {(apply.kind === 'confirm' || apply.kind === 'applying') && apply.plan.action === 'clone' ? (
        <ConfirmDialog
          title="Replace copies with clones?"
          confirmLabel="Replace with clones"
          busy={apply.kind === 'applying'}
          confirmDisabled={apply.plan.report.counts.planned === 0}
          progress={<ApplyProgress job={applyJob.job} />}
          onStop={applyJob.job?.state === 'running' ? () => void applyJob.cancel() : null}
          onConfirm={() => void confirm()}
          onCancel={() => setApply({ kind: 'none' })}
        >
          <ul className="confirm-list" data-testid="confirm-sentences">
            {confirmationSentences(apply.plan.report).map((sentence) => (
              <li key={sentence}>{sentence}</li>
            ))}
          </ul>
          <details className="confirm-files">
            <summary>The files that will change</summary>
            <ul>
              {apply.plan.report.actions.map((action) => (
                <li key={action.target} className="mono">
                  {action.target}
                  {action.status === 'skipped' ? ` — skipped: ${action.reason ?? ''}` : ''}
                </li>
              ))}
            </ul>
          </details>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

function FirstSteps() {
  return (
    <div className="empty-panel space-empty">
      <h2 className="empty-title">Find copies that could share storage</h2>
      <ol className="empty-steps">
        <li>Type a folder above — your home folder is a good start — and press Scan.</li>
        <li>
          Plumb lists identical files and how much turning the copies into clones would really free.
          Copies that are already clones count for nothing.
        </li>
        <li>
          Tick the groups you want, review exactly what will happen, and confirm. No file is ever
          deleted; each copy keeps its name, content and metadata.
        </li>
      </ol>
      <p className="muted">Scanning only reads: nothing changes until you confirm.</p>
    </div>
  );
}

function ScanSummary({
  result,
  savedAt,
  onRescan,
}: {
  result: ScanResult;
  savedAt?: string;
  onRescan: () => void;
}) {
  const skipped = result.skipped;
  const skippedParts = [
    skipped.symlinks ? `${skipped.symlinks} symbolic links` : null,
    skipped.extraHardLinks ? `${skipped.extraHardLinks} extra hard links (counted once)` : null,
    skipped.otherVolumes ? `${skipped.otherVolumes} items on other volumes` : null,
    skipped.excluded ? `${skipped.excluded} excluded (packages, cloud folders)` : null,
    skipped.unreadable ? `${skipped.unreadable} unreadable` : null,
  ].filter(Boolean);
  return (
    <p className="space-scan-summary muted" data-testid="scan-summary">
      Scanned <span className="mono">{result.root}</span>
      {result.fsType ? ` (${result.fsType})` : ''}: {result.files.toLocaleString('en-US')} files,{' '}
      {formatBytes(result.bytes)} in {formatDuration(result.seconds)}.
      {skippedParts.length ? ` Skipped ${skippedParts.join(', ')}.` : ''}
      {savedAt ? (
        <span className="space-scan-age" data-testid="scan-age">
          {' '}
          Kept from a scan {scanAge(savedAt)}; files changed since then are skipped when you act.{' '}
          <button type="button" className="button" onClick={onRescan}>
            Scan again
          </button>
        </span>
      ) : null}
    </p>
  );
}

function Totals({ result, groups }: { result: ScanResult; groups: readonly DuplicateGroup[] }) {
  return (
    <section className="space-totals" aria-label="Totals">
      {totalLines(result.totals, result.sharingSupported, groups).map((line) => (
        <article
          key={line.id}
          className={`space-total space-total-${line.id} is-${line.tone}`}
          aria-labelledby={`total-${line.id}`}
        >
          <span className="space-figure-label" id={`total-${line.id}`}>
            {line.label}
          </span>
          <span className="space-total-value" data-testid={`total-${line.id}`}>
            {line.value}
          </span>
          <p className="space-total-text">{line.explanation}</p>
        </article>
      ))}
    </section>
  );
}

function AppliedSummary({ report }: { report: DedupeReport }) {
  const comparison = freedComparison(report);
  return (
    <article className="card space-applied" aria-label="What changed">
      <header className="card-header">
        <h2 className="card-title">Done: copies replaced with clones</h2>
        <span className="card-subtitle">{methodNames[report.method]}</span>
      </header>
      <div className="space-figures-row">
        <Figure label="Predicted" value={comparison.predicted} testId="applied-predicted" />
        <Figure label="Measured freed" value={comparison.measured} testId="applied-measured" />
        <Figure label="Files changed" value={String(report.counts.done)} testId="applied-done" />
        <Figure
          label="Skipped or failed"
          value={String(report.counts.skipped + report.counts.failed)}
        />
      </div>
      <p className="space-applied-text">{comparison.sentence}</p>
      <ActionProblems actions={report.actions} />
    </article>
  );
}
