/**
 * The last scan of each folder, kept in the data folder beside the results (space-scans/), so
 * reopening the view shows it with its age, and the scan engine's hash cache beside it, so a
 * rescan reads only files whose inode, size or times changed. One key per folder: the SHA-256 of
 * its absolute path.
 */
import { createHash } from 'node:crypto';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { PlumbError } from '../../contract/errors.js';
import type { DuplicateGroup, SavedScan, ScanResult } from '../../contract/space.js';
import { withRemovableTotal } from '../../common/removable.js';
import { plumbFolders, writePrivateFile } from '../paths.js';

export function spaceScansDir(): string {
  return plumbFolders().spaceScans;
}

function keyOf(folder: string): string {
  return createHash('sha256').update(path.resolve(folder)).digest('hex').slice(0, 32);
}

/** The scan engine's digest cache for `folder` (the folder holding it is made). */
export function hashCachePath(folder: string): string {
  return path.join(spaceScansDir(), `${keyOf(folder)}.hashes`);
}

/**
 * A kept scan is its document (`KEY.json`, a SavedScan with the groups last) and an index beside
 * it (`KEY.index.json`): where each group starts in the document, so a reopen reads the figures
 * and one page of groups, not a document of 180 MB (481 MB parsed, 626 MB with the schema check,
 * for 300,000 groups). The index names the document's size and time: a document written without
 * it (by an older Plumb) is read whole once and kept again with one.
 */
interface ScanIndex {
  format: 1;
  savedAt: string;
  /** The document's length in bytes. */
  bytes: number;
  /** Byte offsets: where each group starts, then where the last one ends. */
  groupsAt: number[];
}

/** A kept scan opened by its index: its figures (groups empty) and where its groups are. */
export interface KeptScan {
  file: string;
  savedAt: string;
  head: ScanResult;
  groupCount: number;
  groupsAt: readonly number[];
  /** The document's size and time when opened: a newer scan of the folder replaces it. */
  bytes: number;
  mtimeMs: number;
}

const indexFileOf = (file: string) => file.replace(/\.json$/, '.index.json');
const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The document's text in pieces, groups last, one group a piece after the head; `groupsAt` is
 * filled with each group's offset as the pieces are taken.
 */
function* savedPieces(saved: SavedScan, groupsAt: number[]): Generator<string> {
  const { groups, ...figures } = saved.result;
  // `{"savedAt":…,"result":{…,"groups":[]}}` cut before its last "]}}".
  const whole = JSON.stringify({ savedAt: saved.savedAt, result: { ...figures, groups: [] } });
  const head = whole.slice(0, -']}}'.length);
  let at = byteLength(head);
  let batch = head;
  for (let i = 0; i < groups.length; i += 1) {
    const text = JSON.stringify(groups[i]);
    if (i > 0) {
      batch += ',';
      at += 1;
    }
    groupsAt.push(at);
    at += byteLength(text);
    batch += text;
    if (batch.length >= 64 * 1024) {
      yield batch;
      batch = '';
    }
  }
  groupsAt.push(at);
  yield `${batch}]}}`;
}

async function keep(saved: SavedScan): Promise<void> {
  const file = path.join(spaceScansDir(), `${keyOf(saved.result.root)}.json`);
  const groupsAt: number[] = [];
  // Written in pieces: a scan of a million files as one string (and its bytes) would add twice
  // its 180 MB to the app's memory. The index follows the document it describes.
  await writePrivateFile(file, savedPieces(saved, groupsAt));
  const { size } = await stat(file);
  const index: ScanIndex = { format: 1, savedAt: saved.savedAt, bytes: size, groupsAt };
  await writePrivateFile(indexFileOf(file), JSON.stringify(index));
}

/** Keeps `result` as the folder's last scan, with the index that pages its groups. */
export async function saveLastScan(result: ScanResult, now = new Date()): Promise<void> {
  await keep({ savedAt: now.toISOString(), result });
}

