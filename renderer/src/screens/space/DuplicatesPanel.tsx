/** Scan a folder for copies, show honest totals, and turn the chosen copies into clones. */
import { useEffect, useMemo, useState } from 'react';
import type { AppAbout } from '../../../../app/contract/app.js';
import type { PlumbClient } from '../../client.js';
import { FreeSpace } from '../../ui/FreeSpace.js';
import { useVolumeInfo } from '../../ui/use-volume-info.js';
import {
  filterGroups,
  progressFigures,
  sortGroups,
  summariseSelection,
  planFreesOf,
  type GroupFilter,
  type PlanFrees,
} from './duplicates-view.js';
import { ConfirmApply } from './duplicates/ConfirmApply.js';
import { GroupsSection } from './duplicates/GroupsSection.js';
import { fileRevealer } from './duplicates/reveal.js';
import { AppliedSummary, FirstSteps, ScanSummary, Totals } from './duplicates/ScanParts.js';
import { useApplyCopies } from './duplicates/use-apply-copies.js';
import { useDuplicateScan } from './duplicates/use-duplicate-scan.js';
import { FolderField } from './FolderField.js';
import { ProgressCard } from './ProgressCard.js';
import { TrashSummary } from './TrashParts.js';

export function DuplicatesPanel({
  client,
  about,
}: {
  client: PlumbClient;
  about: AppAbout | null;
}) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState<GroupFilter>({ minBytes: 0, folder: '' });
  // The file kept per group when not the scan's (the oldest): by hand, or the copy in a folder.
  const [keepers, setKeepers] = useState<Record<string, string>>({});
  const { scan, startScan, cancelScan, loadMoreGroups, refreshResult } = useDuplicateScan(client, {
    // A new scan ends what was planned for the last one (called later, once `copies` exists).
    onStart: () => copies.reset(),
    onDone: () => {
      setSelected(new Set());
      setKeepers({});
    },
  });

  const result = scan.kind === 'done' ? scan.result : null;
  const allGroups = useMemo(() => (result ? sortGroups(result.groups) : []), [result]);
  // The scan's groups in all: `allGroups` are those loaded so far (a page at a time).
  const groupCount = scan.kind === 'done' ? scan.groupCount : allGroups.length;
  const groups = useMemo(
    () => filterGroups(allGroups, filter, result?.root ?? ''),
    [allGroups, filter, result],
  );
  // A disk without clones (NTFS, exFAT, HFS+, ext4) offers the Trash instead of 0 B everywhere.
  const trashMode = result?.sharingSupported === false;
  // What acting on each group frees is the dry run's own figure for the current keep choices:
  // the one the confirmation gives. The scan's figures are for its own keepers, and on a disk
  // without clones file sizes miss block rounding.
  const [planFrees, setPlanFrees] = useState<PlanFrees | null>(null);
  useEffect(() => {
    setPlanFrees(null);
    if (!result) return;
    let live = true;
    const request = { scanId: result.scanId, keepers };
    const plan = trashMode
      ? client.call('space.trash', request)
      : client.call('space.dedupe', request);
    plan.then(
      (report) => live && setPlanFrees(planFreesOf(report)),
      () => undefined, // the scan's figures stay ("About" on a disk without clones)
    );
    return () => {
      live = false;
    };
  }, [client, result, trashMode, keepers]);
  const summary = summariseSelection(groups, selected, trashMode ? 'trash' : 'clone', planFrees);
  const copies = useApplyCopies(
    client,
    result,
    trashMode,
    (groupIds) =>
      Object.fromEntries(groupIds.filter((id) => keepers[id]).map((id) => [id, keepers[id]!])),
    async (done) => {
      // The groups changed are as they now are (and chosen no more); every other choice stays.
      const changed = new Set(done.report.actions.map((a) => a.groupId));
      await refreshResult();
      setSelected((current) => new Set([...current].filter((id) => !changed.has(id))));
      setKeepers((current) =>
        Object.fromEntries(Object.entries(current).filter(([id]) => !changed.has(id))),
      );
    },
  );
  // A disk that cannot be written is said before anything is offered, not met file by file.
  const volume = useVolumeInfo(client, result?.root ?? null, result);
  const blocked =
    result && volume?.readOnly
      ? 'This disk is read-only: Plumb can show what the copies take, but cannot change them here.'
      : null;
  const { apply, applyError } = copies;
  const reveal = fileRevealer(client, about, copies.setApplyError);

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
          <Totals
            result={result}
            groups={groups}
            planFrees={planFrees}
            scanTotal={groups.length === allGroups.length && allGroups.length < groupCount}
          />
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
            <GroupsSection
              root={result.root}
              groupCount={groupCount}
              onMoreGroups={() =>
                loadMoreGroups().catch((e: Error) => copies.setApplyError(e.message))
              }
              allGroups={allGroups}
              groups={groups}
              filter={filter}
              onFilter={setFilter}
              keepers={keepers}
              onKeepers={setKeepers}
              trashMode={trashMode}
              planFrees={planFrees}
              selected={selected}
              onSelected={setSelected}
              reveal={reveal}
              summary={summary}
              state={apply.kind}
              blocked={blocked}
              onReview={() =>
                void copies.review(groups.filter((g) => selected.has(g.id)).map((g) => g.id))
              }
            />
          )}
        </>
      ) : null}
      {apply.kind === 'confirm' || apply.kind === 'applying' ? (
        <ConfirmApply
          plan={apply.plan}
          busy={apply.kind === 'applying'}
          job={copies.applyJob}
          onConfirm={() => void copies.confirm()}
          onCancel={copies.cancel}
        />
      ) : null}
    </div>
  );
}
