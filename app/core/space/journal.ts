/**
 * The journal of a dedupe in progress: every replacement is written down (and flushed) before it
 * starts and at each step, so that after a crash the next start can finish or undo it. One JSON
 * line per record, one file per running operation, deleted when the operation ends.
 */
import { randomUUID } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { lstat, open, readdir, readFile, rename, unlink } from '../os-fs.js';
import path from 'node:path';
import { loadNative } from '../native/load.js';
import { plumbFolders, privateFolder } from '../paths.js';
import { otherProcessAlive } from '../process-alive.js';

export interface FolderTimes {
  path: string;
  atimeNs: string;
  mtimeNs: string;
}

/** A replacement of `target` by a verified clone of `keeper`. */
export type JournalEntry =
  | { kind: 'dedupe-range'; target: string; keeper: string }
  | {
      kind: 'clone-rename';
      target: string;
      keeper: string;
      /** The temporary clone beside the target; after the swap, where the original is. */
      temp: string;
      /** The name Windows's three-rename swap parks the original under for a moment. */
      swap?: string;
      /** Inode of the original target: recovery finds the original by it, wherever it is. */
      ino: string;
      /** Size and modification time of the original (and so of its clone) when it began. */
      size?: number;
      mtimeNs?: string;
      parent: FolderTimes;
    };

/**
 * Steps of a clone-rename: begun → ready (temp verified, metadata copied; the guarded swap may
 * have started) → replaced (original removed, the clone in place). `renamed` is the old name of
 * `replaced`, in journals of earlier versions.
 */
export type Stage = 'begun' | 'ready' | 'replaced' | 'renamed';

type Record =
  | { type: 'header'; pid: number; startedAt: string }
  | { type: 'begin'; id: number; entry: JournalEntry }
  | { type: 'stage'; id: number; stage: Stage }
  | { type: 'done'; id: number };

export function journalDir(): string {
  return plumbFolders().spaceJournal;
}

/**
 * Temporary clones Plumb makes beside a file while replacing it. The scan engine's walk never
 * lists them (kTempPrefix in native/src/scan/scan.cc; tests/native/scan-rules.test.ts checks).
 */
export const tempPrefix = '.plumb-clone-';

/**
 * The lock file that serializes applies on the volume `dev` (dedupe.ts), kept beside the journals;
 * while it is written it has a private name with the writer's process id after it.
 */
export function volumeLockName(dev: number): string {
  return `volume-${dev}.lock`;
}

/** Whether the process named in a volume lock (or its private name) is gone. */
export async function lockHolderGone(file: string): Promise<boolean> {
  const inName = /\.lock-(\d+)-\d+$/.exec(file)?.[1];
  const holder = Number(inName ?? (await readFile(file, 'utf8').catch(() => '0')));
  return !Number.isInteger(holder) || holder <= 0 || !otherProcessAlive(holder);
}

/** Removes volume locks (and their half-made private names) whose process is gone. */
async function removeStaleLocks(dir: string, names: readonly string[]): Promise<void> {
  for (const name of names.filter((n) => /^volume-\d+\.lock(-\d+-\d+)?$/.test(n))) {
    const file = path.join(dir, name);
    if (await lockHolderGone(file)) await unlink(file).catch(() => undefined);
  }
}

/** A name for a temporary clone beside `target`, which the walk and recovery both recognise. */
export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `${tempPrefix}${randomUUID().slice(0, 12)}`);
}

/** The free name beside `temp` that a swap without an atomic exchange (Windows) passes through. */
export function swapPathFor(temp: string): string {
  return `${temp}-swap`;
}

export class DedupeJournal {
  private nextId = 1;
  private readonly unfinished = new Set<number>();

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
  ) {}

  static async create(dir = journalDir()): Promise<DedupeJournal> {
    await privateFolder(dir);
    const file = path.join(dir, `${process.pid}-${randomUUID()}.jsonl`);
    const handle = await open(file, 'wx', 0o600);
    const journal = new DedupeJournal(file, handle);
    await journal.append({ type: 'header', pid: process.pid, startedAt: new Date().toISOString() });
    return journal;
  }

  private async append(record: Record): Promise<void> {
    await this.handle.write(`${JSON.stringify(record)}\n`);
    await this.handle.datasync();
  }

  async begin(entry: JournalEntry): Promise<number> {
    const id = this.nextId;
    this.nextId += 1;
    await this.append({ type: 'begin', id, entry });
    this.unfinished.add(id);
    return id;
  }

  stage(id: number, stage: Stage): Promise<void> {
    return this.append({ type: 'stage', id, stage });
  }

  async done(id: number): Promise<void> {
    await this.append({ type: 'done', id });
    this.unfinished.delete(id);
  }

  /** Ends the operation; the journal goes unless an entry is unfinished (recovery will see it). */
  async close(): Promise<void> {
    await this.handle.close();
    if (this.unfinished.size === 0) await unlink(this.file);
  }
}

export interface RecoveryStep {
  target: string;
  outcome: 'rolled-back' | 'completed' | 'unchanged';
  detail: string;
}

function parseRecords(text: string): Record[] {
  const records: Record[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line) as Record);
    } catch {
      // A line cut short by the crash: the step it describes never started.
    }
  }
  return records;
}

async function inodeAt(file: string): Promise<string | null> {
  const s = await lstat(file, { bigint: true }).catch(() => null);
  return s ? s.ino.toString() : null;
}

