// Builds the N-API addon (native/binding.gyp) with node-gyp (run by `npm install`).
// Offline where Node's headers are installed locally (/usr/include/node); elsewhere node-gyp
// fetches the headers. A failed build does not fail the install (unless PLUMB_NATIVE_STRICT=1 or
// --force): the app starts, and the loader explains how to rebuild.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

const built = spawnSync(
  process.execPath,
  [nodeGyp, 'rebuild', '--directory', path.join(root, 'native')],
  { stdio: 'inherit', env },
);
if (built.status !== 0) {
  console.error(
    '\nplumb: the native addon did not build. Plumb needs a C++ compiler and Python 3 ' +
      '(macOS: `xcode-select --install`; Windows: Visual Studio Build Tools with "Desktop development with C++"; ' +
      'Linux: `apt-get install build-essential python3`), then `npm run build:native`.\n',
  );
  process.exit(strict ? 1 : 0);
}
