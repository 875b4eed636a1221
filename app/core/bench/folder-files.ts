/**
 * The files `plumb read DIR` times: every regular file under the folder, in name order, and the
 * folders and files under it that could not be read, which are left out and named (as a scan
 * skips what it cannot read) instead of failing the whole run.
 */
import { constants, type Dirent } from 'node:fs';
import { access, readdir } from '../os-fs.js';
import path from 'node:path';

export interface FolderFiles {
  files: string[];
  /** Folders under it that could not be listed. */
  unreadableFolders: string[];
  /** Files under it that could not be opened for reading. */
  unreadableFiles: string[];
}

/** Errors that mean "not yours to read" or "gone meanwhile": left out, not fatal. */
const skippable = new Set(['EACCES', 'EPERM', 'ENOENT', 'ENOTDIR', 'ELOOP']);

async function readable(file: string): Promise<boolean> {
  try {
    await access(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The files under `dir` in name order, a folder's files where the folder falls in it (the folder
 * itself must be readable: its error is thrown). A stack of folders, not recursion: a deep tree
 * cannot overflow the call stack.
 */
export async function readableFilesUnder(dir: string): Promise<FolderFiles> {
  const found: FolderFiles = { files: [], unreadableFolders: [], unreadableFiles: [] };
  const listed = async (folder: string): Promise<Dirent[]> =>
    (await readdir(folder, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  const stack = [{ folder: dir, entries: await listed(dir), next: 0 }];
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    const entry = frame.entries[frame.next++];
    if (!entry) {
      stack.pop();
      continue;
    }
    const full = path.join(frame.folder, entry.name);
    if (entry.isDirectory()) {
      try {
        stack.push({ folder: full, entries: await listed(full), next: 0 });
      } catch (error) {
        if (!skippable.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
        found.unreadableFolders.push(full);
      }
    } else if (entry.isFile()) {
      if (await readable(full)) found.files.push(full);
      else found.unreadableFiles.push(full);
    }
  }
  return found;
}

function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What was left out, in one sentence naming the first few; null when nothing was. */
export function unreadableNotice(found: FolderFiles, named = 5): string | null {
  const left = [...found.unreadableFolders, ...found.unreadableFiles];
  if (left.length === 0) return null;
  const parts = [
    found.unreadableFolders.length
      ? counted(found.unreadableFolders.length, 'folder', 'folders')
      : '',
    found.unreadableFiles.length ? counted(found.unreadableFiles.length, 'file', 'files') : '',
  ].filter(Boolean);
  const more = left.length > named ? ` and ${left.length - named} more` : '';
  return `Left out ${parts.join(' and ')} that could not be read (no permission, or gone meanwhile): ${left.slice(0, named).join(', ')}${more}.`;
}
