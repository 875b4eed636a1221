/**
 * The system's Trash for a file: where a file goes so that its owner can still put it back, and
 * the one place Plumb deletes from afterwards, when asked to in a second step.
 *
 * Linux follows the freedesktop.org Trash specification (any XDG file manager restores from it):
 * the home trash ($XDG_DATA_HOME/Trash) for files on the home trash's volume, else the volume's
 * `$topdir/.Trash/$uid` (when `.Trash` is a real folder with the sticky bit) or
 * `$topdir/.Trash-$uid`. macOS: ~/.Trash on the home volume, `$topdir/.Trashes/$uid` elsewhere.
 * Windows: the drive's Recycle Bin, through the shell (native recycleFile).
 *
 * The rule where no Trash is reachable: a file is only ever renamed into a Trash on its own volume
 * (a copy to another volume would free nothing there and could fail half-way). When the
 * specification's trash folders for that volume are missing and cannot be made (a read-only or
 * root-owned mount on a server, a `.Trash-$uid` that is not our own real folder), the file is
 * refused with ENOTRASH and left where it is: never deleted instead.
 */
import { constants } from 'node:fs';
import { access, lstat, mkdir, open, rename, stat, unlink } from '../os-fs.js';
import { homedir } from 'node:os';
import path from 'node:path';
import { pathToBytes } from '../../common/path-text.js';
import { PlumbError } from '../../contract/errors.js';
import { loadNative } from '../native/load.js';
import { hostOs } from '../os/index.js';

/** S_ISVTX (Node's fs.constants does not name it). */
const stickyBit = 0o1000;

export type TrashKind = 'xdg-home' | 'xdg-volume' | 'macos-home' | 'macos-volume' | 'recycle-bin';

export interface TrashCan {
  kind: TrashKind;
  /** The trash folder (Linux: the one holding files/ and info/); the drive root on Windows. */
  dir: string;
}

/** Where a file went: enough to delete exactly it (and its record) from the Trash later. */
export interface TrashedFile {
  kind: TrashKind;
  /** The file inside the Trash. */
  trashedPath: string;
  /** Linux: its info/NAME.trashinfo; Windows: the Recycle Bin's $I record; null on macOS. */
  infoPath: string | null;
}

export function noTrash(message: string, cause?: unknown): PlumbError {
  return new PlumbError('ENOTRASH', message, cause === undefined ? undefined : { cause });
}

function uid(): number {
  return process.getuid?.() ?? 0;
}

/** The folder holding `file`'s volume root: the highest ancestor on the same device. */
async function volumeTop(file: string): Promise<string> {
  const dev = (await lstat(file)).dev;
  let top = path.dirname(path.resolve(file));
  for (;;) {
    const parent = path.dirname(top);
    if (parent === top) return top;
    if ((await stat(parent)).dev !== dev) return top;
    top = parent;
  }
}

/** The device of a folder, or of its nearest existing ancestor (for a trash not made yet). */
async function deviceOf(folder: string): Promise<number> {
  for (let dir = folder; ; dir = path.dirname(dir)) {
    try {
      return (await stat(dir)).dev;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || path.dirname(dir) === dir)
        throw error;
    }
  }
}

/**
 * A folder of ours that is a real folder, never a symbolic link: made 0700 when missing, or, when
 * only checking (a dry run writes nothing), its nearest existing parent must be writable.
 */
async function ownFolder(dir: string, why: string, create: boolean): Promise<void> {
  if (!create) {
    let found = dir;
    while (!(await exists(found))) found = path.dirname(found);
    const s = await lstat(found);
    if (!s.isDirectory()) throw noTrash(`${why}: ${found} is not a folder.`);
    if (found !== dir) {
      try {
        await access(found, constants.W_OK);
      } catch (error) {
        throw noTrash(`${why}: ${dir} cannot be made (${found} is not writable).`, error);
      }
      return;
    }
  }
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw noTrash(`${why}: ${dir} cannot be made (${(error as Error).message}).`, error);
  }
  const s = await lstat(dir);
  if (!s.isDirectory() || s.isSymbolicLink()) throw noTrash(`${why}: ${dir} is not a folder.`);
  if (hostOs.ownerModes && s.uid !== uid()) {
    throw noTrash(`${why}: ${dir} belongs to another user.`);
  }
}

