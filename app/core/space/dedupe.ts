/**
 * Turning duplicate copies into clones of one keeper, without ever risking a file.
 *
 * dedupe-range (Linux): FIDEDUPERANGE, in which the kernel compares the bytes and shares only
 * ranges found equal, atomically, in place: the inode, its times and links stay as they were.
 * clone-rename (macOS, Windows; testable on Linux): clone the keeper to a temporary file beside
 * the copy, compare it byte for byte with the copy, give it the copy's metadata, and rename it over
 * the copy. A journal records each step so a crash is completed or rolled back on the next start.
 */
import { open, rename, stat, statfs, unlink } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type {
  DedupeAction,
  DedupeMethod,
  DedupeReport,
  DuplicateFile,
  DuplicateGroup,
} from '../../contract/space.js';
import { toErrorPayload } from '../../contract/errors.js';
import { loadNative } from '../native/load.js';
import { sameContent } from './content.js';
import { DedupeJournal, journalDir, tempPathFor, type FolderTimes } from './journal.js';
import { compressedByFileSystem } from './scan.js';

export interface DedupeOptions {
  apply: boolean;
  /** Default: dedupe-range on Linux, clone-rename elsewhere. */
  method?: DedupeMethod;
  signal?: AbortSignal;
  journalDir?: string;
  /** From the scan: false means the file system cannot share storage, so nothing is attempted. */
  sharingSupported?: boolean | null;
  /** Called after each file with the action as it ended. */
  onAction?: (action: DedupeAction) => void;
}

export function defaultMethod(platform: NodeJS.Platform = process.platform): DedupeMethod {
  return platform === 'linux' ? 'dedupe-range' : 'clone-rename';
}

/** Skipped, not failed: the file is fine and was deliberately left alone. */
export class Skip extends Error {}

/** The scan's facts still hold: same inode, size and times. */
export async function checkUnchanged(file: DuplicateFile, what: string): Promise<void> {
  const now = await stat(file.path);
  if (
    now.ino !== file.ino ||
    now.size !== file.size ||
    now.mtimeMs !== file.mtimeMs ||
    now.ctimeMs !== file.ctimeMs
  ) {
    throw new Skip(`the ${what} changed since the scan`);
  }
}

async function folderTimes(dir: string): Promise<FolderTimes> {
  const s = await stat(dir, { bigint: true });
  return { path: dir, atimeNs: s.atimeNs.toString(), mtimeNs: s.mtimeNs.toString() };
}

async function fsyncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some platforms cannot fsync a folder (Windows); the rename itself is still atomic.
    if (
      !['EPERM', 'EISDIR', 'EINVAL', 'EBADF'].includes((error as NodeJS.ErrnoException).code ?? '')
    ) {
      throw error;
    }
  } finally {
    await handle.close();
  }
}

const settleReadings = 3;
const settleGapMs = 25;
const settleLimitMs = 2000;

/**
 * Free bytes once the volume has settled: after a flush (delayed allocation), and after frees the
 * file system makes in the background. XFS releases a deleted file's blocks from a worker that
 * neither syncfs nor statfs waits for (statfs only starts it), so a reading taken at once missed
 * a whole replaced copy about one time in five. Reads until three readings 25 ms apart agree, for
 * at most two seconds.
 */
export async function freeBytes(dir: string): Promise<number> {
  await loadNative().flushVolume(dir);
  const read = async () => {
    const s = await statfs(dir);
    return s.bfree * s.bsize;
  };
  let last = await read();
  const deadline = Date.now() + settleLimitMs;
  for (let agreeing = 1; agreeing < settleReadings && Date.now() < deadline;) {
    await delay(settleGapMs);
    const now = await read();
    agreeing = now === last ? agreeing + 1 : 1;
    last = now;
  }
  return last;
}

async function replaceByDedupeRange(
  journal: DedupeJournal,
  keeper: string,
  target: DuplicateFile,
): Promise<void> {
  const id = await journal.begin({ kind: 'dedupe-range', target: target.path, keeper });
  let outcome;
  try {
    outcome = await loadNative().dedupeFile(keeper, target.path);
  } finally {
    await journal.done(id); // atomic and verified by the kernel: nothing to finish or undo
  }
  if (outcome.differs) throw new Skip('the kernel found different bytes; nothing was changed');
}

/** Removes the temporary clone; the original was never touched. */
async function rollBack(journal: DedupeJournal, id: number, temp: string): Promise<void> {
  try {
    await unlink(temp);
  } catch (error) {
    // Left open in the journal when the clone cannot be removed, so the next start retries.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
  }
  await journal.done(id);
}

