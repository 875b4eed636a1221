/**
 * The journal of a dedupe in progress: every replacement is written down (and flushed) before it
 * starts and at each step, so that after a crash the next start can finish or undo it. One JSON
 * line per record, one file per running operation, deleted when the operation ends.
 */
import { randomUUID } from 'node:crypto';
import {
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  stat,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { loadNative } from '../native/load.js';

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
      /** The temporary clone beside the target. */
      temp: string;
      /** Inode of the original target: a different one after a crash means the rename happened. */
      ino: string;
      parent: FolderTimes;
    };

/** Steps of a clone-rename: begun → ready (temp verified, metadata copied) → renamed. */
export type Stage = 'begun' | 'ready' | 'renamed';

type Record =
  | { type: 'header'; pid: number; startedAt: string }
  | { type: 'begin'; id: number; entry: JournalEntry }
  | { type: 'stage'; id: number; stage: Stage }
  | { type: 'done'; id: number };

/** Where Plumb keeps state between runs; PLUMB_STATE_DIR overrides (tests, portable installs). */
export function stateDir(): string {
  if (process.env.PLUMB_STATE_DIR) return process.env.PLUMB_STATE_DIR;
  if (process.platform === 'darwin')
    return path.join(homedir(), 'Library', 'Application Support', 'Plumb');
  if (process.platform === 'win32') {
    return path.join(process.env.LOCALAPPDATA ?? path.join(homedir(), 'AppData', 'Local'), 'Plumb');
  }
  return path.join(process.env.XDG_STATE_HOME ?? path.join(homedir(), '.local', 'state'), 'plumb');
}

export function journalDir(): string {
  return path.join(stateDir(), 'space-journal');
}

/**
 * Temporary clones Plumb makes beside a file while replacing it. The scan engine's walk never
 * lists them (kTempPrefix in native/src/scan/scan.cc; tests/native/scan-rules.test.ts checks).
 */
export const tempPrefix = '.plumb-clone-';

/** A name for a temporary clone beside `target`, which the walk and recovery both recognise. */
export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `${tempPrefix}${randomUUID().slice(0, 12)}`);
}

export class DedupeJournal {
  private nextId = 1;
  private readonly unfinished = new Set<number>();

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
  ) {}

  static async create(dir = journalDir()): Promise<DedupeJournal> {
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `${process.pid}-${randomUUID()}.jsonl`);
    const handle = await open(file, 'wx');
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

function processAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

async function restoreFolderTimes(times: FolderTimes): Promise<void> {
  await loadNative().setTimes(times.path, BigInt(times.atimeNs), BigInt(times.mtimeNs));
}

/** Finishes or undoes one interrupted replacement. */
async function recoverEntry(entry: JournalEntry, stage: Stage | null): Promise<RecoveryStep> {
  if (entry.kind === 'dedupe-range') {
    // FIDEDUPERANGE shares only ranges the kernel found equal, atomically: nothing to undo.
    return {
      target: entry.target,
      outcome: 'unchanged',
      detail: 'kernel-verified dedupe leaves the content as it was; nothing to undo',
    };
  }
  const tempExists = path.basename(entry.temp).startsWith(tempPrefix) && (await exists(entry.temp));
  if (tempExists) {
    // The rename never happened: the original is in place, untouched. Remove the clone.
    await unlink(entry.temp);
    return {
      target: entry.target,
      outcome: 'rolled-back',
      detail: 'removed the unused temporary clone',
    };
  }
  if (stage === 'ready' || stage === 'renamed') {
    const current = await stat(entry.target, { bigint: true }).catch(() => null);
    if (current && current.ino.toString() !== entry.ino) {
      await restoreFolderTimes(entry.parent);
      return {
        target: entry.target,
        outcome: 'completed',
        detail: 'the verified clone was in place; restored the folder times',
      };
    }
  }
  return { target: entry.target, outcome: 'unchanged', detail: 'the original was never replaced' };
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
  const steps: RecoveryStep[] = [];
  for (const name of names.filter((n) => n.endsWith('.jsonl'))) {
    const file = path.join(dir, name);
    const records = parseRecords(await readFile(file, 'utf8'));
    const header = records.find((r) => r.type === 'header');
    if (header && processAlive(header.pid)) continue;
    const open = new Map<number, { entry: JournalEntry; stage: Stage | null }>();
    for (const record of records) {
      if (record.type === 'begin') open.set(record.id, { entry: record.entry, stage: 'begun' });
      else if (record.type === 'stage') {
        const item = open.get(record.id);
        if (item) item.stage = record.stage;
      } else if (record.type === 'done') open.delete(record.id);
    }
    for (const { entry, stage } of open.values()) steps.push(await recoverEntry(entry, stage));
    await unlink(file);
  }
  return steps;
}
