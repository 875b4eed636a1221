/**
 * macOS: ~/Library/Application Support, clones by clonefile and rename (no FIDEDUPERANGE, no
 * guard against other writers while punching), the macOS Trash, / and /Volumes/*, and the bus of
 * a volume from diskutil and system_profiler (darwin/mac-bus.ts).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { macVolumeBus } from './darwin/mac-bus.js';
import type { OsModule } from './os-module.js';

const browserApps = [
  'Google Chrome.app/Contents/MacOS/Google Chrome',
  'Chromium.app/Contents/MacOS/Chromium',
  'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
  'Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
];

export const darwin: OsModule = {
  platform: 'darwin',
  path: path.posix,
  dataDir(_env, home) {
    return path.join(home, 'Library', 'Application Support', 'Plumb');
  },
  stateDir(_env, home) {
    return path.join(home, 'Library', 'Application Support', 'Plumb');
  },
  ownerModes: true,
  bytesNamed: true,
  dedupeMethod: 'clone-rename',
  punchMethod: 'clone-rename',
  trashKind: 'macos',
  async mountPoints() {
    const names = await readdir('/Volumes').catch(() => [] as string[]);
    return ['/', ...names.map((name) => path.join('/Volumes', name))];
  },
  volumeName(mountPoint) {
    return mountPoint === '/' ? 'Macintosh HD' : path.posix.basename(mountPoint);
  },
  /**
   * The bus, its link, internal or not and solid state, which the addon leaves unknown, the APFS
   * container the volume shares its free space in, and the file system and clone support where
   * the addon could not tell (its statfs and getattrlist answers win).
   */
  async completeVolumeFacts(info) {
    if (!info.mountPoint) return { ...info, container: null };
    const mac = await macVolumeBus(info.mountPoint);
    if (!mac) return { ...info, container: null };
    return {
      ...info,
      bus: mac.bus ?? info.bus,
      internal: mac.internal ?? info.internal,
      medium: mac.medium ?? info.medium,
      rotational: mac.medium === null ? info.rotational : mac.medium === 'hdd',
      fsType: info.fsType ?? mac.fsType,
      supportsClones: info.supportsClones ?? mac.supportsClones,
      container: mac.container,
    };
  },
  browserCandidates(env) {
    const roots = [
      '/Applications',
      ...(env.HOME ? [path.posix.join(env.HOME, 'Applications')] : []),
    ];
    return roots.flatMap((root) => browserApps.map((app) => path.posix.join(root, app)));
  },
  browserInstallHint: 'Install Google Chrome (google.com/chrome) or Microsoft Edge',
  chromiumNeedsNoSandbox() {
    return false;
  },
};