async function replaceByCloneRename(
  journal: DedupeJournal,
  keeper: string,
  target: DuplicateFile,
  signal?: AbortSignal,
): Promise<void> {
  if (target.links > 1 || (await stat(target.path)).nlink > 1) {
    throw new Skip('it has hard links, which replacing it would split');
  }
  const native = loadNative();
  const temp = tempPathFor(target.path);
  const parent = await folderTimes(path.dirname(target.path));
  const ino = (await stat(target.path, { bigint: true })).ino.toString();
  const id = await journal.begin({
    kind: 'clone-rename',
    target: target.path,
    keeper,
    temp,
    ino,
    parent,
  });
  let renamed = false;
  try {
    await native.cloneFile(keeper, temp);
    if (!(await sameContent(temp, target.path, signal))) {
      throw new Skip('its bytes differ from the keeper; nothing was changed');
    }
    await native.copyMetadata(target.path, temp);
    await checkUnchanged(target, 'file');
    await journal.stage(id, 'ready');
    await rename(temp, target.path);
    renamed = true;
    await fsyncFolder(parent.path);
    await journal.stage(id, 'renamed');
  } finally {
    if (!renamed) await rollBack(journal, id, temp);
  }
  // The copy is already replaced by its verified clone; if the folder's times cannot be put back,
  // the journal entry stays open so the next start tries again.
  await native.setTimes(parent.path, BigInt(parent.atimeNs), BigInt(parent.mtimeNs));
  await journal.done(id);
}

function plannedActions(
  groups: readonly DuplicateGroup[],
  sharingSupported: boolean | null,
): DedupeAction[] {
  const actions: DedupeAction[] = [];
  for (const group of groups) {
    for (const file of group.files) {
      if (file.path === group.keeper) continue;
      const reason =
        sharingSupported === false
          ? 'this file system cannot share storage between files'
          : file.alreadyClone === true
            ? 'already shares all its storage with the keeper'
            : null;
      actions.push({
        groupId: group.id,
        keeper: group.keeper,
        target: file.path,
        predictedBytes: file.reclaimableBytes,
        status: reason ? 'skipped' : 'planned',
        reason,
        code: null,
      });
    }
  }
  return actions;
}

function summarise(
  actions: DedupeAction[],
  dryRun: boolean,
  method: DedupeMethod,
  measuredFreedBytes: number | null,
): DedupeReport {
  const counted = (status: DedupeAction['status']) =>
    actions.filter((a) => a.status === status).length;
  const counting = actions.filter((a) => a.status === (dryRun ? 'planned' : 'done'));
  const predicted = counting.some((a) => a.predictedBytes === null)
    ? null
    : counting.reduce((sum, a) => sum + a.predictedBytes!, 0);
  return {
    dryRun,
    method,
    actions,
    predictedBytes: predicted,
    measuredFreedBytes,
    counts: {
      planned: counted('planned'),
      done: counted('done'),
      skipped: counted('skipped'),
      failed: counted('failed'),
    },
  };
}

/**
 * Plans (dry run) or applies clones for the given groups. Every copy that changed since the scan,
 * is compressed, or fails verification is skipped; failures are reported per file with their code.
 */
export async function dedupeGroups(
  groups: readonly DuplicateGroup[],
  options: DedupeOptions,
): Promise<DedupeReport> {
  const method = options.method ?? defaultMethod();
  const actions = plannedActions(groups, options.sharingSupported ?? null);
  if (!options.apply || actions.every((a) => a.status !== 'planned')) {
    return summarise(actions, !options.apply, method, null);
  }
  const files = new Map(groups.flatMap((g) => g.files.map((f) => [f.path, f] as const)));
  const volume = path.dirname(actions[0]!.target);
  const before = await freeBytes(volume);
  const journal = await DedupeJournal.create(options.journalDir ?? journalDir());
  try {
    for (const action of actions) {
      if (action.status !== 'planned') continue;
      if (options.signal?.aborted) {
        action.status = 'skipped';
        action.reason = 'cancelled before this file';
        continue;
      }
      try {
        const target = files.get(action.target)!;
        await checkUnchanged(target, 'file');
        await checkUnchanged(files.get(action.keeper)!, 'keeper');
        const compressed = await Promise.all([
          compressedByFileSystem(action.keeper),
          compressedByFileSystem(action.target),
        ]);
        if (compressed.includes(true)) {
          throw new Skip('it is compressed by the file system, which a clone would undo');
        }
        if (method === 'dedupe-range') await replaceByDedupeRange(journal, action.keeper, target);
        else await replaceByCloneRename(journal, action.keeper, target, options.signal);
        action.status = 'done';
      } catch (error) {
        const payload = toErrorPayload(error);
        if (error instanceof Skip) {
          action.status = 'skipped';
          action.reason = error.message;
        } else if (payload.code === 'EBUSY' || payload.code === 'ETXTBSY') {
          action.status = 'skipped';
          action.reason = 'it is in use by another program';
          action.code = payload.code;
        } else if (payload.code === 'ENOENT') {
          action.status = 'skipped';
          action.reason = 'it no longer exists';
          action.code = payload.code;
        } else {
          action.status = 'failed';
          action.reason = payload.message;
          action.code = payload.code;
        }
      }
      options.onAction?.(action);
    }
  } finally {
    await journal.close();
  }
  const after = await freeBytes(volume);
  return summarise(actions, false, method, after - before);
}
