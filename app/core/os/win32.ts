/**
 * Windows: %APPDATA% and %LOCALAPPDATA%, UTF-16 names, ACLs instead of modes, clones by ReFS
 * block cloning and rename, the Recycle Bin, and the drive letters that exist.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { OsModule } from './os-module.js';

const browserPrograms = [
  'Google\\Chrome\\Application\\chrome.exe',
  'Microsoft\\Edge\\Application\\msedge.exe',
  'Chromium\\Application\\chrome.exe',
];

export const win32: OsModule = {
  platform: 'win32',
  path: path.win32,
  dataDir(env, home) {
    return path.win32.join(env.APPDATA ?? path.win32.join(home, 'AppData', 'Roaming'), 'Plumb');
  },
  // path.join, as the state folder always was: on Windows it is path.win32.
  stateDir(env, home) {
    return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'Plumb');
  },
  ownerModes: false,
  bytesNamed: false,
  dedupeMethod: 'clone-rename',
  punchMethod: 'guarded-in-place',
  trashKind: 'recycle-bin',
  async mountPoints() {
    const letters = Array.from({ length: 26 }, (_, i) => `${String.fromCharCode(65 + i)}:\\`);
    return letters.filter((root) => existsSync(root));
  },
  volumeName(mountPoint) {
    return mountPoint.replace(/\\$/, '');
  },
  async completeVolumeFacts(info) {
    return { ...info, container: null };
  },
  browserCandidates(env) {
    const roots = [env.ProgramFiles, env['ProgramFiles(x86)'], env.LOCALAPPDATA].filter(
      (root): root is string => !!root,
    );
    if (roots.length === 0) roots.push('C:\\Program Files', 'C:\\Program Files (x86)');
    return roots.flatMap((root) =>
      browserPrograms.map((program) => path.win32.join(root, program)),
    );
  },
  browserInstallHint: 'Install Google Chrome or Microsoft Edge',
  chromiumNeedsNoSandbox() {
    return false;
  },
};
