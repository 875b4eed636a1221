/**
 * Reading file content for duplicate detection without disturbing it: no access-time updates where
 * the OS allows (O_NOATIME) and a byte-for-byte comparison. The scan's digests (head and tail,
 * then whole files) are computed in the addon (native/src/scan/scan.cc).
 */
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open } from '../os-fs.js';

const noAtime = (constants as { O_NOATIME?: number }).O_NOATIME ?? 0;
const noFollow = (constants as { O_NOFOLLOW?: number }).O_NOFOLLOW ?? 0;

/** Opens for reading without updating the access time where permitted (owner or root). */
export async function openForReading(file: string): Promise<FileHandle> {
  if (noAtime) {
    try {
      return await open(file, constants.O_RDONLY | noAtime | noFollow);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    }
  }
  return open(file, constants.O_RDONLY | noFollow);
}

async function readFully(handle: FileHandle, buffer: Buffer, position: number): Promise<number> {
  let done = 0;
  while (done < buffer.length) {
    const { bytesRead } = await handle.read(buffer, done, buffer.length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}

/** True when both files hold exactly the same bytes (compared in 1 MiB blocks). */
export async function sameContent(a: string, b: string, signal?: AbortSignal): Promise<boolean> {
  const [left, right] = await Promise.all([openForReading(a), openForReading(b)]);
  try {
    const [leftStat, rightStat] = await Promise.all([left.stat(), right.stat()]);
    if (leftStat.size !== rightStat.size) return false;
    const blockBytes = 1024 * 1024;
    const x = Buffer.allocUnsafe(blockBytes);
    const y = Buffer.allocUnsafe(blockBytes);
    for (let position = 0; ; position += blockBytes) {
      signal?.throwIfAborted();
      const [gotX, gotY] = await Promise.all([
        readFully(left, x, position),
        readFully(right, y, position),
      ]);
      if (gotX !== gotY) return false;
      if (!x.subarray(0, gotX).equals(y.subarray(0, gotY))) return false;
      if (gotX < blockBytes) return true;
    }
  } finally {
    await Promise.all([left.close(), right.close()]);
  }
}
