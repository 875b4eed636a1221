/**
 * Where Plumb keeps what it makes, named in one place (no other module computes a folder): the
 * built renderer, the data folder (results, kept scans, devices, scenarios) and the state folder
 * (dedupe journals, Trash batches). The data and state folders hold lists of the user's file
 * paths, so they are private: 0700 folders and 0600 files, whatever the umask.
 */
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from './atomic-file.js';
import { hostOs, osModule } from './os/index.js';

/** The folder holding the built renderer (dist/renderer), from the sources or from dist/. */
export function rendererDir(): string {
  if (process.env.PLUMB_RENDERER_DIR) return process.env.PLUMB_RENDERER_DIR;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth += 1) {
    for (const candidate of [path.join(dir, 'renderer'), path.join(dir, 'dist', 'renderer')]) {
      if (existsSync(path.join(candidate, 'index.html'))) return candidate;
    }
    dir = path.dirname(dir);
  }
  throw new Error('The renderer is not built. Run `npm run build`.');
}

/**
 * Plumb's data folder: $PLUMB_DATA_DIR when set (tests, portable use), else the OS user-data
 * folder: ~/Library/Application Support/Plumb, %APPDATA%/Plumb, $XDG_DATA_HOME/plumb or
 * ~/.local/share/plumb.
 */
export function dataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = hostOs.platform,
  home: string = os.homedir(),
): string {
  return env.PLUMB_DATA_DIR || osModule(platform).dataDir(env, home);
}

/** Where Plumb keeps state between runs; PLUMB_STATE_DIR overrides (tests, portable installs). */
export function stateDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = hostOs.platform,
  home: string = os.homedir(),
): string {
  return env.PLUMB_STATE_DIR || osModule(platform).stateDir(env, home);
}

/** Every folder and file of Plumb's own, by what it holds. */
export interface PlumbFolders {
  /** The data folder: what the user made and keeps. */
  data: string;
  /** The state folder: what carries an unfinished operation over to the next run. */
  state: string;
  /** Benchmark results, one document per run (results/). */
  results: string;
  /** The last scan of each folder and the scan engine's digest caches (space-scans/). */
  spaceScans: string;
  /** The planner's own devices, one JSON file (planner-devices.json). */
  plannerDevices: string;
  /** Saved planner scenarios, one file each (planner-scenarios/). */
  plannerScenarios: string;
  /** Dedupe and punch journals, read back after a crash (space-journal/). */
  spaceJournal: string;
  /** Batches moved to the Trash, so they can be put back (space-trash/). */
  spaceTrash: string;
  /** The desktop window's size and place, for its next launch (window-state.json). */
  windowState: string;
}

/** Plumb's folders for this environment (PLUMB_DATA_DIR and PLUMB_STATE_DIR move them). */
export function plumbFolders(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = hostOs.platform,
  home: string = os.homedir(),
): PlumbFolders {
  const data = dataDir(env, platform, home);
  const state = stateDir(env, platform, home);
  const { join } = osModule(platform).path;
  return {
    data,
    state,
    results: join(data, 'results'),
    spaceScans: join(data, 'space-scans'),
    plannerDevices: join(data, 'planner-devices.json'),
    plannerScenarios: join(data, 'planner-scenarios'),
    spaceJournal: join(state, 'space-journal'),
    spaceTrash: join(state, 'space-trash'),
    windowState: join(state, 'window-state.json'),
  };
}

function isInside(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Folders this process has made private already (each is checked once). */
const madePrivate = new Set<string>();

/**
 * `folder` made when missing, private to the user: it and every folder made above it 0700, and
 * the data or state folder holding it 0700 too (earlier versions made it as the umask said, and a
 * private subfolder in a folder others may list still shows its name). Windows keeps a user's
 * AppData private by its ACLs.
 */
export async function privateFolder(folder: string): Promise<void> {
  const root = [dataDir(), stateDir()].find((dir) => isInside(dir, folder)) ?? folder;
  await mkdir(folder, { recursive: true, mode: 0o700 });
  if (!hostOs.ownerModes) return;
  for (const dir of new Set([root, folder])) {
    if (madePrivate.has(dir)) continue;
    const info = await lstat(dir);
    // Only a folder of the user's own, never through a link (a link's target is not Plumb's).
    if (info.isDirectory() && info.uid === process.getuid?.() && (info.mode & 0o077) !== 0) {
      await chmod(dir, 0o700);
    }
    madePrivate.add(dir);
  }
}

/** Writes one of Plumb's own files atomically, readable by the user only (0600). */
export async function writePrivateFile(
  file: string,
  data: string | Uint8Array | Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  await privateFolder(path.dirname(file));
  await writeFileAtomic(file, data);
  // A new file takes the umask's mode in writeFileAtomic; a rewrite keeps the file's own.
  if (hostOs.ownerModes) await chmod(file, 0o600);
}
