/**
 * Turning duplicate copies into clones of one keeper, without ever risking a file.
 *
 * dedupe-range (Linux): FIDEDUPERANGE, in which the kernel compares the bytes and shares only
 * ranges found equal, atomically, in place: the inode, its times and links stay as they were.
 * clone-rename (macOS, Windows; testable on Linux): clone the keeper to a temporary file beside
 * the copy, compare it byte for byte with the copy, give it the copy's metadata, then swap it in
 * with the addon's guarded replace (native replaceWithClone): a copy another program has open is
 * skipped, and one written or opened in the last instant is swapped back, so no write is lost. A
 * journal records each step so a crash is completed or rolled back on the next start.
 */
import { link, open, stat, unlink, writeFile } from '../os-fs.js';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { NativeReplaceResult } from '../../../native/index.js';
import { alreadySharedCode } from '../../common/space-codes.js';
import type {
  DedupeAction,
  DedupeMethod,
  DedupeReport,
  DuplicateFile,
  DuplicateGroup,
} from '../../contract/space.js';
import { loadNative } from '../native/load.js';
import { hostOs, osModule } from '../os/index.js';
import { privateFolder } from '../paths.js';
import {
  applyEach,
  type ApplyProgress,
  cannotChange,
  checkUnchanged,
  keeperOf,
  type LeftAlone,
  measureFreed,
  privateBytes,
  Skip,
  sumKnown,
} from './apply-steps.js';
import { sameContent } from './content.js';
import {
  DedupeJournal,
  journalDir,
  lockHolderGone,
  restoreFolderTimes,
  settleCloneRename,
  volumeLockName,
  swapPathFor,
  tempPathFor,
  type FolderTimes,
  type JournalEntry,
} from './journal.js';
import { compressedByFileSystem } from './scan.js';

export interface DedupeOptions {
  apply: boolean;
  /** Default: dedupe-range on Linux, clone-rename elsewhere. */
  method?: DedupeMethod;
  signal?: AbortSignal;
  journalDir?: string;
  /** From the scan: false means the file system cannot share storage, so nothing is attempted. */
  sharingSupported?: boolean | null;
  /** The file to keep per group id (the one the others become clones of); the scan's otherwise. */
  keepers?: Readonly<Record<string, string>>;
  /** Called after each file with the action as it ended. */
  onAction?: (action: DedupeAction) => void;
  /** Called before the first file is applied and after each one. */
  onProgress?: (progress: ApplyProgress) => void;
}

