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
import { lstat, readFile, rm } from '../os-fs.js';
import path from 'node:path';
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
import { writeFileAtomic } from '../atomic-file.js';
import { loadNative } from '../native/load.js';
import { sameContent } from './content.js';
import {
  applyEach,
  checkUnchanged,
  keeperOf,
  measureFreed,
  privateBytes,
  Skip,
  sumKnown,
} from './apply-steps.js';
import { stateDir } from './journal.js';
import {
  deleteFromTrash,
  moveToTrash,
  noTrash,
  trashFor,
  type TrashCan,
  type TrashedFile,
} from './trash-can.js';

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
}

/** A file a batch moved, as it was found in the Trash right after (to delete only that file). */
interface BatchItem extends TrashedFile {
  original: string;
  predictedBytes: number | null;
  ino: number;
  size: number;
  mtimeMs: number;
}

interface Batch {
  schema: 'plumb.trash-batch/1';
  batchId: string;
  createdAt: string;
  trashDir: string;
  items: BatchItem[];
}

export function trashBatchDir(): string {
  return path.join(stateDir(), 'space-trash');
}

export interface Frees {
  bytes: number | null;
  reason: string;
}

/**
 * What deleting `file` would free, from what the scan knows (hard links, clones of the keeper)
 * and how the file system stores it now.
 */
export async function removalFrees(
  file: DuplicateFile,
  sharingSupported: boolean | null,
): Promise<Frees> {
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

async function saveBatch(dir: string, batch: Batch): Promise<void> {
  await writeFileAtomic(
    path.join(dir, `${batch.batchId}.json`),
    `${JSON.stringify(batch, null, 1)}\n`,
  );
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
  for (const group of groups) {
    const keeper = keeperOf(group, options.keepers);
    for (const file of group.files) {
      files.set(file.path, file);
      if (file.path === keeper) continue;
      const frees = await removalFrees(file, sharingSupported).catch((error: unknown): Frees => ({
        bytes: null,
        reason: toErrorPayload(error).message,
      }));
      actions.push({
        groupId: group.id,
        keeper,
        target: file.path,
        freesBytes: frees.bytes,
        freesReason: frees.reason,
        status: 'planned',
        reason: null,
        code: null,
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
  if (!options.apply || !checked) {
    if (options.apply && actions.length > 0)
      throw noTrash(trash.reason ?? 'No Trash is reachable.');
    return summarise(actions, !options.apply, null, trash);
  }
  const can = await trashFor(actions[0]!.target, true);
  const batch: Batch = {
    schema: 'plumb.trash-batch/1',
    batchId: randomUUID(),
    createdAt: new Date().toISOString(),
    trashDir: can.dir,
    items: [],
  };
  const dir = options.batchDir ?? trashBatchDir();
  const each = { ...options, keeperWord: 'kept file' };
  await applyEach(actions, files, each, async (target, keeper, action) => {
    if (!(await sameContent(keeper.path, target.path, options.signal))) {
      throw new Skip('its bytes differ from the kept file; nothing was moved');
    }
    // Again just before the move: a write during the comparison must not go unseen.
    await checkUnchanged(target, 'file');
    await checkUnchanged(keeper, 'kept file');
    const moved = await moveToTrash(target.path, can);
    const now = await lstat(moved.trashedPath);
    action.trashedPath = moved.trashedPath;
    batch.items.push({
      ...moved,
      original: target.path,
      predictedBytes: action.freesBytes,
      ino: now.ino,
      size: now.size,
      mtimeMs: now.mtimeMs,
    });
    // Recorded after every file, so a crash never loses which files the batch moved.
    await saveBatch(dir, batch);
    return 'moved';
  });
  return summarise(actions, false, batch.items.length ? batch.batchId : null, trash);
}

async function readBatch(dir: string, batchId: string): Promise<Batch> {
  try {
    const batch = JSON.parse(await readFile(path.join(dir, `${batchId}.json`), 'utf8')) as Batch;
    if (batch.schema !== 'plumb.trash-batch/1') throw new Error(`unknown schema ${batch.schema}`);
    return batch;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new PlumbError(
        'ENOBATCH',
        `No files moved to the Trash by Plumb are recorded as batch ${batchId} (already deleted, or another id); nothing was deleted.`,
      );
    }
    throw error;
  }
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
  options: { apply: boolean; batchDir?: string },
): Promise<EmptyTrashReport> {
  const dir = options.batchDir ?? trashBatchDir();
  const batch = await readBatch(dir, batchId);
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
  if (!options.apply) return emptySummary(batchId, files, true, null);
  const freed = await measureFreed(batch.trashDir, async () => {
    for (const [index, file] of files.entries()) {
      if (file.status !== 'planned') continue;
      try {
        await deleteFromTrash(batch.items[index]!);
        file.status = 'deleted';
      } catch (error) {
        file.status = 'failed';
        file.reason = toErrorPayload(error).message;
      }
    }
  });
  // The batch is done: what is left in the Trash is the user's again, to restore or empty.
  await rm(path.join(dir, `${batchId}.json`), { force: true });
  return emptySummary(batchId, files, false, freed);
}