async function usableTrash(
  can: TrashCan,
  dev: number,
  why: string,
  create: boolean,
): Promise<TrashCan> {
  const parts =
    can.kind === 'xdg-home' || can.kind === 'xdg-volume'
      ? [path.join(can.dir, 'files'), path.join(can.dir, 'info')]
      : [can.dir];
  for (const part of parts) await ownFolder(part, why, create);
  if ((await deviceOf(can.dir)) !== dev) {
    throw noTrash(`${why}: ${can.dir} is on another volume, and moving there would free nothing.`);
  }
  return can;
}

/** Linux `$topdir/.Trash/$uid`, usable only when `.Trash` is a real folder with the sticky bit. */
async function sharedVolumeTrash(top: string): Promise<string | null> {
  try {
    const s = await lstat(path.join(top, '.Trash'));
    if (s.isDirectory() && !s.isSymbolicLink() && (s.mode & stickyBit) !== 0) {
      return path.join(top, '.Trash', String(uid()));
    }
  } catch {
    // no shared trash on this volume
  }
  return null;
}

/**
 * The Trash `file` would go to, made ready (its folders created as the platform's rules say; only
 * checked when `create` is false), or an ENOTRASH error saying why there is none: then nothing
 * may be moved.
 */
export async function trashFor(file: string, create = true): Promise<TrashCan> {
  const dev = (await lstat(file)).dev;
  if (hostOs.trashKind === 'recycle-bin') {
    return { kind: 'recycle-bin', dir: path.parse(path.resolve(file)).root };
  }
  const home = homedir();
  if (hostOs.trashKind === 'macos') {
    const homeTrash = path.join(home, '.Trash');
    if ((await deviceOf(homeTrash)) === dev) {
      return usableTrash(
        { kind: 'macos-home', dir: homeTrash },
        dev,
        'No Trash on this volume',
        create,
      );
    }
    const top = await volumeTop(file);
    const dir = path.join(top, '.Trashes', String(uid()));
    return usableTrash({ kind: 'macos-volume', dir }, dev, 'No Trash on this volume', create);
  }
  const dataHome = process.env.XDG_DATA_HOME || path.join(home, '.local', 'share');
  const homeTrash = path.join(dataHome, 'Trash');
  if ((await deviceOf(homeTrash)) === dev) {
    return usableTrash(
      { kind: 'xdg-home', dir: homeTrash },
      dev,
      'No Trash on this volume',
      create,
    );
  }
  const top = await volumeTop(file);
  const shared = await sharedVolumeTrash(top);
  if (shared) {
    try {
      return await usableTrash({ kind: 'xdg-volume', dir: shared }, dev, 'No Trash', create);
    } catch {
      // the spec falls back to $topdir/.Trash-$uid when .Trash/$uid cannot be used
    }
  }
  return usableTrash(
    { kind: 'xdg-volume', dir: path.join(top, `.Trash-${uid()}`) },
    dev,
    `No Trash is reachable on the volume at ${top}, so nothing there is moved (or deleted)`,
    create,
  );
}

