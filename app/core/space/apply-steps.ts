/**
 * What every apply over duplicate copies does the same way, whether the copies become clones
 * (dedupe.ts) or go to the Trash (trash.ts): the file kept per group, the checks that the scan's
 * facts still hold, one file at a time with its outcome in words, and the volume's free space
 * measured before and after.
 */
import { constants } from 'node:fs';
import path from 'node:path';
import { access, stat, statfs } from '../os-fs.js';
import { setTimeout as delay } from 'node:timers/promises';
import { PlumbError, toErrorPayload } from '../../contract/errors.js';
import type { DuplicateFile, DuplicateGroup } from '../../contract/space.js';
import { loadNative } from '../native/load.js';

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

/** The sum of byte counts, or null when any of them is unknown (one unknown makes the total so). */
export function sumKnown(values: readonly (number | null)[]): number | null {
  let total = 0;
  for (const value of values) {
    if (value === null) return null;
    total += value;
  }
  return total;
}

/**
 * The file to keep in a group: the one chosen for it (by hand, or the copy in a chosen folder),
 * else the scan's (the oldest, holding the fewest bytes of its own).
 */
export function keeperOf(
  group: DuplicateGroup,
  keepers: Readonly<Record<string, string>> | undefined,
): string {
  const chosen = keepers?.[group.id];
  if (chosen === undefined) return group.keeper;
  if (!group.files.some((f) => f.path === chosen)) {
    throw new PlumbError(
      'EINVAL',
      `${chosen} is not a file of group ${group.id}; choose one of its files to keep.`,
    );
  }
  return chosen;
}

/** Why an action leaves a file alone, as a reason in words and a code. */
export interface LeftAlone {
  reason: string;
  code: string;
}

/**
 * Why `file` cannot be changed here, known before anything is tried: its disk is read-only, or
 * Plumb may not write where the change is made (`inPlace`: the file itself, as the kernel's dedupe
 * does; otherwise its folder, where a clone or a move is made). null when nothing stands in the way
 * (anything else is left for the apply to meet and report). Folders are asked once each (`asked`).
 */
export async function cannotChange(
  file: string,
  inPlace: boolean,
  asked: Map<string, Promise<LeftAlone | null>> = new Map(),
): Promise<LeftAlone | null> {
  const where = inPlace ? file : path.dirname(file);
  let answer = asked.get(where);
  if (!answer) {
    answer = access(where, constants.W_OK).then(
      () => null,
      (error: NodeJS.ErrnoException) =>
        error.code === 'EROFS'
          ? { reason: 'its disk is read-only, so nothing on it can be changed', code: 'EROFS' }
          : error.code === 'EACCES' || error.code === 'EPERM'
            ? {
                reason: `Plumb may not change ${inPlace ? 'this file' : `files in ${where}`}`,
                code: error.code,
              }
            : null,
    );
    asked.set(where, answer);
  }
  return answer;
}

/** The bytes of a file no other file holds (what replacing or deleting it frees); null if unknown. */
export async function privateBytes(file: string): Promise<number | null> {
  const storage = await loadNative()
    .fileSharing(file)
    .catch(() => null);
  if (storage?.privateBytes !== null && storage?.privateBytes !== undefined) {
    return storage.privateBytes;
  }
  if (storage?.extents) {
    const own = storage.extents.filter((e) => !e.shared).reduce((sum, e) => sum + e.length, 0);
    return Math.min(own, storage.allocatedBytes);
  }
  return null;
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
async function freeBytes(dir: string): Promise<number> {
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

/** Runs `work` and says how many bytes the volume holding `dir` gained meanwhile (measured). */
export async function measureFreed(dir: string, work: () => Promise<void>): Promise<number> {
  const before = await freeBytes(dir);
  await work();
  return (await freeBytes(dir)) - before;
}

/** The fields of a planned action an apply settles. */
export interface ApplyAction {
  keeper: string;
  target: string;
  status: string;
  reason: string | null;
  code: string | null;
}

/** An action's outcome from what stopped it: skipped (the file is fine) or failed, in words. */
function settleAction(action: ApplyAction, error: unknown): void {
  const payload = toErrorPayload(error);
  const skip = (reason: string, code: string | null) => {
    action.status = 'skipped';
    action.reason = reason;
    action.code = code;
  };
  if (error instanceof Skip) skip(error.message, action.code);
  else if (payload.code === 'EBUSY' || payload.code === 'ETXTBSY')
    skip('it is in use by another program', payload.code);
  else if (payload.code === 'ENOENT') skip('it no longer exists', payload.code);
  else {
    action.status = 'failed';
    action.reason = payload.message;
    action.code = payload.code;
  }
}

/** The reason of a file an apply's cancel kept it from (its code is ECANCELED). */
export const cancelledBeforeFile = 'cancelled before this file';

/** How far an apply has got: files settled (done, skipped or failed) and their bytes. */
export interface ApplyProgress {
  done: number;
  total: number;
  bytesDone: number;
  bytesTotal: number;
}

export interface ApplyEachOptions<A> {
  /** Stops the apply between files: the file under way is finished or left as it was. */
  signal?: AbortSignal;
  /** Called after each file with the action as it ended. */
  onAction?: (action: A) => void;
  /** Called before the first file and after each one. */
  onProgress?: (progress: ApplyProgress) => void;
  /** How the kept file is named in a reason ("the keeper changed since the scan"). */
  keeperWord: string;
}

/**
 * Applies `work` to each planned action in order: after a cancel the rest are skipped; before the
 * work, the copy and the kept file must be as the scan found them; the work's result is the
 * action's new status, and what stops it is said in words (settleAction).
 */
export async function applyEach<A extends ApplyAction>(
  actions: readonly A[],
  files: ReadonlyMap<string, DuplicateFile>,
  options: ApplyEachOptions<A>,
  work: (target: DuplicateFile, keeper: DuplicateFile, action: A) => Promise<A['status']>,
): Promise<void> {
  const planned = actions.filter((action) => action.status === 'planned');
  const progress: ApplyProgress = {
    done: 0,
    total: planned.length,
    bytesDone: 0,
    bytesTotal: planned.reduce((sum, action) => sum + (files.get(action.target)?.size ?? 0), 0),
  };
  options.onProgress?.({ ...progress });
  for (const action of planned) {
    const settled: ApplyAction = action;
    if (options.signal?.aborted) {
      settled.status = 'skipped';
      settled.reason = cancelledBeforeFile;
      settled.code = 'ECANCELED';
      continue;
    }
    const target = files.get(action.target)!;
    try {
      const keeper = files.get(action.keeper)!;
      await checkUnchanged(target, 'file');
      await checkUnchanged(keeper, options.keeperWord);
      action.status = await work(target, keeper, action);
    } catch (error) {
      if (options.signal?.aborted && (error as { name?: unknown }).name === 'AbortError') {
        // Stopped in this file's comparison, before anything was done to it (a clone is rolled back).
        settled.status = 'skipped';
        settled.reason = 'cancelled during this file; it was left as it was';
        settled.code = 'ECANCELED';
        options.onAction?.(action);
        continue;
      }
      settleAction(action, error);
    }
    progress.done += 1;
    progress.bytesDone += target.size;
    options.onAction?.(action);
    options.onProgress?.({ ...progress });
  }
}
