import type { VolumeInfo } from '../contract/volume.js';
import { checkFolder } from './folder.js';
import { loadNative } from './native/load.js';
import { hostOs } from './os/index.js';

/** Facts about the volume holding `folder`, with a clear error when the folder is unusable. */
export async function volumeInfo(folder: string): Promise<VolumeInfo> {
  // The OS module adds what only the OS's tools tell (on macOS the bus: os/darwin.ts).
  return hostOs.completeVolumeFacts(await loadNative().volumeInfo(await checkFolder(folder)));
}
