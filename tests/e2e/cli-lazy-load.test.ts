/**
 * `plumb space scan` starts fast and small because the CLI loads each command's code on demand:
 * the scan must not pull in the contract's zod schemas, the WebSocket server, the benchmark engine
 * or the planner. A module hook records every file of the build that the process loads; each
 * chunk's source map says which sources it holds.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { plumbBin, repoRoot } from '../helpers/cli.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'plumb-lazy-load-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The sources bundled into every build file the command loads (from their source maps). */
function sourcesLoadedBy(args: string[]): string[] {
  const log = path.join(work, `${args.join('-').replace(/[^\w-]/g, '_')}.log`);
  const hooks = path.join(work, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, nextLoad) {
  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, url + '\\n');
  return nextLoad(url, context);
}
`,
  );
  const register = path.join(work, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const run = spawnSync(process.execPath, ['--import', register, plumbBin, ...args], {
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  const dist = path.join(repoRoot, 'dist');
  const files = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((url) => fileURLToPath(url))
    .filter((file) => file.startsWith(dist + path.sep) && file.endsWith('.js'));
  assert.ok(files.length > 0, 'the hook saw the build being loaded');
  return files.flatMap(
    (file) => (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources,
  );
}

test('plumb space scan loads no zod, ws, benchmark engine or planner', () => {
  const folder = path.join(work, 'tree');
  mkdirTree(folder);
  const sources = sourcesLoadedBy(['space', 'scan', folder, '--json']);
  assert.ok(
    sources.some((s) => s.includes('core/space/scan.ts')),
    'the scan itself is among them',
  );
  for (const unwanted of ['node_modules/zod/', 'node_modules/ws/', 'core/bench/', 'core/planner/'])
    assert.deepEqual(
      sources.filter((s) => s.includes(unwanted)),
      [],
      `${unwanted} is not loaded`,
    );
});

test('the check can fail: plumb bench --help does load the benchmark engine', () => {
  const sources = sourcesLoadedBy(['bench', '--help']);
  assert.ok(sources.some((s) => s.includes('core/bench/')));
});

function mkdirTree(folder: string): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'a.txt'), 'same');
  writeFileSync(path.join(folder, 'b.txt'), 'same');
  writeFileSync(path.join(folder, 'c.txt'), 'other');
}
