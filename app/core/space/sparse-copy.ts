/**
 * `space sparse --copy-to`: a copy that keeps holes, made under a private temporary name beside
 * the destination, cancellable, and with the temporaries of copies that were killed removed at
 * the next copy into that folder (as the benchmark removes its stale plumb-test-* folders).
 */
import { createHash, randomBytes } from 'node:crypto';
import { link, lstat, open, readdir, stat, unlink } from '../os-fs.js';
import os from 'node:os';
import path from 'node:path';
import { PlumbError } from '../../contract/errors.js';
import type { SparseFile } from '../../contract/space.js';
import { processAlive } from '../process-alive.js';
import { requireRegularFile } from '../input-file.js';
import { loadNative } from '../native/load.js';
import { openForReading } from './content.js';
import { describeSparse } from './sparse.js';

/** `.plumb-copy-PID-HOST-RANDOM`: whose copy it is, so a later run knows when it is stale. */
const copyTempPrefix = '.plumb-copy-';
const copyTempPattern = /^\.plumb-copy-(\d+)-([0-9a-f]{8})-[0-9a-f]+$/;
const dayMs = 86_400_000;

function hostTag(): string {
  return createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);
}

function copyTempPathFor(target: string): string {
  const name = `${copyTempPrefix}${process.pid}-${hostTag()}-${randomBytes(6).toString('hex')}`;
  return path.join(path.dirname(target), name);
}

/**
 * Removes copy temporaries left in `folder` by copies that were killed: this host's whose
 * process is gone, another host's older than a day. Returns the files removed.
 */
async function removeStaleCopies(
  folder: string,
  alive: (pid: number) => boolean = processAlive,
): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const match = copyTempPattern.exec(name);
    if (!match) continue;
    const file = path.join(folder, name);
    const info = await lstat(file).catch(() => null);
    if (!info?.isFile()) continue;
    const stale =
      match[2] === hostTag() ? !alive(Number(match[1])) : Date.now() - info.mtimeMs > dayMs;
    if (!stale) continue;
    await unlink(file).catch(() => undefined);
    removed.push(file);
  }
  return removed;
}

export interface CopyHooks {
  signal?: AbortSignal;
  /** Called once the temporary file exists, before any data is written (tests look at it). */
  onTemporary?: (temp: string) => void | Promise<void>;
}

function copyCancelled(): PlumbError {
  return new PlumbError('ECANCELED', 'The copy was cancelled; nothing was left behind.');
}

/**
 * Copies `from` to `to` (which must not exist) writing only its data ranges, so holes stay holes.
 * The temporary file is created 0600 and exclusively (by the addon), takes the source's mode only
 * once its data is written, synced and checked, and is then linked to `to`.
 */
export async function copySparse(
  from: string,
  to: string,
  hooks: CopyHooks = {},
): Promise<SparseFile> {
  const { signal } = hooks;
  const source = path.resolve(from);
  const target = path.resolve(to);
  if (
    await lstat(target).then(
      () => true,
      () => false,
    )
  ) {
    throw new PlumbError('EEXIST', `${target} already exists; choose a new name for the copy.`);
  }
  await requireRegularFile(source);
  // Said of the folder the user named, before a temporary name beside the copy could be.
  const folder = path.dirname(target);
  const folderStats = await stat(folder).catch(() => null);
  if (!folderStats?.isDirectory()) {
    throw new PlumbError(
      folderStats ? 'ENOTDIR' : 'ENOENT',
      `The folder ${folder} ${folderStats ? 'is a file, not a folder' : 'does not exist'}: create it first, or choose another place for the copy.`,
    );
  }
  await removeStaleCopies(folder);
  const native = loadNative();
  const map = await native.dataRanges(source);
  const temp = copyTempPathFor(target);
  await native.createSparseFile(temp, map.logicalBytes);
  try {
    await hooks.onTemporary?.(temp);
    const input = await openForReading(source);
    const output = await open(temp, 'r+');
    try {
      const before = await input.stat();
      const buffer = Buffer.allocUnsafe(1 << 20);
      for (const range of map.data) {
        for (let at = range.offset; at < range.offset + range.length;) {
          if (signal?.aborted) throw copyCancelled();
          const want = Math.min(buffer.length, range.offset + range.length - at);
          const { bytesRead } = await input.read(buffer, 0, want, at);
          if (bytesRead === 0) break;
          await output.write(buffer, 0, bytesRead, at);
          at += bytesRead;
        }
      }
      await output.sync();
      const after = await input.stat();
      const written = await output.stat();
      if (
        after.size !== before.size ||
        after.mtimeMs !== before.mtimeMs ||
        written.size !== map.logicalBytes
      ) {
        throw new PlumbError('EAGAIN', `${source} changed while it was copied; copy it again.`);
      }
      // Only now, complete and checked, may the copy be as readable as its source.
      await output.chmod(before.mode & 0o7777);
    } finally {
      await Promise.all([input.close(), output.close()]);
    }
    if (signal?.aborted) throw copyCancelled();
    // link, not rename: it refuses to replace a file that appeared meanwhile.
    await link(temp, target);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  return describeSparse(target);
}
