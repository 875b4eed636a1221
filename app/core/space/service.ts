/**
 * The space operations of the contract. Scans run in the background, report through
 * `space.event`, and are kept (the last few) so a dedupe can act on exactly what was shown.
 */
import { randomUUID } from 'node:crypto';
import { PlumbError, toErrorPayload } from '../../contract/errors.js';
import { firstGroupsPage } from '../../common/groups-page.js';
import { withRemovableTotal } from '../../common/removable.js';
import type { JobKind } from '../../contract/jobs.js';
import type {
  DuplicateGroup,
  ScanOptions,
  ScanProgress,
  ScanResult,
} from '../../contract/space.js';
import type { CallContext, Handlers } from '../dispatch.js';
import type { PlumbFolders } from '../paths.js';
import { jobs } from '../jobs/service.js';
import {
  appliedChanges,
  rewriteKeptAfterApply,
  scanAfterApply,
  type Applied,
} from './after-apply.js';
import type { ApplyEachOptions } from './apply-steps.js';
import { dedupeGroups } from './dedupe.js';
import { recoverInterrupted, type RecoveryStep } from './journal.js';
import {
  canKeepScans,
  keepScanJson,
  keptGroups,
  keptGroupsById,
  openLastScan,
  saveLastScan,
  type KeptScan,
} from './last-scan.js';
import { scanFolder, scanFolderJson, type ScanHooks } from './scan.js';
import { copySparse } from './sparse-copy.js';
import { createSparse, listSparse, punchZeros, type SparseListHooks } from './sparse.js';
import { sparseCandidates } from './sparse-candidates.js';
import { emptyTrashBatch, trashCopies } from './trash.js';

type SpaceOperation =
  | 'space.scan'
  | 'space.cancel'
  | 'space.result'
  | 'space.lastScan'
  | 'space.groups'
  | 'space.dedupe'
  | 'space.recover'
  | 'space.trash'
  | 'space.trash.empty'
  | 'space.sparse.list'
  | 'space.sparse.cancel'
  | 'space.sparse.candidates'
  | 'space.sparse.create'
  | 'space.sparse.punch'
  | 'space.sparse.copy';

const keptScans = 5;

interface ScanEntry {
  /** A scan of this process, once finished. */
  result: ScanResult | null;
  /** A kept scan reopened: its figures, and its groups read from its file when asked for. */
  kept?: KeptScan;
}

/** A finished scan: in memory, or kept (its groups in its file). */
type Finished = { result: ScanResult; kept?: undefined } | { result: null; kept: KeptScan };

/** Scans of this process, by scanId, shared by every connection. */
const scans = new Map<string, ScanEntry>();

/**
 * Runs a sparse-file job; with a listId (the caller's), it is a job of the process's registry:
 * its progress goes out through `space.sparse.progress` (the listing's own figures) and
 * `job.event`, and jobs.cancel or space.sparse.cancel stops it.
 */
async function followed<T>(
  listId: string | undefined,
  kind: 'sparse-list' | 'sparse-candidates',
  context: CallContext,
  run: (hooks: SparseListHooks) => Promise<T>,
): Promise<T> {
  if (listId === undefined) return run({});
  return jobs.run({ jobId: listId, kind, origin: context }, (job) =>
    run({
      signal: job.signal,
      onProgress: (progress) => {
        context.emit('space.sparse.progress', { listId, ...progress });
        job.progress({
          phase: progress.phase,
          done: progress.described,
          total: progress.phase === 'walk' ? null : progress.sparseFiles,
          bytesDone: progress.bytes,
          bytesTotal: null,
        });
      },
    }),
  );
}

/**
 * Runs an apply as the job `jobId` (the caller's) of the process's registry, its progress in
 * files and bytes; without a jobId, as a plain call.
 */
async function asJob<T>(
  jobId: string | undefined,
  kind: JobKind,
  origin: CallContext,
  apply: (hooks: Pick<ApplyEachOptions<never>, 'signal' | 'onProgress'>) => Promise<T>,
): Promise<T> {
  if (jobId === undefined) return apply({});
  return jobs.run({ jobId, kind, origin }, (job) =>
    apply({ signal: job.signal, onProgress: (p) => job.progress({ phase: null, ...p }) }),
  );
}

/**
 * A scan, kept as the folder's last one so reopening the view shows it. Where scans can be kept,
 * the addon's JSON text is written straight to the kept file, a group at a time, and the scan is
 * read from there: its result is never held whole (for a million files, some 200 MB of objects
 * besides the walk's own tables). Where they cannot (no data folder, or no room in it for the
 * file: a full disk is when people look for copies), it is held in memory, as the CLI holds it.
 */
async function scanAndKeep(
  options: ScanOptions,
  hooks: ScanHooks & { scansDir: string },
): Promise<Finished> {
  if (await canKeepScans(hooks.scansDir)) {
    const pieces = await scanFolderJson(options, hooks);
    try {
      return { result: null, kept: await keepScanJson(hooks.scansDir, pieces) };
    } catch {
      // Scanned again into memory: the unchanged files' digests come from the hash cache.
      hooks.signal?.throwIfAborted();
    }
  }
  return { result: withRemovableTotal(await scanFolder(options, hooks)) };
}

