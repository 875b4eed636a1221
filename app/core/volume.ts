import { stat } from 'node:fs/promises';
import path from 'node:path';
import { PlumbError } from '../contract/errors.js';
import type { VolumeInfo } from '../contract/volume.js';
import { loadNative } from './native/load.js';

/** Facts about the volume holding `folder`, with a clear error when the folder is unusable. */
export async function volumeInfo(folder: string): Promise<VolumeInfo> {
  const target = path.resolve(folder);
  let stats;
  try {
    stats = await stat(target);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? 'EIO';
    if (code === 'ENOENT')
      throw new PlumbError('ENOENT', `No such folder: ${target}. Check the path and try again.`);
    if (code === 'EACCES' || code === 'EPERM') {
      throw new PlumbError(
        code,
        `Permission denied reading ${target}. Choose a folder you can open.`,
      );
    }
    throw new PlumbError(code, `Cannot open ${target}: ${(cause as Error).message}`);
  }
  if (!stats.isDirectory())
    throw new PlumbError('ENOTDIR', `${target} is a file, not a folder. Give a folder.`);
  return loadNative().volumeInfo(target);
}
