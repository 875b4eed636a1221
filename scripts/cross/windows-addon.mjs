// The Windows addon built with mingw-w64: linked -static (no mingw runtime DLL to ship) against an
// import library for node.exe made from node-api-headers' .def file, as MSVC links against
// node.lib. Output: native/build-cross/win32-x64/plumb.node.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compileAndLink, gypTarget, nodeAddonApi, nodeApiHeaders, root } from './build.mjs';

const mingw = process.env.MINGW_PREFIX ?? 'x86_64-w64-mingw32';
export const windowsAddonDir = path.join(root, 'native', 'build-cross', 'win32-x64');

/** libnode_api.a: every Node-API symbol, imported from node.exe. */
function importLibrary(outDir) {
  const library = path.join(outDir, 'libnode_api.a');
  if (existsSync(library)) return library;
  const def = readFileSync(path.join(nodeApiHeaders(), 'def', 'node_api.def'), 'utf8');
  // The .def names NODE.EXE; the import must name the executable that loads the addon.
  const named = path.join(outDir, 'node_api.def');
  writeFileSync(named, def.replace(/^NAME .*$/m, 'NAME node.exe'));
  const result = spawnSync(`${mingw}-dlltool`, ['-d', named, '-l', library, '-D', 'node.exe'], {
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`${mingw}-dlltool could not make ${library}`);
  return library;
}

export async function buildWindowsAddon() {
  const outDir = path.join(windowsAddonDir, 'obj');
  mkdirSync(outDir, { recursive: true });
  const { sources, defines, libraries } = gypTarget('win');
  const headers = nodeApiHeaders();
  return compileAndLink({
    compiler: [`${mingw}-g++-posix`],
    compileArgs: [
      '-std=c++17',
      '-O2',
      '-Wall',
      '-Wextra',
      '-Werror',
      '-Isrc',
      `-I${nodeAddonApi()}`,
      `-I${path.join(headers, 'include')}`,
      '-DNAPI_CPP_EXCEPTIONS',
      '-DBUILDING_NODE_EXTENSION',
      ...defines.map((define) => `-D${define}`),
    ],
    // MSVC's "ole32.lib" is mingw's -lole32.
    linkArgs: [
      '-shared',
      '-static',
      importLibrary(outDir),
      ...libraries.map((lib) => `-l${lib.replace(/\.lib$/, '')}`),
    ],
    sources,
    outDir,
    output: path.join(windowsAddonDir, 'plumb.node'),
  });
}
