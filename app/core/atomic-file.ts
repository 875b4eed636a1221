// Writing a file so no reader ever sees it half-written, in a module of its own so that commands
// which only save a small state file (the space scan) load no result schemas.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The private name `file` is written under before it is renamed into place:
 * `.NAME.PID.RANDOM.tmp` beside it, so a cleaner can tell whose process left one behind.
 */
export function temporaryPathFor(file: string): string {
  return path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
}

/**
 * Writes `data` to `file` so readers see the old file or the new one, never half of one. `data`
 * may be given in pieces (an iterable of strings or bytes), so a large document is never one string.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = temporaryPathFor(file);
  try {
    // Private while it is written; then the mode the file has, or any new file of the user's.
    await writeFile(temporary, data, { flag: 'wx', mode: 0o600 });
    const existing = await stat(file).catch(() => null);
    await chmod(temporary, existing ? existing.mode & 0o7777 : 0o666 & ~process.umask());
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
