/**
 * Linux (and, with os/index.ts's few changes, any other Unix): XDG folders, FIDEDUPERANGE, the
 * XDG Trash, the block-device mounts of /proc/self/mounts.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OsModule } from './os-module.js';

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

const browserNames = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'microsoft-edge',
  'microsoft-edge-stable',
];

export const linux: OsModule = {
  platform: 'linux',
  path: path.posix,
  dataDir(env, home) {
    const dataHome =
      env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME)
        ? env.XDG_DATA_HOME
        : path.join(home, '.local', 'share');
    return path.join(dataHome, 'plumb');
  },
  stateDir(env, home) {
    return path.join(env.XDG_STATE_HOME ?? path.join(home, '.local', 'state'), 'plumb');
  },
  ownerModes: true,
  bytesNamed: true,
  dedupeMethod: 'dedupe-range',
  punchMethod: 'guarded-in-place',
  trashKind: 'xdg',
  async mountPoints() {
    return parseProcMounts(await readFile('/proc/self/mounts', 'utf8')).map((m) => m.mountPoint);
  },
  volumeName(mountPoint) {
    return mountPoint === '/' ? 'System (/)' : path.posix.basename(mountPoint);
  },
  async completeVolumeFacts(info) {
    return { ...info, container: null };
  },
  browserCandidates(env) {
    const fixed = browserNames.map((name) => `/usr/bin/${name}`).concat('/snap/bin/chromium');
    const onPath = (env.PATH ?? '')
      .split(path.posix.delimiter)
      .filter((dir) => dir && path.posix.isAbsolute(dir))
      .flatMap((dir) => browserNames.map((name) => path.posix.join(dir, name)));
    return [...new Set([...fixed, ...onPath])];
  },
  browserInstallHint:
    'Install Chromium (Debian/Ubuntu: `sudo apt install chromium`; Fedora: `sudo dnf install chromium`) or Google Chrome',
  chromiumNeedsNoSandbox() {
    return process.getuid?.() === 0;
  },
};
