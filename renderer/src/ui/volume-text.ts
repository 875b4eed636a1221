/** How a volume reads on screen, and which folder of it a test or an action starts in. */
import type { VolumeInfo } from '../../../app/contract/volume.js';
import type { MountedVolume } from '../../../app/contract/volumes.js';

/** Bus, medium and place in one line: "NVME · SSD · Internal". */
export function mediumText(volume: VolumeInfo): string {
  const parts = [
    volume.bus ? volume.bus.toUpperCase() : null,
    volume.medium === 'ssd' ? 'SSD' : volume.medium === 'hdd' ? 'Hard disk' : null,
    volume.internal === null ? null : volume.internal ? 'Internal' : 'External',
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'Bus not reported';
}

/** The folder a volume's test files go in: the home folder when it is on that volume (writable). */
export function folderFor(
  volume: MountedVolume,
  homeDir: string | undefined,
  mounts: string[],
): string {
  const mount = volume.mountPoint ?? volume.path;
  if (homeDir && mountOf(homeDir, mounts) === mount) return homeDir;
  return mount;
}

/** The mount point (of `mountPoints`) that holds `path`: the longest one it lies under. */
export function mountOf(path: string, mountPoints: readonly string[]): string | null {
  let best: string | null = null;
  for (const mount of mountPoints) {
    const prefix = /[/\\]$/.test(mount) ? mount : `${mount}/`;
    const under = path === mount || path.startsWith(prefix);
    if (under && (best === null || mount.length > best.length)) best = mount;
  }
  return best;
}
