/**
 * The space operations of the contract. Scans run in the background, report through
 * `space.event`, and are kept (the last few) so a dedupe can act on exactly what was shown.
 */
import { randomUUID } from 'node:crypto';
import { PlumbError, toErrorPayload } from '../../contract/errors.js';
import type { JobKind } from '../../contract/jobs.js';
import type { DedupeReport, ScanProgress, ScanResult, TrashReport } from '../../contract/space.js';
import type { CallContext, Handlers } from '../dispatch.js';
import type { PlumbFolders } from '../paths.js';
import { jobs } from '../jobs/service.js';
import { scanAfterApply } from './after-apply.js';
import type { ApplyEachOptions } from './apply-steps.js';
import { dedupeGroups } from './dedupe.js';
import { recoverInterrupted, type RecoveryStep } from './journal.js';
import { loadLastScan, saveLastScan } from './last-scan.js';
import { scanFolder } from './scan.js';
import { copySparse } from './sparse-copy.js';
import { createSparse, listSparse, punchZeros, type SparseListHooks } from './sparse.js';
import { sparseCandidates } from './sparse-candidates.js';
import { emptyTrashBatch, trashCopies } from './trash.js';

type SpaceOperation =
  | 'space.scan'
  | 'space.cancel'
  | 'space.result'
  | 'space.lastScan'
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
  result: ScanResult | null;
}

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
    if (scans.get(id)!.result !== null) scans.delete(id);
  }
}

function finishedScan(scanId: string): ScanResult {
  const result = scans.get(scanId)?.result;
  if (!result) {
    throw new PlumbError(
      'ENOSCAN',
      'That scan is not finished or no longer kept; scan the folder again.',
    );
  }
  return result;
}

/**
 * The kept scan `scanId` brought up to date by an apply on it (the copies it changed), in memory
 * and on disk, so the view, a reopen and the next apply all see the folder as it now is. It keeps
 * the time of its scan: what the apply did not touch is as that scan found it.
 */
async function keepApplied(
  scansDir: string,
  scanId: string,
  scanned: ScanResult,
  applied: { action: 'clone'; report: DedupeReport } | { action: 'trash'; report: TrashReport },
): Promise<void> {
  const updated = await scanAfterApply(scanned, applied);
  const entry = scans.get(scanId);
  if (updated === scanned || entry?.result !== scanned) return;
  entry.result = updated;
  const saved = await loadLastScan(scansDir, scanned.root).catch(() => null);
  const savedAt = saved?.result.scanId === scanId ? new Date(saved.savedAt) : new Date();
  await saveLastScan(scansDir, updated, savedAt).catch(() => undefined);
}

/** The groups of a scan to act on: those named, or all of them. */
function chosenGroups(result: ScanResult, groupIds: readonly string[] | undefined) {
  const wanted = groupIds ? new Set(groupIds) : null;
  return wanted ? result.groups.filter((g) => wanted.has(g.id)) : result.groups;
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
        scanFolder(options, {
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
        async (result) => {
          entry.result = result;
          context.emit('space.event', { type: 'done', scanId, result });
          // Kept so reopening the view shows it (the CLI does not keep its scans: a one-shot
          // command would hold the whole result twice to write it). A data folder that cannot be
          // written costs only that.
          await saveLastScan(scansDir, result).catch(() => undefined);
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
    'space.result': async ({ scanId }) => scans.get(scanId)?.result ?? null,
    'space.lastScan': async ({ path }) => {
      const saved = await loadLastScan(scansDir, path);
      // Kept like a new scan, so dedupe and Trash act on exactly what is shown.
      if (saved) remember(saved.result.scanId, { result: saved.result });
      return saved;
    },
    'space.dedupe': async ({ scanId, groupIds, keepers, apply, jobId }, context) => {
      await recoverOnce(journalDir);
      const result = finishedScan(scanId);
      const { sharingSupported } = result;
      const report = await asJob(jobId, 'dedupe', context, (hooks) =>
        dedupeGroups(chosenGroups(result, groupIds), {
          apply,
          keepers,
          sharingSupported,
          journalDir,
          ...hooks,
        }),
      );
      if (apply) await keepApplied(scansDir, scanId, result, { action: 'clone', report });
      return report;
    },
    'space.recover': async () => recoverOnce(journalDir),
    'space.trash': async ({ scanId, groupIds, keepers, apply, jobId }, context) => {
      const result = finishedScan(scanId);
      const { sharingSupported } = result;
      const report = await asJob(jobId, 'trash', context, (hooks) =>
        trashCopies(chosenGroups(result, groupIds), {
          apply,
          keepers,
          sharingSupported,
          batchDir,
          ...hooks,
        }),
      );
      if (apply) await keepApplied(scansDir, scanId, result, { action: 'trash', report });
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