/** Puts a folder's access and modification times back as recorded. */
export async function restoreFolderTimes(times: FolderTimes): Promise<void> {
  await loadNative().setTimes(times.path, BigInt(times.atimeNs), BigInt(times.mtimeNs));
}

type CloneRenameEntry = Extract<JournalEntry, { kind: 'clone-rename' }>;

/** A free visible name beside `target` for a file that must be kept. */
async function keptName(target: string): Promise<string> {
  for (let i = 1; ; i += 1) {
    const name = `${target}.plumb-kept${i === 1 ? '' : `-${i}`}`;
    if ((await inodeAt(name)) === null) return name;
  }
}

/**
 * Puts a clone-rename back in a safe state, wherever it stopped, without losing a write: the
 * original is found by its inode (at the target, the temporary name, or Windows's swap name).
 * At the target: the clone is removed. Swapped out: it goes back over the clone, unless the clone
 * was written to since (its size or time moved) while the original was not, which means a program
 * wrote to the target after the swap; then the clone stays. If both moved, both are kept. Nowhere:
 * it was removed after its final verification, so the clone in place completes the replacement.
 * The folder's times are restored whenever a name in it changed.
 */
export async function settleCloneRename(entry: CloneRenameEntry): Promise<RecoveryStep> {
  const target = entry.target;
  const hidden = [entry.temp, entry.swap].filter(
    (p): p is string => p !== undefined && path.basename(p).startsWith(tempPrefix),
  );
  const at = new Map<string, string | null>();
  for (const p of [target, ...hidden]) at.set(p, await inodeAt(p));
  const originalAt = [target, ...hidden].find((p) => at.get(p) === entry.ino) ?? null;
  const removeOthers = async (): Promise<boolean> => {
    let removed = false;
    for (const p of hidden) {
      if (p === originalAt || at.get(p) === null) continue;
      await unlink(p).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      removed = true;
    }
    return removed;
  };
  if (originalAt === target) {
    const removed = await removeOthers();
    if (removed) await restoreFolderTimes(entry.parent);
    return removed
      ? { target, outcome: 'rolled-back', detail: 'removed the unused temporary clone' }
      : { target, outcome: 'unchanged', detail: 'the original was never replaced' };
  }
  if (originalAt !== null) {
    const moved = async (file: string) => {
      const s = await lstat(file, { bigint: true });
      return (
        entry.size !== undefined &&
        (Number(s.size) !== entry.size || s.mtimeNs.toString() !== entry.mtimeNs)
      );
    };
    const cloneMoved = at.get(target) !== null && (await moved(target));
    let step: RecoveryStep;
    if (!cloneMoved) {
      await rename(originalAt, target); // over the unused clone, atomically
      step = { target, outcome: 'rolled-back', detail: 'put the original back over its clone' };
    } else if (!(await moved(originalAt))) {
      await unlink(originalAt);
      step = { target, outcome: 'completed', detail: 'kept the clone, written to after the swap' };
    } else {
      const kept = await keptName(target);
      await rename(originalAt, kept);
      step = {
        target,
        outcome: 'completed',
        detail: `both the original and its clone were written to; the original is kept as ${kept}`,
      };
    }
    await removeOthers();
    await restoreFolderTimes(entry.parent);
    return step;
  }
  if (at.get(target) !== null) {
    await removeOthers();
    await restoreFolderTimes(entry.parent);
    return {
      target,
      outcome: 'completed',
      detail: 'the verified clone was in place; restored the folder times',
    };
  }
  return { target, outcome: 'unchanged', detail: 'the file no longer exists; nothing to do' };
}

/** Finishes or undoes one interrupted replacement. */
async function recoverEntry(entry: JournalEntry): Promise<RecoveryStep> {
  if (entry.kind === 'dedupe-range') {
    // FIDEDUPERANGE shares only ranges the kernel found equal, atomically: nothing to undo.
    return {
      target: entry.target,
      outcome: 'unchanged',
      detail: 'kernel-verified dedupe leaves the content as it was; nothing to undo',
    };
  }
  return settleCloneRename(entry);
}

/**
 * Runs at start: every journal left by a process that is gone is replayed, and each unfinished
 * replacement completed or rolled back. Journals of live processes are left alone.
 */
export async function recoverInterrupted(dir = journalDir()): Promise<RecoveryStep[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  await removeStaleLocks(dir, names);
  const steps: RecoveryStep[] = [];
  for (const name of names.filter((n) => n.endsWith('.jsonl'))) {
    const file = path.join(dir, name);
    const records = parseRecords(await readFile(file, 'utf8'));
    const header = records.find((r) => r.type === 'header');
    if (header && otherProcessAlive(header.pid)) continue;
    const open = new Map<number, { entry: JournalEntry; stage: Stage | null }>();
    for (const record of records) {
      if (record.type === 'begin') open.set(record.id, { entry: record.entry, stage: 'begun' });
      else if (record.type === 'stage') {
        const item = open.get(record.id);
        if (item) item.stage = record.stage;
      } else if (record.type === 'done') open.delete(record.id);
    }
    // The original is found by its inode whatever the stage, so the stage is not needed here.
    for (const { entry } of open.values()) steps.push(await recoverEntry(entry));
    await unlink(file);
  }
  return steps;
}