let recovery: Promise<RecoveryStep[]> | undefined;

/** Replays journals of interrupted dedupes once per process, before any space work. */
export function recoverOnce(dir: string): Promise<RecoveryStep[]> {
  recovery ??= recoverInterrupted(dir);
  return recovery;
}

function remember(scanId: string, entry: ScanEntry): void {
  scans.set(scanId, entry);
  for (const id of scans.keys()) {
    if (scans.size <= keptScans) break;
    const entry = scans.get(id)!;
    if (entry.result !== null || entry.kept) scans.delete(id);
  }
}

function finishedScan(scanId: string): Finished {
  const entry = scans.get(scanId);
  if (entry?.result) return { result: entry.result };
  if (entry?.kept) return { result: null, kept: entry.kept };
  throw new PlumbError(
    'ENOSCAN',
    'That scan is not finished or no longer kept; scan the folder again.',
  );
}

/** A finished scan's figures (its groups may be left out: see groupsOf). */
const figuresOf = (scan: Finished): ScanResult => scan.result ?? scan.kept.head;
const groupCountOf = (scan: Finished): number =>
  scan.result ? scan.result.groups.length : scan.kept.groupCount;

/** Groups start…end-1 of a finished scan. */
async function groupsOf(scan: Finished, start: number, end: number): Promise<DuplicateGroup[]> {
  return scan.result ? scan.result.groups.slice(start, end) : keptGroups(scan.kept, start, end);
}

/**
 * The kept scan `scanId` brought up to date by an apply on it (the copies it changed), in memory
 * and on disk, so the view, a reopen, a page and the next apply all see the folder as it now is.
 * It keeps the time of its scan: what the apply did not touch is as that scan found it. A scan
 * kept in its file is rewritten with a new index and reopened from it; the old one's pages are
 * refused (its file changed), never read at the old offsets.
 */
async function keepApplied(
  scansDir: string,
  scanId: string,
  scan: Finished,
  applied: Applied,
): Promise<void> {
  const entry = scans.get(scanId);
  if (!entry || (scan.result ? entry.result !== scan.result : entry.kept !== scan.kept)) return;
  const changes = appliedChanges(applied);
  if (changes.groupIds.size === 0) return;
  if (scan.kept && (await rewriteKeptAfterApply(scan.kept, changes))) {
    // Written: reopened from its new index. Replaced meanwhile by a newer scan of the folder, its
    // pages are refused as such (the old offsets are never read).
    const reopened = await openLastScan(scansDir, scan.kept.head.root).catch(() => null);
    if (reopened?.head.scanId === scanId) entry.kept = reopened;
    return;
  }
  // Held in memory (a kept scan read whole, once), and kept again whole.
  const scanned = scan.result ?? { ...scan.kept.head, groups: await chosenGroups(scan, undefined) };
  const updated = withRemovableTotal(await scanAfterApply(scanned, applied));
  const kept = await openLastScan(scansDir, scanned.root).catch(() => null);
  const savedAt = kept?.head.scanId === scanId ? new Date(kept.savedAt) : new Date();
  const saving = saveLastScan(scansDir, updated, savedAt);
  if (scan.result) {
    entry.result = updated;
    await saving.catch(() => undefined);
    return;
  }
  const reopened = await saving.then(
    () => openLastScan(scansDir, scanned.root),
    () => null,
  );
  if (reopened?.head.scanId === scanId) {
    entry.kept = reopened;
  } else {
    entry.result = updated;
    entry.kept = undefined;
  }
}

/** The groups of a scan to act on: those named, or all of them. */
async function chosenGroups(
  scan: Finished,
  groupIds: readonly string[] | undefined,
): Promise<DuplicateGroup[]> {
  const wanted = groupIds ? new Set(groupIds) : null;
  if (scan.result)
    return wanted ? scan.result.groups.filter((g) => wanted.has(g.id)) : scan.result.groups;
  // Of a kept scan only the chosen groups are read (all of them only for the whole scan).
  return keptGroupsById(scan.kept, wanted ?? undefined);
}

