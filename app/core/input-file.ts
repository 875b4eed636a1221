/**
 * Files a user names as input (a CSV, a results JSON, a scenario, a file to copy). A FIFO,
 * socket or device given as one would block its open or read for good, out of reach of Ctrl-C
 * (the read waits in a libuv thread), so each is refused from stat alone, before any open.
 */
import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { PlumbError } from '../contract/errors.js';

/** Refuses anything but a regular file (links are followed), by stat, without opening it. */
export async function requireRegularFile(file: string): Promise<void> {
  const info = await stat(file);
  if (!info.isFile()) throw notRegularFile(file, info);
}

function notRegularFile(file: string, info: Stats): PlumbError {
  const kind = info.isDirectory()
    ? 'a folder'
    : info.isFIFO()
      ? 'a pipe (FIFO)'
      : info.isSocket()
        ? 'a socket'
        : 'a device';
  return new PlumbError('EINVAL', `${file} is ${kind}, not a regular file; give a file.`);
}

/**
 * Reads a user's input file as text. Opened non-blocking and checked again on the open handle,
 * so a file swapped for a FIFO after the stat cannot hang the read either.
 */
export async function readInputFile(file: string): Promise<string> {
  await requireRegularFile(file);
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw notRegularFile(file, info);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
