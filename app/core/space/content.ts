/**
 * Reading file content for duplicate detection without disturbing it: no access-time updates where
 * the OS allows (O_NOATIME), partial keys (head and tail), a full hash computed off the JS thread,
 * and a byte-for-byte comparison.
 */
import { createHash, webcrypto } from 'node:crypto';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** Bytes read from each end of a file for the partial key. */
export const edgeBytes = 4096;
/** Files up to this size are hashed whole at once: a partial key would read most of them anyway. */
export const smallFileBytes = 64 * 1024;
/** Chunk of the full hash: each chunk is digested on the thread pool, in parallel with reading. */
export const hashChunkBytes = 4 * 1024 * 1024;

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

function digest(data: Buffer): string {
  return createHash('sha256').update(data).digest('base64url');
}

/** A key from the first and last 4 KiB and the size: files that differ there cannot be equal. */
export async function edgeKey(file: string, size: number): Promise<string> {
  const handle = await openForReading(file);
  try {
    const head = Buffer.allocUnsafe(Math.min(edgeBytes, size));
    const tail = Buffer.allocUnsafe(Math.min(edgeBytes, size));
    const headRead = await readFully(handle, head, 0);
    const tailRead = await readFully(handle, tail, Math.max(0, size - tail.length));
    return `${size}:${digest(Buffer.concat([head.subarray(0, headRead), tail.subarray(0, tailRead)]))}`;
  } finally {
    await handle.close();
  }
}

/**
 * SHA-256 over the file in 4 MiB chunks, each digested on the thread pool while the next is read,
 * combined as SHA-256(size, chunk digests). Reports bytes as they are read.
 */
export async function contentHash(
  file: string,
  size: number,
  onBytes?: (bytes: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  const handle = await openForReading(file);
  try {
    const chunks: Promise<ArrayBuffer>[] = [];
    let position = 0;
    let total = 0;
    for (;;) {
      signal?.throwIfAborted();
      const buffer = Buffer.allocUnsafe(Math.min(hashChunkBytes, Math.max(1, size - position)));
      const got = await readFully(handle, buffer, position);
      if (got > 0) chunks.push(webcrypto.subtle.digest('SHA-256', buffer.subarray(0, got)));
      position += got;
      total += got;
      onBytes?.(got);
      if (got < buffer.length) break;
      // Keep at most a few chunks in memory per file: wait for the oldest digest.
      if (chunks.length >= 4) await chunks[chunks.length - 4];
    }
    const combined = createHash('sha256').update(`${total}:`);
    for (const part of await Promise.all(chunks)) combined.update(Buffer.from(part));
    return combined.digest('base64url');
  } finally {
    await handle.close();
  }
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
