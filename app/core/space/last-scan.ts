/**
 * The last scan of each folder, kept in the data folder beside the results (space-scans/), so
 * reopening the view shows it with its age, and the scan engine's hash cache beside it, so a
 * rescan reads only files whose inode, size or times changed. One key per folder: the SHA-256 of
 * its absolute path.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SavedScan, ScanResult } from '../../contract/space.js';
import { resultsDir } from '../bench/results-dir.js';
import { writeFileAtomic } from '../atomic-file.js';
import { jsonBatches } from '../json-out.js';

export function spaceScansDir(): string {
  return path.join(path.dirname(resultsDir()), 'space-scans');
}

function keyOf(folder: string): string {
  return createHash('sha256').update(path.resolve(folder)).digest('hex').slice(0, 32);
}

/** The scan engine's digest cache for `folder` (the folder holding it is made). */
export function hashCachePath(folder: string): string {
  return path.join(spaceScansDir(), `${keyOf(folder)}.hashes`);
}

/**
 * Keeps `result` as the folder's last scan. Written in pieces: a scan of a million files is a
 * 180 MB document, which as one string (and its bytes) would add twice that to the app's memory.
 */
export async function saveLastScan(result: ScanResult, now = new Date()): Promise<void> {
  const saved: SavedScan = { savedAt: now.toISOString(), result };
  // Levels opened: the saved scan, its result, then the groups array, a few groups at a time.
  await writeFileAtomic(
    path.join(spaceScansDir(), `${keyOf(result.root)}.json`),
    jsonBatches(saved, 3, true),
  );
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

/** The last scan of `folder`, or of any folder (the most recent) when none is given. */
export async function loadLastScan(folder?: string): Promise<SavedScan | null> {
  const dir = spaceScansDir();
  if (folder !== undefined) return readSaved(path.join(dir, `${keyOf(folder)}.json`));
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
  } catch {
    return null;
  }
  const dated = await Promise.all(
    names.map(async (n) => ({
      n,
      at: (await stat(path.join(dir, n)).catch(() => null))?.mtimeMs ?? 0,
    })),
  );
  dated.sort((a, b) => b.at - a.at);
  for (const { n } of dated) {
    const saved = await readSaved(path.join(dir, n));
    if (saved) return saved;
  }
  return null;
}
