import { existsSync } from 'node:fs';
import os from 'node:os';
import type { AppAbout } from '../contract/app.js';
import { loadNative } from './native/load.js';
import { hostOs, type OsModule } from './os/index.js';
import { appVersion } from './version.js';

function nativeAvailable(): boolean {
  try {
    loadNative();
    return true;
  } catch {
    return false;
  }
}

export function about(transport: AppAbout['transport'], system: OsModule = hostOs): AppAbout {
  const home = os.homedir();
  return {
    name: 'Plumb',
    version: appVersion(),
    platform: system.platform,
    arch: process.arch,
    transport,
    nativeAvailable: nativeAvailable(),
    homeDir: existsSync(home) ? home : process.cwd(),
  };
}
