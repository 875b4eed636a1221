/**
 * Duplicates on disks that cannot clone (NTFS, exFAT, HFS+, ext4): the chosen copies go to the
 * system's Trash, each verified identical to the copy that stays just before it moves. Nothing is
 * deleted in that step; the space comes back when the Trash is emptied, which Plumb offers as a
 * second, explicit step deleting exactly the files it moved (a batch), measured on the volume.
 *
 * What removing a copy frees is said per file before anything moves: a real copy its allocated
 * size; a clone of the kept file, or one name of a file with other names (hard links), nothing.
 */
import { randomUUID } from 'node:crypto';
import { lstat } from '../os-fs.js';
import { PlumbError, toErrorPayload } from '../../contract/errors.js';
import type {
  DuplicateFile,
  DuplicateGroup,
  EmptiedFile,
  EmptyTrashReport,
  TrashAction,
  TrashPlace,
  TrashReport,
} from '../../contract/space.js';
import { loadNative } from '../native/load.js';
import { sameContent } from './content.js';
import {
  applyEach,
  type ApplyProgress,
  cancelledBeforeFile,
  cannotChange,
  checkUnchanged,
  keeperOf,
  type LeftAlone,
  measureFreed,
  privateBytes,
  Skip,
  sumKnown,
} from './apply-steps.js';
import { plumbFolders } from '../paths.js';
import {
  BatchRecord,
  readBatch,
  removeBatch,
  settleInterrupted,
  type BatchItem,
} from './trash-batch.js';
import { deleteFromTrash, moveToTrash, noTrash, trashFor, type TrashCan } from './trash-can.js';

export interface TrashOptions {
  apply: boolean;
  /** The file to keep per group id; the scan's keeper when absent. */
  keepers?: Readonly<Record<string, string>>;
  /** From the scan: false means no clones on this file system, so every copy holds its blocks. */
  sharingSupported?: boolean | null;
  signal?: AbortSignal;
  /** Where batches are recorded (default: the state folder's space-trash). */
  batchDir?: string;
  onAction?: (action: TrashAction) => void;
  /** Called before the first file is moved and after each one. */
  onProgress?: (progress: ApplyProgress) => void;
}

function trashBatchDir(): string {
  return plumbFolders().spaceTrash;
}

export interface Frees {
  bytes: number | null;
  reason: string;
}

/**
 * What deleting `file` would free, from what the scan knows (hard links, clones of the keeper)
 * and how the file system stores it now.
 */
async function removalFrees(file: DuplicateFile, sharingSupported: boolean | null): Promise<Frees> {
  const now = await lstat(file.path);
  if (file.links > 1 || now.nlink > 1) {
    return { bytes: 0, reason: 'another name of this file (a hard link) keeps its data' };
  }
  if (file.alreadyClone === true) {
    return { bytes: 0, reason: 'a clone: it shares all its storage with the kept file' };
  }
  if (sharingSupported === false) {
    const allocated = await loadNative()
      .fileSharing(file.path)
      .then((storage) => storage.allocatedBytes)
      .catch(() => now.blocks * 512);
    return { bytes: allocated, reason: 'a real copy: its allocated size' };
  }
  const own = await privateBytes(file.path);
  if (own === null) {
    return { bytes: null, reason: 'the system does not say how this file is stored' };
  }
  return {
    bytes: own,
    reason: own === 0 ? 'a clone: all its blocks are shared' : 'the bytes no other file shares',
  };
}

async function place(
  file: string | undefined,
): Promise<{ can: TrashCan | null; place: TrashPlace }> {
  if (file === undefined) {
    return {
      can: null,
      place: { available: false, kind: null, location: null, reason: 'Nothing to move.' },
    };
  }
  try {
    const can = await trashFor(file, false);
    return { can, place: { available: true, kind: can.kind, location: can.dir, reason: null } };
  } catch (error) {
    if ((error as PlumbError).code !== 'ENOTRASH') throw error;
    return {
      can: null,
      place: { available: false, kind: null, location: null, reason: (error as Error).message },
    };
  }
}