export function defaultMethod(platform: NodeJS.Platform = hostOs.platform): DedupeMethod {
  return osModule(platform).dedupeMethod;
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

/** Applies running in this process, per lock file: each waits for the one before it. */
const applying = new Map<string, Promise<void>>();

/**
 * Serializes applies on one volume, across processes too (a lock file in the journal folder that
 * names the holder's process), so the free space measured before and after one apply is freed by
 * that apply alone: two at once each reported the whole volume's gain. A lock whose process is
 * gone is taken over. Resolves with the release, or null if cancelled while waiting.
 */
async function lockVolume(
  volume: string,
  dir: string,
  signal?: AbortSignal,
): Promise<(() => Promise<void>) | null> {
  const file = path.join(dir, volumeLockName((await stat(volume)).dev));
  const previous = applying.get(file) ?? Promise.resolve();
  let releaseHere!: () => void;
  const mine = previous.then(() => new Promise<void>((resolve) => (releaseHere = resolve)));
  applying.set(file, mine);
  await previous;
  const release = async (): Promise<void> => {
    releaseHere();
    if (applying.get(file) === mine) applying.delete(file);
  };
  await privateFolder(dir);
  // Written whole under a private name, then linked: a reader never sees a half-written lock.
  const mark = `${file}-${process.pid}-${Date.now()}`;
  await writeFile(mark, String(process.pid));
  try {
    for (;;) {
      try {
        await link(mark, file);
        return async () => {
          await unlink(file).catch(() => undefined);
          await release();
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      if (await lockHolderGone(file)) {
        await unlink(file).catch(() => undefined);
        continue;
      }
      if (signal?.aborted) {
        await release();
        return null;
      }
      await delay(50);
    }
  } catch (error) {
    await release();
    throw error;
  } finally {
    await unlink(mark).catch(() => undefined);
  }
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

/**
 * Puts the original back (wherever the replace stopped) and removes the clone, then the folder's
 * times, which creating and removing the clone moved. The journal entry stays open when this
 * fails, so the next start finishes it.
 */
async function rollBack(
  journal: DedupeJournal,
  id: number,
  entry: Extract<JournalEntry, { kind: 'clone-rename' }>,
): Promise<void> {
  try {
    await settleCloneRename(entry);
    await restoreFolderTimes(entry.parent);
  } catch {
    return;
  }
  await journal.done(id);
}

function notReplacedReason(result: NativeReplaceResult): string {
  const reason = {
    'in-use': 'another program has it open, and replacing it could lose what that program writes',
    changed: 'it changed while it was being replaced; it was left as it is',
    opened: 'another program opened it while it was being replaced; it was left as it is',
    replaced: '',
  }[result.outcome];
  return result.keptPath
    ? `${reason} (a program also opened its clone, kept as ${result.keptPath})`
    : reason;
}

/** The guarded replace left the original in place; `result` says why. */
class NotReplaced extends Skip {
  constructor(readonly result: NativeReplaceResult) {
    super(notReplacedReason(result));
  }
}

/**
 * Replaces `target` by a verified clone of `keeper`. `reshape`, when given, changes the clone
 * before it is compared with the target (it must not change what the clone reads).
 */
async function replaceByCloneRename(
  journal: DedupeJournal,
  keeper: string,
  target: DuplicateFile,
  signal?: AbortSignal,
  reshape?: (clone: string) => Promise<void>,
): Promise<void> {
  // The facts the guarded replace must still find at the end, to the nanosecond.
  const facts = await stat(target.path, { bigint: true });
  if (target.links > 1 || facts.nlink > 1n) {
    throw new Skip('it has hard links, which replacing it would split');
  }
  const native = loadNative();
  const temp = tempPathFor(target.path);
  const entry = {
    kind: 'clone-rename' as const,
    target: target.path,
    keeper,
    temp,
    swap: swapPathFor(temp),
    ino: facts.ino.toString(),
    size: Number(facts.size),
    mtimeNs: facts.mtimeNs.toString(),
    parent: await folderTimes(path.dirname(target.path)),
  };
  const id = await journal.begin(entry);
  let replaced = false;
  try {
    await native.cloneFile(keeper, temp);
    await reshape?.(temp);
    if (!(await sameContent(temp, target.path, signal))) {
      throw new Skip(
        reshape
          ? 'it changed while the holes were being made; nothing was changed'
          : 'its bytes differ from the keeper; nothing was changed',
      );
    }
    await native.copyMetadata(target.path, temp);
    await checkUnchanged(target, 'file');
    await journal.stage(id, 'ready');
    const result = await native.replaceWithClone(temp, target.path, entry.swap, {
      ino: facts.ino,
      size: Number(facts.size),
      mtimeNs: facts.mtimeNs,
      ctimeNs: facts.ctimeNs,
    });
    if (result.outcome !== 'replaced') throw new NotReplaced(result);
    replaced = true;
    await journal.stage(id, 'replaced');
    await fsyncFolder(entry.parent.path);
  } finally {
    if (!replaced) await rollBack(journal, id, entry);
  }
  // The copy is already replaced by its verified clone; if the folder's times cannot be put back,
  // the journal entry stays open so the next start tries again.
  await restoreFolderTimes(entry.parent);
  await journal.done(id);
}

/**
 * Every copy but the kept file of each group, with what cloning it would free: the scan's figure
 * when the scan's keeper stays; for another kept file, the bytes only that copy holds now (copies
 * already cloned from one another may free more than that).
 */
async function plannedActions(
  groups: readonly DuplicateGroup[],
  sharingSupported: boolean | null,
  keepers: DedupeOptions['keepers'],
  method: DedupeMethod,
): Promise<DedupeAction[]> {
  const actions: DedupeAction[] = [];
  const asked = new Map<string, Promise<LeftAlone | null>>();
  for (const group of groups) {
    const keeper = keeperOf(group, keepers);
    const asScanned = keeper === group.keeper;
    for (const file of group.files) {
      if (file.path === keeper) continue;
      const alone: LeftAlone | null =
        sharingSupported === false
          ? { reason: 'this file system cannot share storage between files', code: 'ENOTSUP' }
          : asScanned && file.alreadyClone === true
            ? { reason: 'already shares all its storage with the keeper', code: alreadySharedCode }
            : await cannotChange(file.path, method === 'dedupe-range', asked);
      actions.push({
        groupId: group.id,
        keeper,
        target: file.path,
        predictedBytes: asScanned || alone ? file.reclaimableBytes : await privateBytes(file.path),
        status: alone ? 'skipped' : 'planned',
        reason: alone?.reason ?? null,
        code: alone?.code ?? null,
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
  const predicted = sumKnown(counting.map((a) => a.predictedBytes));
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
  const actions = await plannedActions(
    groups,
    options.sharingSupported ?? null,
    options.keepers,
    method,
  );
  if (!options.apply || actions.every((a) => a.status !== 'planned')) {
    return summarise(actions, !options.apply, method, null);
  }
  const files = new Map(groups.flatMap((g) => g.files.map((f) => [f.path, f] as const)));
  const volume = path.dirname(actions[0]!.target);
  const dir = options.journalDir ?? journalDir();
  const unlock = await lockVolume(volume, dir, options.signal);
  if (!unlock) {
    for (const action of actions.filter((a) => a.status === 'planned')) {
      action.status = 'skipped';
      action.reason = 'cancelled before this file';
      action.code = 'ECANCELED';
    }
    return summarise(actions, false, method, null);
  }
  try {
    return await applyActions(actions, files, volume, dir, method, options);
  } finally {
    await unlock();
  }
}

/** Applies the planned actions in order, under the volume's lock, and measures what was freed. */
async function applyActions(
  actions: DedupeAction[],
  files: Map<string, DuplicateFile>,
  volume: string,
  dir: string,
  method: DedupeMethod,
  options: DedupeOptions,
): Promise<DedupeReport> {
  const freed = await measureFreed(volume, async () => {
    const journal = await DedupeJournal.create(dir);
    try {
      const each = { ...options, keeperWord: 'keeper' };
      await applyEach(actions, files, each, async (target, keeper) => {
        const compressed = await Promise.all([
          compressedByFileSystem(keeper.path),
          compressedByFileSystem(target.path),
        ]);
        if (compressed.includes(true)) {
          throw new Skip('it is compressed by the file system, which a clone would undo');
        }
        if (method === 'dedupe-range') await replaceByDedupeRange(journal, keeper.path, target);
        else await replaceByCloneRename(journal, keeper.path, target, options.signal);
        return 'done';
      });
    } finally {
      await journal.close();
    }
  });
  return summarise(actions, false, method, freed);
}

/** How a replacement by a reshaped clone ended: replaced, or the reason it was left as it was. */
export type ReshapeOutcome =
  { replaced: true } | { replaced: false; inUse: boolean; reason: string };

/**
 * Replaces `file` by a clone of itself that `reshape` changed without changing what it reads
 * (macOS punches the clone's zero blocks: its only guard cannot make an in-place punch safe). It
 * is the dedupe's own clone-rename, under the volume's lock and journal: verified byte for byte,
 * swapped by the guarded replace, put back if written or opened meanwhile, and finished or rolled
 * back at the next start after a crash.
 */
export async function replaceWithReshapedClone(
  file: string,
  reshape: (clone: string) => Promise<void>,
  options: { journalDir?: string; signal?: AbortSignal } = {},
): Promise<ReshapeOutcome> {
  const facts = await stat(file);
  const target: DuplicateFile = {
    path: file,
    size: facts.size,
    ino: facts.ino,
    mtimeMs: facts.mtimeMs,
    ctimeMs: facts.ctimeMs,
    links: facts.nlink,
    reclaimableBytes: null,
    alreadyClone: null,
  };
  const dir = options.journalDir ?? journalDir();
  const unlock = await lockVolume(path.dirname(file), dir, options.signal);
  if (!unlock) return { replaced: false, inUse: false, reason: 'cancelled before it began' };
  try {
    const journal = await DedupeJournal.create(dir);
    try {
      await replaceByCloneRename(journal, file, target, options.signal, reshape);
      return { replaced: true };
    } finally {
      await journal.close();
    }
  } catch (error) {
    if (!(error instanceof Skip)) throw error;
    const inUse = error instanceof NotReplaced && error.result.outcome === 'in-use';
    return { replaced: false, inUse, reason: error.message };
  } finally {
    await unlock();
  }
}