/** What encodeURIComponent leaves as it is. */
const unreserved = /[A-Za-z0-9\-_.!~*'()]/;

/**
 * RFC 2396 escaping of each path segment's bytes, as the Trash spec's Path= key wants: a name
 * that is not UTF-8 is recorded as its own bytes (encodeURIComponent would throw on it).
 */
export function trashInfoPath(file: string): string {
  const escape = (segment: string) =>
    Array.from(pathToBytes(segment), (byte) => {
      const char = String.fromCharCode(byte);
      return byte < 0x80 && unreserved.test(char)
        ? char
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }).join('');
  return file.split('/').map(escape).join('/');
}

function localTimestamp(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}` +
    `T${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`
  );
}

/** The .trashinfo text for `file` trashed now into `can` (relative Path= in a volume's trash). */
export function trashInfo(file: string, can: TrashCan, top: string, now = new Date()): string {
  const absolute = path.resolve(file);
  const recorded = can.kind === 'xdg-volume' ? path.relative(top, absolute) : absolute;
  return `[Trash Info]\nPath=${trashInfoPath(recorded)}\nDeletionDate=${localTimestamp(now)}\n`;
}

/** "photo.raw", "photo.2.raw", "photo.3.raw"…: the n-th name tried for a file in a Trash. */
export function candidateName(name: string, attempt: number): string {
  if (attempt === 1) return name;
  const ext = path.extname(name);
  const stem = ext && ext !== name ? name.slice(0, -ext.length) : name;
  return `${stem}.${attempt}${ext === name ? '' : ext}`;
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (error) {
    // ENOTDIR: a file where a folder of the path should be; nothing is there either.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw error;
  }
}

/** Where a file is about to go in a Trash, with the .trashinfo text that will reserve the name. */
export interface TrashSlot extends TrashedFile {
  /** Linux: the exact text of its .trashinfo (so only a record Plumb wrote is ever removed). */
  infoText: string | null;
}

/**
 * Told where a file is about to go before anything is written there, and when that place was
 * not used after all: a record kept this way lets a crash at any instant of the move be resolved
 * (trash-batch.ts).
 */
export interface MoveRecorder {
  intend(slot: TrashSlot): Promise<void>;
  /** The slot holds nothing of the move (its name was taken meanwhile, or the move failed). */
  abandon(slot: TrashSlot): Promise<void>;
}

/**
 * Linux: the first name free in files/ and info/, recorded, then reserved by creating its
 * .trashinfo exclusively (the spec's atomic reservation), then the rename into files/. The
 * .trashinfo goes again if the rename fails.
 */
async function moveToXdgTrash(
  file: string,
  can: TrashCan,
  recorder: MoveRecorder,
): Promise<TrashedFile> {
  const top = can.kind === 'xdg-volume' ? await volumeTop(file) : '/';
  const infoText = trashInfo(file, can, top);
  for (let attempt = 1; attempt < 10_000; attempt += 1) {
    const name = candidateName(path.basename(file), attempt);
    const slot: TrashSlot = {
      kind: can.kind,
      trashedPath: path.join(can.dir, 'files', name),
      infoPath: path.join(can.dir, 'info', `${name}.trashinfo`),
      infoText,
    };
    if ((await exists(slot.infoPath!)) || (await exists(slot.trashedPath))) continue;
    await recorder.intend(slot);
    let handle;
    try {
      handle = await open(slot.infoPath!, 'wx', 0o600);
    } catch (error) {
      await recorder.abandon(slot);
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw noTrash(`Cannot write to the Trash at ${can.dir}: ${(error as Error).message}`, error);
    }
    try {
      await handle.writeFile(infoText);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      if (await exists(slot.trashedPath)) {
        await unlink(slot.infoPath!);
        await recorder.abandon(slot);
        continue;
      }
      await rename(file, slot.trashedPath);
    } catch (error) {
      await unlink(slot.infoPath!).catch(() => undefined);
      await recorder.abandon(slot);
      throw error;
    }
    return { kind: can.kind, trashedPath: slot.trashedPath, infoPath: slot.infoPath };
  }
  throw noTrash(`The Trash at ${can.dir} has no free name for ${path.basename(file)}.`);
}

async function moveToMacTrash(
  file: string,
  can: TrashCan,
  recorder: MoveRecorder,
): Promise<TrashedFile> {
  for (let attempt = 1; attempt < 10_000; attempt += 1) {
    const name = candidateName(path.basename(file), attempt);
    const slot: TrashSlot = {
      kind: can.kind,
      trashedPath: path.join(can.dir, name),
      infoPath: null,
      infoText: null,
    };
    if (await exists(slot.trashedPath)) continue;
    await recorder.intend(slot);
    try {
      await rename(file, slot.trashedPath);
    } catch (error) {
      await recorder.abandon(slot);
      throw error;
    }
    return { kind: can.kind, trashedPath: slot.trashedPath, infoPath: null };
  }
  throw noTrash(`The Trash at ${can.dir} has no free name for ${path.basename(file)}.`);
}

/**
 * Moves one file into `can`, telling `recorder` where it goes before it goes; a failure leaves
 * it where it was. The Recycle Bin names the file itself, so there the slot is known only after
 * (an empty trashedPath in the intent).
 */
export async function moveToTrash(
  file: string,
  can: TrashCan,
  recorder: MoveRecorder,
): Promise<TrashedFile> {
  if (can.kind === 'recycle-bin') {
    const slot: TrashSlot = { kind: can.kind, trashedPath: '', infoPath: null, infoText: null };
    await recorder.intend(slot);
    try {
      const { recycledPath, infoPath } = await loadNative().recycleFile(path.resolve(file));
      return { kind: can.kind, trashedPath: recycledPath, infoPath };
    } catch (error) {
      await recorder.abandon(slot);
      throw error;
    }
  }
  if (can.kind === 'macos-home' || can.kind === 'macos-volume') {
    return moveToMacTrash(file, can, recorder);
  }
  return moveToXdgTrash(file, can, recorder);
}

/** Deletes a trashed file and its record for good (the Trash's own "delete permanently"). */
export async function deleteFromTrash(item: TrashedFile): Promise<void> {
  await unlink(item.trashedPath);
  if (item.infoPath) {
    await unlink(item.infoPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
}
