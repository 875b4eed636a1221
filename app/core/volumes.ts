/**
 * The mounted volumes a user can test: the OS module's mount points (on Linux the block-device
 * mounts of /proc/self/mounts, on macOS / and /Volumes/*, on Windows the drive letters that
 * exist), each with `volumeInfo` facts.
 */
import type { MountedVolume } from '../contract/volumes.js';
import { loadNative } from './native/load.js';
import { hostOs, osModule } from './os/index.js';

/** The name a list shows: the last part of the mount point, or the system volume's role. */
export function volumeName(
  mountPoint: string,
  platform: NodeJS.Platform = hostOs.platform,
): string {
  return osModule(platform).volumeName(mountPoint);
}

/** Every mounted volume that answers `volumeInfo`; one that does not (no permission, gone) is left out. */
export async function listVolumes(): Promise<MountedVolume[]> {
  const native = loadNative();
  const volumes: MountedVolume[] = [];
  const seenMounts = new Set<string>();
  for (const mountPoint of await hostOs.mountPoints()) {
    try {
      const info = await hostOs.completeVolumeFacts(await native.volumeInfo(mountPoint));
      const key = info.mountPoint ?? mountPoint;
      if (seenMounts.has(key)) continue; // macOS lists the system volume under /Volumes too
      seenMounts.add(key);
      volumes.push({ ...info, name: volumeName(key) });
    } catch {
      // Unmounted while listing, or not readable by this user: not a target.
    }
  }
  return volumes;
}
