/**
 * The record of one Trash batch: which files `space trash` moved where, so that the second step
 * deletes exactly those. It is written ahead, as JSON lines each synced before the next step:
 * where a file is about to go before anything is written there, then that it went. After a crash
 * at any instant, settling the batch finds every file that was moved (in the Trash as it left its
 * folder) and removes the .trashinfo of a move that did not happen, which only Plumb wrote.
 */
import type { FileHandle } from 'node:fs/promises';
import { temporaryPathFor } from '../atomic-file.js';
import { lstat, open, readdir, readFile, rename, unlink } from '../os-fs.js';
import path from 'node:path';
import { PlumbError } from '../../contract/errors.js';
import { privateFolder } from '../paths.js';
import { otherProcessAlive } from '../process-alive.js';
import type { TrashedFile, TrashSlot } from './trash-can.js';

/** A file of a batch, as it was when it moved (a rename keeps inode, size and time). */
export interface BatchItem extends TrashedFile {
  original: string;
  predictedBytes: number | null;
  ino: number;
  size: number;
  mtimeMs: number;
}

/** What a batch holds once read: its moved files, and what could not be settled. */
export interface Batch {
  batchId: string;
  createdAt: string;
  trashDir: string;
  items: BatchItem[];
  /** Moves interrupted where the file's place is unknown (the Recycle Bin names it itself). */
  unaccounted: string[];
}

const schema = 'plumb.trash-batch/2';

type Line =
  | { schema: typeof schema; batchId: string; createdAt: string; trashDir: string; pid: number }
  | { intent: BatchItem & { infoText: string | null } }
  | { moved: number; trashedPath: string; infoPath: string | null }
  | { abandoned: number };

/** Batches this process is writing now (a batch of a live writer is not settled under it). */
const writing = new Set<string>();

function fileOf(dir: string, batchId: string): string {
  return path.join(dir, `${batchId}.jsonl`);
}

/** A batch being written: one line per step, each on disk before the step it announces. */
export class BatchRecord {
  private intents = 0;

  private constructor(
    readonly batchId: string,
    private readonly handle: FileHandle,
  ) {}

  static async create(dir: string, batchId: string, trashDir: string): Promise<BatchRecord> {
    await privateFolder(dir);
    // The record appears with its header already on disk (written to a temporary name, synced,
    // then renamed), so a kill at any instant never leaves a record no one can read: one killed
    // before the rename leaves a temporary that settleInterrupted removes.
    const file = fileOf(dir, batchId);
    const temporary = temporaryPathFor(file);
    const header: Line = {
      schema,
      batchId,
      createdAt: new Date().toISOString(),
      trashDir,
      pid: process.pid,
    };
    writing.add(batchId);
    const first = await open(temporary, 'wx', 0o600);
    try {
      await first.write(`${JSON.stringify(header)}\n`);
      await first.datasync();
    } finally {
      await first.close();
    }
    await rename(temporary, file);
    return new BatchRecord(batchId, await open(file, 'a'));
  }

  private async append(line: Line): Promise<void> {
    await this.handle.write(`${JSON.stringify(line)}\n`);
    await this.handle.datasync();
  }

  /** Notes where `original` is about to go; returns the number the next lines refer to it by. */
  async intend(original: Omit<BatchItem, keyof TrashedFile>, slot: TrashSlot): Promise<number> {
    const { kind, trashedPath, infoPath, infoText } = slot;
    await this.append({ intent: { ...original, kind, trashedPath, infoPath, infoText } });
    return this.intents++;
  }

  async moved(index: number, where: TrashedFile): Promise<void> {
    await this.append({ moved: index, trashedPath: where.trashedPath, infoPath: where.infoPath });
  }

  async abandoned(index: number): Promise<void> {
    await this.append({ abandoned: index });
  }

  async close(): Promise<void> {
    writing.delete(this.batchId);
    await this.handle.close();
  }
}

interface Folded {
  header: Extract<Line, { schema: string }>;
  intents: (BatchItem & { infoText: string | null })[];
  outcome: Map<number, 'moved' | 'abandoned'>;
}

function fold(text: string, file: string): Folded {
  const lines: Line[] = [];
  for (const raw of text.split('\n')) {
    if (raw === '') continue;
    try {
      lines.push(JSON.parse(raw) as Line);
    } catch {
      // A line cut short by a crash (a power loss, not a kill): the step it announced never ran.
    }
  }
  const header = lines[0];
  if (!header || !('schema' in header) || header.schema !== schema) {
    throw new PlumbError('EINVAL', `${file} is not a Trash batch Plumb can read.`);
  }
  const folded: Folded = { header, intents: [], outcome: new Map() };
  for (const line of lines.slice(1)) {
    if ('intent' in line) folded.intents.push(line.intent);
    else if ('moved' in line) {
      const item = folded.intents[line.moved];
      if (item) Object.assign(item, { trashedPath: line.trashedPath, infoPath: line.infoPath });
      folded.outcome.set(line.moved, 'moved');
    } else if ('abandoned' in line) folded.outcome.set(line.abandoned, 'abandoned');
  }
  return folded;
}

/** Whether `file` is what `item` left at its place: the same inode, size and time. */
async function isThere(file: string, item: BatchItem): Promise<boolean> {
  const now = await lstat(file).catch(() => null);
  return !!now && now.ino === item.ino && now.size === item.size && now.mtimeMs === item.mtimeMs;
}

