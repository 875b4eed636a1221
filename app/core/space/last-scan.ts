/**
 * The last scan of each folder, kept in the data folder beside the results (space-scans/, the
 * app context's `folders.spaceScans`, given as `dir` to each function here), so
 * reopening the view shows it with its age, and the scan engine's hash cache beside it, so a
 * rescan reads only files whose inode, size or times changed. One key per folder: the SHA-256 of
 * its absolute path.
 */
import { createHash } from 'node:crypto';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SavedScan, ScanResult } from '../../contract/space.js';
import { writePrivateFile } from '../paths.js';
import { jsonBatches } from '../json-out.js';

function keyOf(folder: string): string {
  return createHash('sha256').update(path.resolve(folder)).digest('hex').slice(0, 32);
}

/** The scan engine's digest cache for `folder` (the folder holding it is made). */
export function hashCachePath(dir: string, folder: string): string {
  return path.join(dir, `${keyOf(folder)}.hashes`);
}

/**
 * Keeps `result` as the folder's last scan. Written in pieces: a scan of a million files is a
 * 180 MB document, which as one string (and its bytes) would add twice that to the app's memory.
 */
export async function saveLastScan(
  dir: string,
  result: ScanResult,
  now = new Date(),
): Promise<void> {
  const saved: SavedScan = { savedAt: now.toISOString(), result };
  // Levels opened: the saved scan, its result, then the groups array, a few groups at a time.
  await writePrivateFile(path.join(dir, `${keyOf(result.root)}.json`), jsonBatches(saved, 3, true));
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
async function savedFilesNewestFirst(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
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
  dir: string,
  mayShow: (root: string) => Promise<boolean>,
): Promise<string | null> {
  for (const file of await savedFilesNewestFirst(dir)) {
    const root = await savedRoot(file);
    if (root !== null && (await mayShow(root))) return root;
  }
  return null;
}

/** The last scan of `folder`, or of any folder (the most recent) when none is given. */
export async function loadLastScan(dir: string, folder?: string): Promise<SavedScan | null> {
  if (folder !== undefined) return readSaved(path.join(dir, `${keyOf(folder)}.json`));
  for (const file of await savedFilesNewestFirst(dir)) {
    const saved = await readSaved(file);
    if (saved) return saved;
  }
  return null;
}
