import type { VolumeInfo } from '../contract/volume.js';
import type { NativeVolumeInfo } from '../../native/index.js';
import { checkFolder } from './folder.js';
import { macVolumeBus } from './mac-bus.js';
import { loadNative } from './native/load.js';

/**
 * The addon's volume facts with what only the OS's tools tell: on macOS the bus, its link, internal
 * or not and solid state (diskutil, system_profiler; app/core/mac-bus.ts), which the addon leaves
 * unknown, and the file system and clone support where the addon could not tell (its statfs and
 * getattrlist answers win). Elsewhere the addon's answer as it is.
 */
export async function completeVolumeFacts<T extends NativeVolumeInfo>(info: T): Promise<T> {
  if (process.platform !== 'darwin' || !info.mountPoint) return info;
  const mac = await macVolumeBus(info.mountPoint);
  if (!mac) return info;
  return {
    ...info,
    bus: mac.bus ?? info.bus,
    internal: mac.internal ?? info.internal,
    medium: mac.medium ?? info.medium,
    rotational: mac.medium === null ? info.rotational : mac.medium === 'hdd',
    fsType: info.fsType ?? mac.fsType,
    supportsClones: info.supportsClones ?? mac.supportsClones,
  };
}

/** Facts about the volume holding `folder`, with a clear error when the folder is unusable. */
export async function volumeInfo(folder: string): Promise<VolumeInfo> {
  return completeVolumeFacts(await loadNative().volumeInfo(await checkFolder(folder)));
}