function summarise(
  actions: TrashAction[],
  dryRun: boolean,
  batchId: string | null,
  trash: TrashPlace,
): TrashReport {
  const counted = (status: TrashAction['status']) =>
    actions.filter((a) => a.status === status).length;
  const counting = actions.filter((a) => a.status === (dryRun ? 'planned' : 'moved'));
  const predicted = sumKnown(counting.map((a) => a.freesBytes));
  return {
    dryRun,
    batchId,
    trash,
    actions,
    predictedBytes: predicted,
    counts: {
      planned: counted('planned'),
      moved: counted('moved'),
      skipped: counted('skipped'),
      failed: counted('failed'),
    },
  };
}

/**
 * Plans (dry run) or moves to the Trash every copy but the kept file of each group. Each copy is
 * checked unchanged since the scan (and the kept file too) and compared byte for byte with the
 * kept file just before it moves; anything else is skipped and stays where it is.
 */
export async function trashCopies(
  groups: readonly DuplicateGroup[],
  options: TrashOptions,
): Promise<TrashReport> {
  const sharingSupported = options.sharingSupported ?? null;
  const actions: TrashAction[] = [];
  const files = new Map<string, DuplicateFile>();
  const asked = new Map<string, Promise<LeftAlone | null>>();
  for (const group of groups) {
    const keeper = keeperOf(group, options.keepers);
    for (const file of group.files) {
      files.set(file.path, file);
      if (file.path === keeper) continue;
      const frees = await removalFrees(file, sharingSupported).catch((error: unknown): Frees => ({
        bytes: null,
        reason: toErrorPayload(error).message,
      }));
      const alone = await cannotChange(file.path, false, asked);
      actions.push({
        groupId: group.id,
        keeper,
        target: file.path,
        freesBytes: frees.bytes,
        freesReason: frees.reason,
        status: alone ? 'skipped' : 'planned',
        reason: alone?.reason ?? null,
        code: alone?.code ?? null,
        trashedPath: null,
      });
    }
  }
  const { can: checked, place: trash } = await place(actions[0]?.target);
  if (!trash.available) {
    for (const action of actions) {
      action.status = 'skipped';
      action.reason = trash.reason;
      action.code = 'ENOTRASH';
    }
  }
  if (!options.apply || !checked || actions.every((a) => a.status !== 'planned')) {
    if (options.apply && !checked && actions.length > 0)
      throw noTrash(trash.reason ?? 'No Trash is reachable.');
    return summarise(actions, !options.apply, null, trash);
  }
  const can = await trashFor(actions[0]!.target, true);
  const dir = options.batchDir ?? trashBatchDir();
  const interrupted = await settleInterrupted(dir);
  const batchId = randomUUID();
  // Made at the first move, so a run that moves nothing leaves no batch.
  let record: BatchRecord | undefined;
  let moved = 0;
  const each = { ...options, keeperWord: 'kept file' };
  try {
    await applyEach(actions, files, each, async (target, keeper, action) => {
      if (!(await sameContent(keeper.path, target.path, options.signal))) {
        throw new Skip('its bytes differ from the kept file; nothing was moved');
      }
      // Again just before the move: a write during the comparison must not go unseen.
      await checkUnchanged(target, 'file');
      await checkUnchanged(keeper, 'kept file');
      const before = await lstat(target.path);
      const item = {
        original: target.path,
        predictedBytes: action.freesBytes,
        ino: before.ino,
        size: before.size,
        mtimeMs: before.mtimeMs,
      };
      record ??= await BatchRecord.create(dir, batchId, can.dir);
      const batch = record;
      // Where it goes is on disk before it goes, and that it went right after (trash-batch.ts).
      let index = -1;
      const where = await moveToTrash(target.path, can, {
        intend: async (slot) => void (index = await batch.intend(item, slot)),
        abandon: async () => batch.abandoned(index),
      });
      await batch.moved(index, where);
      action.trashedPath = where.trashedPath;
      moved += 1;
      return 'moved';
    });
  } finally {
    await record?.close();
  }
  const report = summarise(actions, false, moved > 0 ? batchId : null, trash);
  if (record && moved === 0) await removeBatch(dir, batchId);
  return interrupted.length ? { ...report, interrupted } : report;
}