/** Bytes `start`…`end`-1 of a file as text. */
async function readRange(file: string, start: number, end: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(end - start);
    let done = 0;
    while (done < buffer.length) {
      const { bytesRead } = await handle.read(buffer, done, buffer.length - done, start + done);
      if (bytesRead === 0) throw new Error(`${file} ended early`);
      done += bytesRead;
    }
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** A kept scan by its index, or null when it has none that fits its document. */
async function openIndexed(file: string): Promise<KeptScan | null> {
  try {
    const index = JSON.parse(await readFile(indexFileOf(file), 'utf8')) as ScanIndex;
    const { groupsAt } = index;
    if (index.format !== 1 || !Array.isArray(groupsAt) || groupsAt.length === 0) return null;
    const { size, mtimeMs } = await stat(file);
    if (size !== index.bytes) return null;
    const { SavedScan } = await import('../../contract/space.js');
    const saved = SavedScan.parse(JSON.parse(`${await readRange(file, 0, groupsAt[0]!)}]}}`));
    if (saved.savedAt !== index.savedAt || saved.result.groups.length > 0) return null;
    return {
      file,
      savedAt: saved.savedAt,
      head: saved.result,
      groupCount: groupsAt.length - 1,
      groupsAt,
      bytes: size,
      mtimeMs,
    };
  } catch {
    return null;
  }
}

/** Groups `start`…`end`-1 of a kept scan, read from its document and checked. */
export async function keptGroups(
  kept: KeptScan,
  start: number,
  end: number,
): Promise<DuplicateGroup[]> {
  const from = Math.max(0, Math.min(start, kept.groupCount));
  const to = Math.max(from, Math.min(end, kept.groupCount));
  if (to === from) return [];
  const now = await stat(kept.file).catch(() => null);
  if (now?.size !== kept.bytes || now.mtimeMs !== kept.mtimeMs) {
    throw new PlumbError(
      'ENOSCAN',
      'That kept scan was replaced by a newer scan of its folder; open the Space view again.',
    );
  }
  const text = await readRange(kept.file, kept.groupsAt[from]!, kept.groupsAt[to]!);
  const { DuplicateGroup } = await import('../../contract/space.js');
  // Between two groups is a comma: the range ends with one unless it reaches the last group.
  return DuplicateGroup.array().parse(JSON.parse(`[${text.replace(/,$/, '')}]`));
}

/**
 * A kept scan opened for paging. A document without a fitting index (kept by an older Plumb) is
 * read whole and kept again with one; null when missing or damaged (a rescan replaces it).
 */
async function openKept(file: string): Promise<KeptScan | null> {
  const indexed = await openIndexed(file);
  if (indexed) return indexed;
  const saved = await readSaved(file);
  if (!saved) return null;
  await keep({ ...saved, result: withRemovableTotal(saved.result) }).catch(() => undefined);
  return openIndexed(file);
}

async function readSaved(file: string): Promise<SavedScan | null> {
  try {
    // The schema is loaded only here: a scan from the command line loads no zod.
    const { SavedScan } = await import('../../contract/space.js');
    return SavedScan.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    // Missing, from an older version, or damaged: as if never scanned (a rescan replaces it).
    return null;
  }
}

/** The kept scans' files, newest first. */
async function savedFilesNewestFirst(): Promise<string[]> {
  const dir = spaceScansDir();
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json') && !n.endsWith('.index.json'));
  } catch {
    return [];
  }
  const dated = await Promise.all(
    names.map(async (n) => ({
      file: path.join(dir, n),
      at: (await stat(path.join(dir, n)).catch(() => null))?.mtimeMs ?? 0,
    })),
  );
  return dated.sort((a, b) => b.at - a.at).map(({ file }) => file);
}

/** Bytes read from the head of a kept scan to find its root (a path is at most 4,096 bytes). */
const headBytes = 64 * 1024;

async function readHead(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(headBytes), 0, headBytes, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The folder a kept scan is of. Read from the file's head: the root comes second in the result,
 * before the groups of a scan that may be 180 MB; a file written otherwise is read whole.
 */
async function savedRoot(file: string): Promise<string | null> {
  const head = await readHead(file).catch(() => null);
  if (head === null) return null;
  // The only "root" key of the document: in a path it would be escaped (\"root\").
  const literal = /"root":("(?:[^"\\]|\\.)*")/.exec(head)?.[1];
  if (literal !== undefined) return JSON.parse(literal) as string;
  return (await readSaved(file))?.result.root ?? null;
}

/** The folder of the newest kept scan that `mayShow` accepts, or null. */
export async function newestScanRoot(
  mayShow: (root: string) => Promise<boolean>,
): Promise<string | null> {
  for (const file of await savedFilesNewestFirst()) {
    const root = await savedRoot(file);
    if (root !== null && (await mayShow(root))) return root;
  }
  return null;
}

/** The last scan of `folder`, or of any folder (the most recent) when none is given, for paging. */
export async function openLastScan(folder?: string): Promise<KeptScan | null> {
  if (folder !== undefined) return openKept(path.join(spaceScansDir(), `${keyOf(folder)}.json`));
  for (const file of await savedFilesNewestFirst()) {
    const kept = await openKept(file);
    if (kept) return kept;
  }
  return null;
}

/** The last scan of `folder` (or of any folder) whole, every group read. */
export async function loadLastScan(folder?: string): Promise<SavedScan | null> {
  const kept = await openLastScan(folder);
  if (!kept) return null;
  const groups = await keptGroups(kept, 0, kept.groupCount);
  return { savedAt: kept.savedAt, result: { ...kept.head, groups } };
}
