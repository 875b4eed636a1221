/**
 * The mounted volumes a user can test: on Linux the block-device mounts of /proc/self/mounts, on
 * macOS / and /Volumes/*, on Windows the drive letters that exist; each with `volumeInfo` facts.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MountedVolume } from '../contract/volumes.js';
import { loadNative } from './native/load.js';
import { completeVolumeFacts } from './volume.js';

export interface MountEntry {
  device: string;
  mountPoint: string;
  fsType: string;
}

/** File systems on /dev nodes that are not disks a user would benchmark. */
const pseudoFileSystems = new Set(['devpts', 'devtmpfs', 'squashfs', 'iso9660', 'udf']);

/** /proc/self/mounts escapes spaces, tabs, newlines and backslashes as octal (\040). */
function unescapeMountField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) =>
    String.fromCharCode(parseInt(octal, 8)),
  );
}

/**
 * The disk-backed mounts in the text of /proc/self/mounts: device under /dev, a real file system,
 * the first mount of each device (bind mounts repeat devices).
 */
export function parseProcMounts(text: string): MountEntry[] {
  const seen = new Set<string>();
  const entries: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const [device, mountPoint, fsType] = line.split(' ');
    if (!device || !mountPoint || !fsType) continue;
    if (!device.startsWith('/dev/')) continue;
    if (pseudoFileSystems.has(fsType)) continue;
    if (seen.has(device)) continue;
    seen.add(device);
    entries.push({ device, mountPoint: unescapeMountField(mountPoint), fsType });
  }
  return entries;
}

/** The name a list shows: the last part of the mount point, or the system volume's role. */
export function volumeName(
  mountPoint: string,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return mountPoint.replace(/\\$/, '');
  if (mountPoint === '/') return platform === 'darwin' ? 'Macintosh HD' : 'System (/)';
  return path.posix.basename(mountPoint);
}

async function mountPoints(): Promise<string[]> {
  if (process.platform === 'linux') {
    return parseProcMounts(await readFile('/proc/self/mounts', 'utf8')).map((m) => m.mountPoint);
  }
  if (process.platform === 'darwin') {
    const names = await readdir('/Volumes').catch(() => [] as string[]);
    return ['/', ...names.map((name) => path.join('/Volumes', name))];
  }
  if (process.platform === 'win32') {
    const letters = Array.from({ length: 26 }, (_, i) => `${String.fromCharCode(65 + i)}:\\`);
    return letters.filter((root) => existsSync(root));
  }
  return ['/'];
}

/** Every mounted volume that answers `volumeInfo`; one that does not (no permission, gone) is left out. */
export async function listVolumes(): Promise<MountedVolume[]> {
  const native = loadNative();
  const volumes: MountedVolume[] = [];
  const seenMounts = new Set<string>();
  for (const mountPoint of await mountPoints()) {
    try {
      const info = await completeVolumeFacts(await native.volumeInfo(mountPoint));
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
