// After electron-builder: every app it unpacked under release/ carries the engine for its own CPU
// (resources/engine/plumb.node), read from the file's header as the loader reads it. Used by the
// release workflow on the runners that package.
//   node --import tsx scripts/check-packed-engines.ts [RELEASE_DIR]
import { existsSync } from 'node:fs';
import path from 'node:path';
import { engineBinaryOfFile, engineFits } from '../app/core/native/engine-binary.js';

const release = path.resolve(process.argv[2] ?? 'release');
// electron-builder's folder for each app it packs: x64 has no suffix on macOS.
const apps = [
  { dir: 'mac-arm64/Plumb.app/Contents/Resources', platform: 'darwin', arch: 'arm64' },
  { dir: 'mac/Plumb.app/Contents/Resources', platform: 'darwin', arch: 'x64' },
  { dir: 'win-unpacked/resources', platform: 'win32', arch: 'x64' },
  { dir: 'win-arm64-unpacked/resources', platform: 'win32', arch: 'arm64' },
  { dir: 'linux-unpacked/resources', platform: 'linux', arch: 'x64' },
  { dir: 'linux-arm64-unpacked/resources', platform: 'linux', arch: 'arm64' },
];

let checked = 0;
let wrong = 0;
for (const app of apps) {
  const appDir = path.join(release, app.dir);
  if (!existsSync(appDir)) continue;
  checked += 1;
  const engine = path.join(appDir, 'engine', 'plumb.node');
  const binary = existsSync(engine) ? engineBinaryOfFile(engine) : null;
  const fits = binary !== null && engineFits(binary, app.platform, app.arch);
  if (!fits) wrong += 1;
  const what = binary ? binary.description : existsSync(engine) ? 'not an engine' : 'missing';
  console.log(`${fits ? 'ok' : 'WRONG'} ${app.platform}-${app.arch}: ${engine} is ${what}`);
}
if (checked === 0) {
  console.error(`check-packed-engines: no packed app under ${release}; run electron-builder first`);
  process.exit(1);
}
process.exit(wrong === 0 ? 0 : 1);