/** The .trashinfo at `infoPath` is one Plumb began to write for this move (all or part of it). */
async function ownInfo(infoPath: string, infoText: string): Promise<boolean> {
  const text = await readFile(infoPath, 'utf8').catch(() => null);
  return text !== null && infoText.startsWith(text);
}

/**
 * How an interrupted move ended: moved (its file is in the Trash as it left), not moved (the
 * .trashinfo Plumb wrote for it removed when `tidy`), or unknown (the Recycle Bin named it).
 */
async function settleMove(
  item: BatchItem & { infoText: string | null },
  tidy: boolean,
): Promise<'moved' | 'abandoned' | 'unknown'> {
  if (item.kind === 'recycle-bin') {
    return (await isThere(item.original, item)) ? 'abandoned' : 'unknown';
  }
  if (await isThere(item.trashedPath, item)) return 'moved';
  const { infoPath, infoText } = item;
  if (tidy && infoPath && infoText !== null && (await ownInfo(infoPath, infoText))) {
    await unlink(infoPath).catch(() => undefined);
  }
  return 'abandoned';
}

/**
 * Reads a batch; moves its writer did not finish (it was killed) are settled, and with `tidy` the
 * outcome is recorded and the .trashinfo of moves that did not happen removed. A batch still
 * being written is refused (EBUSY).
 */
export async function readBatch(dir: string, batchId: string, tidy: boolean): Promise<Batch> {
  const file = fileOf(dir, batchId);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return readBatchV1(dir, batchId);
    throw error;
  }
  const { header, intents, outcome } = fold(text, file);
  const unfinished = intents.some((_, index) => !outcome.has(index));
  if (unfinished && (writing.has(batchId) || otherProcessAlive(header.pid))) {
    throw new PlumbError(
      'EBUSY',
      `Batch ${batchId} is still being moved to the Trash by Plumb (process ${header.pid}); empty it once that has finished.`,
    );
  }
  const batch: Batch = {
    batchId,
    createdAt: header.createdAt,
    trashDir: header.trashDir,
    items: [],
    unaccounted: [],
  };
  const settled: Line[] = [];
  for (const [index, intent] of intents.entries()) {
    let state: 'moved' | 'abandoned' | 'unknown' | undefined = outcome.get(index);
    if (state === undefined) {
      state = await settleMove(intent, tidy);
      if (state === 'moved') {
        settled.push({ moved: index, trashedPath: intent.trashedPath, infoPath: intent.infoPath });
      } else if (state === 'abandoned') settled.push({ abandoned: index });
    }
    const { infoText: _, ...item } = intent;
    if (state === 'moved') batch.items.push(item);
    if (state === 'unknown') batch.unaccounted.push(item.original);
  }
  if (tidy && settled.length > 0) {
    const handle = await open(file, 'a');
    try {
      await handle.write(settled.map((line) => `${JSON.stringify(line)}\n`).join(''));
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }
  return batch;
}

/** A batch of an earlier version: one JSON document, rewritten after each file it moved. */
async function readBatchV1(dir: string, batchId: string): Promise<Batch> {
  let batch: Batch & { schema: string };
  try {
    batch = JSON.parse(await readFile(path.join(dir, `${batchId}.json`), 'utf8')) as typeof batch;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new PlumbError(
        'ENOBATCH',
        `No files moved to the Trash by Plumb are recorded as batch ${batchId} (already deleted, or another id); nothing was deleted.`,
      );
    }
    throw error;
  }
  if (batch.schema !== 'plumb.trash-batch/1') {
    throw new PlumbError('EINVAL', `Batch ${batchId} has an unknown format (${batch.schema}).`);
  }
  return { ...batch, unaccounted: [] };
}

/** Forgets a batch whose files were deleted from the Trash. */
export async function removeBatch(dir: string, batchId: string): Promise<void> {
  for (const name of [`${batchId}.jsonl`, `${batchId}.json`]) {
    await unlink(path.join(dir, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
}

/** A batch a killed `space trash` left: its id and how many files it had moved. */
export interface InterruptedBatch {
  batchId: string;
  moved: number;
}

/**
 * Settles the batches whose writer was killed before it finished (recording where each of its
 * files went and removing the .trashinfo of moves that did not happen), and removes the
 * temporary files of batch records written whole by earlier versions that were killed. Returns
 * the batches that were interrupted, so the user learns their ids.
 */
export async function settleInterrupted(dir: string): Promise<InterruptedBatch[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const interrupted: InterruptedBatch[] = [];
  for (const name of names) {
    // temporaryPathFor's name (writeFileAtomic's, and a new record's): .NAME.PID.RANDOM.tmp
    const temporary = /^\..+\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name);
    if (temporary) {
      if (!otherProcessAlive(Number(temporary[1])))
        await unlink(path.join(dir, name)).catch(() => undefined);
      continue;
    }
    if (!name.endsWith('.jsonl')) continue;
    const batchId = name.slice(0, -'.jsonl'.length);
    const text = await readFile(path.join(dir, name), 'utf8').catch(() => '');
    let folded: Folded;
    try {
      folded = fold(text, name);
    } catch {
      continue;
    }
    const unfinished = folded.intents.some((_, index) => !folded.outcome.has(index));
    if (!unfinished || writing.has(batchId) || otherProcessAlive(folded.header.pid)) continue;
    const batch = await readBatch(dir, batchId, true);
    // Killed before its first file went: there is nothing to empty.
    if (batch.items.length === 0 && batch.unaccounted.length === 0) await removeBatch(dir, batchId);
    else interrupted.push({ batchId, moved: batch.items.length });
  }
  return interrupted;
}
