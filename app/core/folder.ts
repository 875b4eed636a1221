import { stat } from './os-fs.js';
import path from 'node:path';
import { PlumbError } from '../contract/errors.js';

/**
 * The folder a user named, resolved, or a PlumbError that says in words what is wrong with it and
 * what to do: missing, not allowed, or a file. Every command that works in a folder (bench, info,
 * space scan) checks it here first, so each says the same.
 */
export async function checkFolder(folder: string): Promise<string> {
  const target = path.resolve(folder);
  let stats;
  try {
    stats = await stat(target);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? 'EIO';
    const message =
      code === 'ENOENT'
        ? `No such folder: ${target}. Check the path and try again.`
        : code === 'EACCES' || code === 'EPERM'
          ? `Permission denied reading ${target}. Choose a folder you can open.`
          : `Cannot open ${target}: ${(cause as Error).message}`;
    throw new PlumbError(code, message, { cause });
  }
  if (!stats.isDirectory())
    throw new PlumbError('ENOTDIR', `${target} is a file, not a folder. Give a folder.`);
  return target;
}
