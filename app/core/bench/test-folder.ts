import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { processAlive } from '../process-alive.js';

/** Test files live in a folder with this prefix under the target... */
export const testFolderPrefix = 'plumb-test-';
/** ...and a marker that proves Plumb made it, so a user's folder is never removed by name alone. */
export const markerName = '.plumb-test.json';

interface Marker {
  pid: number;
  host: string;
  startedAt: string;
  /** Its run was asked to keep its files (--keep-files): no later run removes it. */
  kept?: boolean;
}

/** The name of a run's `index`-th test file in its folder: file-00042.dat. */
export const testFileName = (index: number) => `file-${String(index).padStart(5, '0')}.dat`;

/**
 * Makes `plumb-test-XXXXXX` under `target` with its marker; returns its path. A folder to be kept
 * says so from the start, so no instant of its run (nor a crash) leaves it looking abandoned.
 */
export async function createTestFolder(
  target: string,
  options: { kept?: boolean } = {},
): Promise<string> {
  const dir = await mkdtemp(path.join(target, testFolderPrefix));
  const marker: Marker = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: new Date().toISOString(),
    ...(options.kept ? { kept: true } : {}),
  };
  await writeFile(path.join(dir, markerName), `${JSON.stringify(marker)}\n`);
  return dir;
}

/**
 * Removes test folders left under `target` by runs that crashed: those with a marker whose
 * process is gone (or on another host and older than a day). Folders of a run still going, and
 * folders kept on purpose (--keep-files), are left alone. Returns the folders removed.
 */
export async function removeStaleTestFolders(
  target: string,
  alive: (pid: number) => boolean = processAlive,
): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(target, { withFileTypes: true });
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(testFolderPrefix)) continue;
    const dir = path.join(target, entry.name);
    let marker: Marker;
    try {
      marker = JSON.parse(await readFile(path.join(dir, markerName), 'utf8')) as Marker;
    } catch {
      continue; // no marker: not ours to remove
    }
    if (marker.kept) continue;
    const sameHost = marker.host === os.hostname();
    const ageMs = Date.now() - Date.parse(marker.startedAt);
    const stale = sameHost ? !alive(marker.pid) : ageMs > 86_400_000;
    if (!stale) continue;
    await rm(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

/** Removes a test folder and everything in it. */
export async function removeTestFolder(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 3 });
}
