// Compiles (does not link) the Windows sources of the addon (napi/, engine/, scan/, win/) with
// mingw-w64, so Windows code that cannot run here still has to compile here. Used by .ci/run; the GitHub workflow builds it for real.
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const native = path.join(root, 'native');
const compiler = process.env.MINGW_CXX ?? 'x86_64-w64-mingw32-g++-posix';
const require = createRequire(import.meta.url);
const addonApi = path.dirname(require.resolve('node-addon-api/package.json'));
const nodeHeaders = process.env.NODE_HEADERS ?? '/usr/include/node';

const sources = execFileSync(process.execPath, ['sources.cjs', 'napi', 'engine', 'scan', 'win'], {
  cwd: native,
  encoding: 'utf8',
})
  .split(' ')
  .filter(Boolean);
let failed = 0;
for (const source of sources) {
  const args = [
    '-std=c++17',
    '-fsyntax-only',
    '-Wall',
    '-Isrc',
    `-I${addonApi}`,
    `-I${nodeHeaders}`,
    '-DNAPI_VERSION=8',
    '-DNAPI_CPP_EXCEPTIONS',
    '-DUNICODE',
    '-D_UNICODE',
    '-DWIN32_LEAN_AND_MEAN',
    '-DNOMINMAX',
    source,
  ];
  const result = spawnSync(compiler, args, { cwd: native, stdio: 'inherit' });
  if (result.error) {
    console.error(
      `check-windows: cannot run ${compiler} (${result.error.message}); install g++-mingw-w64-x86-64-posix.`,
    );
    process.exit(1);
  }
  if (result.status !== 0) failed += 1;
  else console.log(`mingw ok  ${source}`);
}
if (failed > 0) {
  console.error(`check-windows: ${failed} of ${sources.length} Windows sources failed to compile.`);
  process.exit(1);
}
console.log(`check-windows: ${sources.length} Windows sources compile with ${compiler}.`);
