// `npm test`: build, type-check, lint, then every test (unit, native, end-to-end) in one
// `node --test` run so the summary counts them all. Extra arguments are passed to node --test.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
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

step('build', process.execPath, ['scripts/build.mjs', '--quiet']);

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

const only = process.env.PLUMB_TEST_ONLY; // e.g. "unit" or "native,e2e" while working on one part
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
const args = [
  '--import',
  'tsx',
  '--test',
  '--test-concurrency=2',
  ...process.argv.slice(2),
  ...files,
];
step(`tests (${files.length} files)`, process.execPath, args);
