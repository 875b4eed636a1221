// Builds the N-API addon (native/binding.gyp) and then the front door executable
// (native/front/binding.gyp) with node-gyp (run by `npm install`), and installs the executable as
// bin/plumb (bin/plumb.exe) beside bin/plumb.js. Two gyp files, so that the front door, which
// nothing but `plumb space scan` on a command line needs, can never cost the app its addon: if its
// compile or link fails (an untried toolchain), the addon stays and the install says so.
// Offline where Node's headers are installed locally (/usr/include/node); elsewhere node-gyp
// fetches the headers. A failed build does not fail the install (unless PLUMB_NATIVE_STRICT=1 or
// --force): the app starts, and the loader explains how to rebuild.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');
const strict = force || process.env.PLUMB_NATIVE_STRICT === '1';
const env = { ...process.env };

const localHeaders = '/usr/include/node/node_api.h';
if (!env.npm_config_nodedir && existsSync(localHeaders)) env.npm_config_nodedir = '/usr';

const require = createRequire(import.meta.url);
let nodeGyp;
try {
  nodeGyp = require.resolve('node-gyp/bin/node-gyp.js');
} catch {
  console.error('plumb: node-gyp is not installed; run `npm install` first.');
  process.exit(strict ? 1 : 0);
}

const gyp = (folder) =>
  spawnSync(process.execPath, [nodeGyp, 'rebuild', '--directory', folder], {
    stdio: 'inherit',
    env,
  });

if (gyp(path.join(root, 'native')).status !== 0) {
  console.error(
    '\nplumb: the native addon did not build. Plumb needs a C++ compiler and Python 3 ' +
      '(macOS: `xcode-select --install`; Windows: Visual Studio Build Tools with "Desktop development with C++"; ' +
      'Linux: `apt-get install build-essential python3`), then `npm run build:native`.\n',
  );
  process.exit(strict ? 1 : 0);
}

// The front door: `plumb space scan` without Node, everything else handed to bin/plumb.js. Copied
// beside it under a temporary name, then renamed, so a running bin/plumb is never half-written.
const exe = process.platform === 'win32' ? '.exe' : '';
const frontDir = path.join(root, 'native', 'front');
const built = path.join(frontDir, 'build', 'Release', `plumb_front${exe}`);
const installed = path.join(root, 'bin', `plumb${exe}`);
if (gyp(frontDir).status === 0 && existsSync(built)) {
  copyFileSync(built, `${installed}.tmp`);
  renameSync(`${installed}.tmp`, installed);
} else {
  console.error(
    `\nplumb: the front door bin/plumb${exe} did not build; the addon did, and everything works ` +
      `through \`node bin/plumb.js\` and the app (only \`plumb space scan\` from a shell uses more memory).\n`,
  );
  // An older bin/plumb would no longer match bin/plumb.js: without it, the shell finds nothing
  // stale, and npm's bin is bin/plumb.js anyway.
  rmSync(installed, { force: true });
  if (strict) process.exit(1);
}