export function spaceHandlers(folders: PlumbFolders): Pick<Handlers, SpaceOperation> {
  const journalDir = folders.spaceJournal;
  const batchDir = folders.spaceTrash;
  const scansDir = folders.spaceScans;
  return {
    'space.scan': async ({ jobId, ...options }, context) => {
      await recoverOnce(journalDir);
      const scanId = jobId ?? randomUUID();
      const state = jobs.stateOf(scanId);
      if (scans.has(scanId) || state === 'running' || state === 'cancelling') {
        throw new PlumbError(
          'EINVAL',
          'A scan or job with that id is kept or running; use a new id.',
        );
      }
      const entry: ScanEntry = { result: null };
      const progressOf = (p: ScanProgress) => ({
        phase: p.phase,
        done: p.files,
        total: null,
        bytesDone: p.phase === 'hash' ? p.bytesHashed : p.bytes,
        bytesTotal: p.phase === 'hash' ? p.bytesToHash : null,
      });
      const scanning = jobs.run({ jobId: scanId, kind: 'scan', origin: context }, (job) =>
        scanAndKeep(options, {
          scanId,
          scansDir,
          signal: job.signal,
          onProgress: (progress) => {
            context.emit('space.event', { type: 'progress', progress });
            job.progress(progressOf(progress));
          },
        }),
      );
      remember(scanId, entry);
      void scanning.then(
        async (scan) => {
          entry.result = scan.result;
          entry.kept = scan.kept;
          // The first page of groups: a scan of a million files is 180 MB whole; the page asks
          // for the others as it shows them (space.groups).
          context.emit('space.event', {
            type: 'done',
            scanId,
            result: { ...figuresOf(scan), groups: await groupsOf(scan, 0, firstGroupsPage) },
            groupCount: groupCountOf(scan),
          });
        },
        (error: unknown) => {
          scans.delete(scanId);
          if (jobs.stateOf(scanId) === 'cancelled') {
            context.emit('space.event', { type: 'cancelled', scanId });
          } else {
            context.emit('space.event', { type: 'failed', scanId, error: toErrorPayload(error) });
          }
        },
      );
      return { scanId };
    },
    'space.cancel': async ({ scanId }, context) => ({
      cancelled: jobs.cancel(scanId, context.session),
    }),
    'space.result': async ({ scanId }) => {
      const entry = scans.get(scanId);
      if (entry?.result) return entry.result;
      if (!entry?.kept) return null;
      const kept: Finished = { result: null, kept: entry.kept };
      return { ...entry.kept.head, groups: await groupsOf(kept, 0, entry.kept.groupCount) };
    },
    'space.lastScan': async ({ path }) => {
      const kept = await openLastScan(scansDir, path);
      if (!kept) return null;
      // Kept like a new scan, so dedupe and Trash act on exactly what is shown; its groups stay
      // in its file, read a page at a time.
      remember(kept.head.scanId, { result: null, kept });
      const groups = await keptGroups(kept, 0, firstGroupsPage);
      return {
        savedAt: kept.savedAt,
        result: { ...kept.head, groups },
        groupCount: kept.groupCount,
      };
    },
    'space.groups': async ({ scanId, offset, limit }) => {
      const scan = finishedScan(scanId);
      const { groups: _all, ...figures } = figuresOf(scan);
      return {
        scanId,
        root: figures.root,
        groupCount: groupCountOf(scan),
        offset,
        groups: await groupsOf(scan, offset, offset + limit),
        figures,
      };
    },
    'space.dedupe': async ({ scanId, groupIds, keepers, apply, jobId }, context) => {
      await recoverOnce(journalDir);
      const scan = finishedScan(scanId);
      const { sharingSupported } = figuresOf(scan);
      const groups = await chosenGroups(scan, groupIds);
      const report = await asJob(jobId, 'dedupe', context, (hooks) =>
        dedupeGroups(groups, {
          apply,
          keepers,
          sharingSupported,
          journalDir,
          ...hooks,
        }),
      );
      if (apply) await keepApplied(scansDir, scanId, scan, { action: 'clone', report });
      return report;
    },
    'space.recover': async () => recoverOnce(journalDir),
    'space.trash': async ({ scanId, groupIds, keepers, apply, jobId }, context) => {
      const scan = finishedScan(scanId);
      const { sharingSupported } = figuresOf(scan);
      const groups = await chosenGroups(scan, groupIds);
      const report = await asJob(jobId, 'trash', context, (hooks) =>
        trashCopies(groups, {
          apply,
          keepers,
          sharingSupported,
          batchDir,
          ...hooks,
        }),
      );
      if (apply) await keepApplied(scansDir, scanId, scan, { action: 'trash', report });
      return report;
    },
    'space.trash.empty': async ({ batchId, apply, jobId }, context) =>
      asJob(apply ? jobId : undefined, 'trash-empty', context, (hooks) =>
        emptyTrashBatch(batchId, { apply, batchDir, ...hooks }),
      ),
    'space.sparse.list': async ({ path, listId }, context) =>
      followed(listId, 'sparse-list', context, (hooks) => listSparse(path, hooks)),
    'space.sparse.cancel': async ({ listId }, context) => ({
      cancelled: jobs.cancel(listId, context.session),
    }),
    'space.sparse.candidates': async ({ path, minBytes, listId }, context) =>
      followed(listId, 'sparse-candidates', context, (hooks) =>
        sparseCandidates(path, { minBytes, ...hooks }),
      ),
    'space.sparse.create': async ({ path, bytes }) => createSparse(path, bytes),
    'space.sparse.punch': async ({ path, apply, jobId }, context) => {
      if (jobId === undefined) return punchZeros(path, apply);
      return jobs.run({ jobId, kind: 'punch', origin: context }, (job) =>
        punchZeros(path, apply, {
          signal: job.signal,
          onRead: (bytesDone, bytesTotal) =>
            job.progress({ phase: 'read', done: 0, total: 1, bytesDone, bytesTotal }),
        }),
      );
    },
    'space.sparse.copy': async ({ from, to }) => copySparse(from, to),
  };
}