/** Why a batch's file may not be deleted now, or null when it is still what Plumb put there. */
async function stillAsMoved(item: BatchItem): Promise<string | null> {
  try {
    const now = await lstat(item.trashedPath);
    if (now.ino !== item.ino || now.size !== item.size || now.mtimeMs !== item.mtimeMs) {
      return 'it changed in the Trash since Plumb moved it there';
    }
    return null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return 'it is no longer in the Trash (put back, or the Trash was emptied)';
    }
    throw error;
  }
}

function emptySummary(
  batchId: string,
  files: EmptiedFile[],
  dryRun: boolean,
  measured: number | null,
): EmptyTrashReport {
  const counted = (status: EmptiedFile['status']) =>
    files.filter((f) => f.status === status).length;
  const counting = files.filter((f) => f.status === (dryRun ? 'planned' : 'deleted'));
  return {
    batchId,
    dryRun,
    files,
    predictedBytes: counting.some((f) => f.predictedBytes === null)
      ? null
      : counting.reduce((sum, f) => sum + f.predictedBytes!, 0),
    measuredFreedBytes: measured,
    counts: {
      planned: counted('planned'),
      deleted: counted('deleted'),
      skipped: counted('skipped'),
      failed: counted('failed'),
    },
  };
}

/**
 * The second step: deletes for good exactly the files of a batch that are still in the Trash as
 * Plumb left them (a file put back or changed is skipped), and measures the volume's free space
 * before and after. A dry run says what would be deleted.
 */
export async function emptyTrashBatch(
  batchId: string,
  options: {
    apply: boolean;
    batchDir?: string;
    /** Stops the emptying between files: those not reached stay in the Trash, and in the batch. */
    signal?: AbortSignal;
    /** Called before the first file and after each one (bytes as predicted). */
    onProgress?: (progress: ApplyProgress) => void;
  },
): Promise<EmptyTrashReport> {
  const dir = options.batchDir ?? trashBatchDir();
  if (options.apply) await settleInterrupted(dir);
  // A batch whose run was killed is settled first: every file it moved is in it.
  const batch = await readBatch(dir, batchId, options.apply);
  const files: EmptiedFile[] = [];
  for (const item of batch.items) {
    const why = await stillAsMoved(item);
    files.push({
      original: item.original,
      trashedPath: item.trashedPath,
      predictedBytes: item.predictedBytes,
      status: why ? 'skipped' : 'planned',
      reason: why,
    });
  }
  for (const original of batch.unaccounted) {
    files.push({
      original,
      trashedPath: '',
      predictedBytes: null,
      status: 'skipped',
      reason:
        'Plumb was stopped while the Recycle Bin took it, so it is not known which file there it is: restore or delete it there yourself',
    });
  }
  if (!options.apply) return emptySummary(batchId, files, true, null);
  const planned = [...files.entries()].filter(([, file]) => file.status === 'planned');
  const progress: ApplyProgress = {
    done: 0,
    total: planned.length,
    bytesDone: 0,
    bytesTotal: planned.reduce((sum, [, file]) => sum + (file.predictedBytes ?? 0), 0),
  };
  options.onProgress?.({ ...progress });
  const freed = await measureFreed(batch.trashDir, async () => {
    for (const [index, file] of planned) {
      if (options.signal?.aborted) {
        file.status = 'skipped';
        file.reason = cancelledBeforeFile;
        file.code = 'ECANCELED';
        continue;
      }
      try {
        await deleteFromTrash(batch.items[index]!);
        file.status = 'deleted';
      } catch (error) {
        file.status = 'failed';
        file.reason = toErrorPayload(error).message;
      }
      progress.done += 1;
      progress.bytesDone += file.predictedBytes ?? 0;
      options.onProgress?.({ ...progress });
    }
  });
  // The batch is done: what is left in the Trash is the user's again, to restore or empty. After
  // a cancel it is kept, so emptying it again deletes the rest (those deleted are skipped then).
  if (!files.some((file) => file.code === 'ECANCELED')) await removeBatch(dir, batchId);
  return emptySummary(batchId, files, false, freed);
}
