// Cross-builds the addon for another OS from this Linux machine (mingw-w64 for Windows, zig for
// macOS). The sources and defines come from native/binding.gyp, as node-gyp would take them, so a
// file added to or moved between backend folders needs no edit here.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const native = path.join(root, 'native');

/** Where pinned downloads (Windows node.exe, Node-API headers, zig, the Wine prefix) are kept. */
export const cacheDir = process.env.PLUMB_CI_CACHE ?? path.join(os.homedir(), '.cache', 'plumb-ci');

/** node-gyp's `<!@(node sources.cjs a b)` expansions in a list, run the way gyp runs them. */
function expandSources(entries, exclude) {
  const files = [];
  for (const entry of entries ?? []) {
    const command = /^<!@\(node sources\.cjs ([^)]*)\)$/.exec(entry);
    if (!command) {
      files.push(entry);
      continue;
    }
    const listed = execFileSync(process.execPath, ['sources.cjs', ...command[1].split(/\s+/)], {
      cwd: native,
      encoding: 'utf8',
    });
    files.push(...listed.split(' ').filter(Boolean));
  }
  return files.filter((file) => !exclude.includes(file)).map((file) => path.join(native, file));
}

/**
 * The addon target's sources, defines and libraries for gyp's OS name ('win', 'mac'): the common lists plus
 * those of the OS's condition. `exclude` names sources (as binding.gyp lists them) to leave out.
 */
export function gypTarget(gypOs, exclude = []) {
  const gyp = JSON.parse(readFileSync(path.join(native, 'binding.gyp'), 'utf8'));
  const target = gyp.targets.find((t) => t.target_name === 'plumb');
  const condition = (target.conditions ?? []).find(([test]) => test === `OS=='${gypOs}'`)?.[1];
  if (!condition) throw new Error(`native/binding.gyp has no OS=='${gypOs}' condition`);
  return {
    sources: [
      ...expandSources(target.sources, exclude),
      ...expandSources(condition.sources, exclude),
    ],
    defines: [...(target.defines ?? []), ...(condition.defines ?? [])],
    libraries: condition.libraries ?? [],
  };
}

/** Whether `object` is newer than its source and every header its depfile (-MMD) lists. */
function upToDate(object, depfile) {
  if (!existsSync(object) || !existsSync(depfile)) return false;
  const built = statSync(object).mtimeMs;
  const deps = readFileSync(depfile, 'utf8')
    .replace(/\\\n/g, ' ')
    .split(/(?<!\\)\s+/)
    .slice(1)
    .filter((dep) => dep && !dep.endsWith(':'))
    .map((dep) => path.resolve(native, dep)); // the compiler ran in native/
  return deps.every((dep) => existsSync(dep) && statSync(dep).mtimeMs <= built);
}

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: native, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => resolve({ status: 1, stderr: `${command}: ${error.message}\n` }));
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

/**
 * Compiles each source to an object under `outDir` (as many at once as there are cores; an object
 * newer than everything it includes is kept), then links them. Returns the output path, or throws
 * with the compiler's messages.
 */
export async function compileAndLink({ compiler, compileArgs, linkArgs, sources, outDir, output }) {
  mkdirSync(outDir, { recursive: true });
  const objects = sources.map((source) =>
    path.join(outDir, path.relative(native, source).replace(/[\\/]/g, '_') + '.o'),
  );
  const failures = [];
  let next = 0;
  let compiled = 0;
  const worker = async () => {
    while (next < sources.length) {
      const index = next++;
      const object = objects[index];
      if (upToDate(object, `${object}.d`)) continue;
      const result = await run(compiler[0], [
        ...compiler.slice(1),
        ...compileArgs,
        '-MMD',
        '-MF',
        `${object}.d`,
        '-c',
        sources[index],
        '-o',
        object,
      ]);
      compiled += 1;
      if (result.stderr) process.stderr.write(result.stderr);
      if (result.status !== 0) failures.push(path.relative(root, sources[index]));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, os.availableParallelism()) }, worker));
  if (failures.length > 0) {
    throw new Error(
      `${failures.length} of ${sources.length} sources failed: ${failures.join(', ')}`,
    );
  }
  const link = await run(compiler[0], [
    ...compiler.slice(1),
    ...objects,
    ...linkArgs,
    '-o',
    output,
  ]);
  if (link.stderr) process.stderr.write(link.stderr);
  if (link.status !== 0) throw new Error(`linking ${path.relative(root, output)} failed`);
  return { output, compiled, total: sources.length };
}

/** Node-API's C headers and .def files (npm node-api-headers, fetched by .ci/run). */
export function nodeApiHeaders() {
  const dir = path.join(cacheDir, 'node-api-headers');
  if (!existsSync(path.join(dir, 'include', 'node_api.h'))) {
    throw new Error(`${dir} is missing: run .ci/run (it fetches the pinned node-api-headers)`);
  }
  return dir;
}

/**
 * zig's `tool` (cc, c++) for `target`, from the pinned PyPI ziglang under PLUMB_CI_CACHE (.ci/run
 * installs it): the macOS engines and Windows on Arm's.
 */
export function zig(tool, target) {
  const zigPath = path.join(cacheDir, 'ziglang');
  if (!existsSync(path.join(zigPath, 'ziglang'))) {
    throw new Error(`${zigPath} is missing; run .ci/run (it installs the pinned ziglang)`);
  }
  if (!(process.env.PYTHONPATH ?? '').split(path.delimiter).includes(zigPath)) {
    process.env.PYTHONPATH = [zigPath, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter);
  }
  return ['python3', '-m', 'ziglang', tool, '-target', target];
}

/** The compiler flags every cross-built engine takes, with binding.gyp's `defines`. */
export function addonCompileArgs(defines) {
  return [
    '-std=c++17',
    '-O2',
    '-Wall',
    '-Werror',
    '-Isrc',
    `-I${nodeAddonApi()}`,
    `-I${path.join(nodeApiHeaders(), 'include')}`,
    '-DNAPI_CPP_EXCEPTIONS',
    '-DBUILDING_NODE_EXTENSION',
    ...defines.map((define) => `-D${define}`),
  ];
}

export function nodeAddonApi() {
  return path.join(root, 'node_modules', 'node-addon-api');
}
