// `npm test`: build, type-check, lint, then every test (unit, native, end-to-end): those that
// measure rates alone, then the rest two at a time, with one summary of both runs at the end.
// `--only=unit` (or `native,e2e`, …) runs those suites alone after the build, without the checks:
// `npm run test:unit` and the like while working on one part. Other arguments go to node --test.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function step(title, command, args) {
  console.log(`\n── ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n${title} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status || 1);
  }
}

const onlyArgument = process.argv.slice(2).find((arg) => arg.startsWith('--only='));
const only = onlyArgument?.slice('--only='.length);
const testArguments = process.argv.slice(2).filter((arg) => arg !== onlyArgument);

step('build', process.execPath, ['scripts/build.mjs', '--quiet']);
if (!only) checks();

function checks() {
  if (existsSync(path.join(root, 'node_modules', 'electron', 'electron.d.ts'))) {
    step('type-check', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']);
  } else {
    console.log(
      '\nThe electron package is not installed (its binary download failed), so app/desktop/main.ts and ' +
        'preload.ts are type-checked only where it is; install with ELECTRON_SKIP_BINARY_DOWNLOAD=1 to get its types.',
    );
    step('type-check (without the Electron entry points)', bin('tsc'), [
      '-p',
      'tsconfig.no-desktop.json',
      '--noEmit',
    ]);
  }
  step('type-check renderer', bin('tsc'), ['-p', 'renderer/tsconfig.json', '--noEmit']);
  step('lint', bin('eslint'), ['.']);
  step('format', bin('prettier'), ['--check', '.', '--log-level', 'warn']);

  // The C++ of every OS, in native/.clang-format's style (the Windows and macOS files included).
  const cppSources = readdirSync(path.join(root, 'native', 'src'), { recursive: true })
    .filter((file) => /\.(cc|h)$/.test(file))
    .map((file) => path.join('native', 'src', file));
  if (spawnSync('clang-format', ['--version']).status === 0) {
    step('format native', 'clang-format', ['--dry-run', '--Werror', ...cppSources]);
  } else {
    console.log(
      '\nclang-format is not installed, so the C++ format is not checked (apt-get install clang-format).',
    );
  }
}

const suites = (only ? only.split(',') : ['unit', 'native', 'e2e']).map((s) =>
  path.join('tests', s),
);
const files = suites
  .flatMap((dir) =>
    (existsSync(path.join(root, dir))
      ? readdirSync(path.join(root, dir), { recursive: true })
      : []
    ).map((f) => path.join(dir, String(f))),
  )
  .filter((file) => file.endsWith('.test.ts'))
  .sort();
// Tests that measure rates or times against a throttled disk need the machine to themselves: on
// 2 cores, another test file beside them starves the writer and a 20 MB/s throttle measures 11.
// They say so in their header (`// plumb-test: alone`) and run first, one at a time; every other
// file then runs two at a time. The two runs' counts are added up at the end.
const alone = files.filter((file) =>
  /^\/\/ plumb-test: alone\b/m.test(readFileSync(path.join(root, file), 'utf8').slice(0, 4000)),
);
const together = files.filter((file) => !alone.includes(file));

// Plumb's data and state folders (kept scans, hash caches, Trash journals) in a folder of this run,
// unless the caller names them: a test that runs Plumb's code in its own process without naming
// them would otherwise write into the user's ~/.local/share/plumb (tests/helpers/cli.ts childEnv
// does the same for the plumb processes the tests start).
const ownFolders = mkdtempSync(path.join(os.tmpdir(), 'plumb-test-run-'));
process.once('exit', () => rmSync(ownFolders, { recursive: true, force: true }));
const testEnv = {
  ...process.env,
  PLUMB_DATA_DIR: process.env.PLUMB_DATA_DIR ?? path.join(ownFolders, 'data'),
  PLUMB_STATE_DIR: process.env.PLUMB_STATE_DIR ?? path.join(ownFolders, 'state'),
};

/** Runs node --test, passing its output through and adding up its summary counts into `totals`. */
function runTests(title, concurrency, testFiles, totals) {
  console.log(`\n── ${title}`);
  if (testFiles.length === 0) return Promise.resolve(0);
  const args = ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`];
  const child = spawn(process.execPath, [...args, ...testArguments, ...testFiles], {
    cwd: root,
    env: testEnv,
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  let tail = ''; // the unfinished last line
  const count = (line) => {
    const match = /^# (tests|pass|fail|skipped|todo|cancelled) (\d+)$/.exec(line);
    if (match) totals[match[1]] = (totals[match[1]] ?? 0) + Number(match[2]);
  };
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    const lines = (tail + chunk.toString()).split('\n');
    tail = lines.pop();
    lines.forEach(count);
  });
  return new Promise((resolve) =>
    child.on('close', (status) => {
      count(tail);
      resolve(status ?? 1);
    }),
  );
}

// Writes still in the page cache (npm ci and the build just wrote hundreds of MB) would be
// flushed while the rates are measured, and every fsync they time would wait for them.
if (process.platform !== 'win32') spawnSync('sync');

const totals = {};
const statuses = [
  await runTests(
    `tests that measure rates, one at a time (${alone.length} files)`,
    1,
    alone,
    totals,
  ),
  await runTests(`tests (${together.length} files)`, 2, together, totals),
];
console.log(
  `\n── all tests (${files.length} files): ${totals.tests ?? 0} tests, ${totals.pass ?? 0} pass, ` +
    `${totals.fail ?? 0} fail, ${totals.cancelled ?? 0} cancelled, ${totals.skipped ?? 0} skipped, ${totals.todo ?? 0} todo`,
);
if (statuses.some((status) => status !== 0)) {
  console.error('\ntests failed (exit 1).');
  process.exit(1);
}
