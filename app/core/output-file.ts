/**
 * Writing an output the user named (`--json OUT`, `--csv OUT`, `--pdf OUT`, a saved report) as
 * what the path is. A regular file is replaced atomically (readers see the old one or the new
 * one); a symbolic link is followed and its target written the same way, in the target's folder,
 * so the link stays a link; a FIFO or a character device is streamed to; `-`, or a path that is
 * the command's own standard output (`/dev/stdout`), goes to standard output. A folder, a missing
 * folder, a socket or a block device is refused with one line before anything is written. State
 * files Plumb owns keep plain atomic writes (atomic-file.ts).
 */
import {
  constants,
  createWriteStream,
  fstatSync,
  open as openDescriptor,
  type Stats,
} from 'node:fs';
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { Socket } from 'node:net';
import path from 'node:path';
import { isatty, WriteStream as TerminalStream } from 'node:tty';
import { PlumbError } from '../contract/errors.js';
import { writeFileAtomic } from './atomic-file.js';
import { writePieces, type OutputPiece } from './json-out.js';

export type OutputData = string | Uint8Array | Iterable<OutputPiece>;

export interface OutputOptions {
  /** Standard output: where `-` and the command's own stdout path are written. */
  stdout: NodeJS.WritableStream;
  /** Stops waiting for a FIFO's reader. */
  signal?: AbortSignal;
}

/** The output name that means standard output. */
const standardOutputName = '-';

/** Between looks for a FIFO's reader: an open that waited for one could not be cancelled. */
const readerPollMs = 50;
/** As the kernel's own limit on links followed in one path (MAXSYMLINKS). */
const linkHopsAllowed = 40;

function piecesOf(data: OutputData): Iterable<OutputPiece> {
  return typeof data === 'string' || data instanceof Uint8Array ? [data] : data;
}

function statOrNull(file: string): Promise<Stats | null> {
  return stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}

/** True when `target` is `-` or names this process's standard output (`/dev/stdout`). */
export async function isStandardOutput(target: string): Promise<boolean> {
  if (target === standardOutputName) return true;
  const info = await stat(target).catch(() => null);
  let stdout: Stats;
  try {
    stdout = fstatSync(1);
  } catch {
    return false;
  }
  return info !== null && info.dev === stdout.dev && info.ino === stdout.ino;
}

/**
 * The file a path names once its links are followed, even when the last link points at nothing
 * yet (then the file is made there). Folders are resolved by the kernel (realpath), so `..` in a
 * link means what it means to the kernel.
 */
async function linkEnd(target: string): Promise<string> {
  let current = path.resolve(target);
  for (let hop = 0; hop < linkHopsAllowed; hop += 1) {
    const info = await lstat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!info?.isSymbolicLink()) return current;
    const folder = await realpath(path.dirname(current));
    current = path.resolve(folder, await readlink(current));
  }
  throw new PlumbError('ELOOP', `Cannot write ${target}: its links go round in a loop.`);
}

function refusal(target: string, info: Stats): PlumbError {
  if (info.isDirectory()) {
    return new PlumbError(
      'EISDIR',
      `Cannot write ${target}: it is a folder. Give a file name, e.g. ${path.join(target, 'out')}.`,
    );
  }
  const kind = info.isSocket() ? 'a socket' : info.isBlockDevice() ? 'a disk device' : 'special';
  return new PlumbError(
    'EINVAL',
    `Cannot write ${target}: it is ${kind}. Give a file, a FIFO, a character device or - (standard output).`,
  );
}

async function requireFolderOf(file: string, target: string): Promise<void> {
  const folder = path.dirname(file);
  if ((await statOrNull(folder))?.isDirectory()) return;
  const named = file === path.resolve(target) ? target : `${target} (a link to ${file})`;
  throw new PlumbError(
    'ENOENT',
    `Cannot write ${named}: the folder ${folder} does not exist. Create it first, or give another path.`,
  );
}

function cancelled(): PlumbError {
  return new PlumbError('ECANCELED', 'Cancelled while waiting for a reader of the output.');
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Opens a FIFO or a device for writing without blocking. A FIFO with no reader answers ENXIO and
 * is tried again until one comes, as `echo > fifo` waits, but cancellable: a blocking open would
 * wait in a libuv thread that nothing can stop, and the process could not exit.
 */
async function openWithoutBlocking(file: string, signal?: AbortSignal): Promise<number> {
  const flags = constants.O_WRONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0);
  for (;;) {
    if (signal?.aborted) throw cancelled();
    try {
      // A plain descriptor, not a FileHandle: the stream made over it owns and closes it.
      return await promisify(openDescriptor)(file, flags);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
      await pause(readerPollMs, signal);
    }
  }
}

type ClosableStream = NodeJS.WritableStream & { destroy(): void };

/** Node's writer for each kind: a pipe's (non-blocking, EPIPE as an error), a terminal's, a file's. */
function streamOver(fd: number, info: Stats): ClosableStream {
  if (info.isFIFO()) return new Socket({ fd, readable: false, writable: true });
  if (isatty(fd)) return new TerminalStream(fd);
  return createWriteStream('', { fd });
}

async function streamTo(
  target: string,
  info: Stats,
  data: OutputData,
  signal?: AbortSignal,
): Promise<void> {
  const stream = streamOver(await openWithoutBlocking(target, signal), info);
  let failure: NodeJS.ErrnoException | undefined;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    failure ??= error;
  });
  try {
    await writePieces(stream, piecesOf(data), () => failure !== undefined);
    if (!failure) await new Promise<void>((resolve) => stream.end(resolve));
  } finally {
    stream.destroy();
  }
  if (!failure) return;
  if (failure.code === 'EPIPE') {
    throw new PlumbError(
      'EPIPE',
      `The reader of ${target} closed it before the output was complete.`,
      {
        cause: failure,
      },
    );
  }
  throw failure;
}

type Destination =
  { kind: 'stdout' } | { kind: 'file'; file: string } | { kind: 'stream'; info: Stats };

/** What writing `target` would do; refuses (one line) what cannot be written. */
async function destinationOf(target: string): Promise<Destination> {
  if (await isStandardOutput(target)) return { kind: 'stdout' };
  const info = await statOrNull(target);
  if (info === null || info.isFile()) {
    // A link to nothing yet gets its file made where it points, as `echo > link` does.
    const file = info === null ? await linkEnd(target) : await realpath(target);
    await requireFolderOf(file, target);
    return { kind: 'file', file };
  }
  if (info.isFIFO() || info.isCharacterDevice()) return { kind: 'stream', info };
  throw refusal(target, info);
}

/**
 * Checks that `target` can be written, without writing it: a command that works for minutes
 * first checks its outputs, so a mistyped folder is said at once, not after the work.
 */
export async function checkOutput(target: string): Promise<void> {
  await destinationOf(target);
}

/** Writes `data` to the output `target` as what the path is (see the top of this file). */
export async function writeOutput(
  target: string,
  data: OutputData,
  options: OutputOptions,
): Promise<void> {
  const destination = await destinationOf(target);
  if (destination.kind === 'stdout') await writePieces(options.stdout, piecesOf(data));
  else if (destination.kind === 'file') await writeFileAtomic(destination.file, data);
  else await streamTo(target, destination.info, data, options.signal);
}
