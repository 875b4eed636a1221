// The Windows addon, cross-built for each CPU Windows runs on: x64 with mingw-w64 (linked -static:
// no mingw runtime DLL to ship), arm64 with zig (aarch64-windows-gnu, its libc++ linked in). Both
// take Node-API from the executable that loads them (scripts/cross/node-api-host.mjs), so one
// engine loads in node.exe and in the desktop app's Plumb.exe alike.
// Output: native/build-cross/win32-<arch>/plumb.node.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { addonCompileArgs, compileAndLink, gypTarget, root, zig } from './build.mjs';
import { writeNodeApiStubs } from './node-api-host.mjs';

const mingw = process.env.MINGW_PREFIX ?? 'x86_64-w64-mingw32';

/** Where the engine for `arch` is built. */
export const windowsAddonDir = (arch) => path.join(root, 'native', 'build-cross', `win32-${arch}`);

/** The compiler and assembler for each CPU, and what each adds to the link. */
const toolchains = {
  x64: () => ({
    compiler: [`${mingw}-g++-posix`],
    assembler: [`${mingw}-gcc`],
    linkArgs: ['-static'],
  }),
  arm64: () => ({
    compiler: zig('c++', 'aarch64-windows-gnu'),
    assembler: zig('cc', 'aarch64-windows-gnu'),
    linkArgs: [],
  }),
};

/** Builds the engine for `arch` ('x64' or 'arm64'); throws with the compiler's messages. */
export async function buildWindowsAddon(arch = 'x64') {
  const toolchain = toolchains[arch]?.();
  if (!toolchain) throw new Error(`no Windows toolchain for ${arch} (x64 or arm64)`);
  const outDir = path.join(windowsAddonDir(arch), 'obj');
  mkdirSync(outDir, { recursive: true });
  const stubsSource = path.join(outDir, 'node_api_host.S');
  const stubs = path.join(outDir, 'node_api_host.o');
  writeNodeApiStubs(arch, stubsSource);
  const assembled = spawnSync(
    toolchain.assembler[0],
    [...toolchain.assembler.slice(1), '-c', stubsSource, '-o', stubs],
    { stdio: 'inherit' },
  );
  if (assembled.status !== 0) throw new Error(`the Node-API stubs for ${arch} did not assemble`);
  const { sources, defines, libraries } = gypTarget('win');
  return compileAndLink({
    compiler: toolchain.compiler,
    compileArgs: [...addonCompileArgs(defines), '-Wextra', '-DPLUMB_NODE_API_FROM_HOST'],
    // MSVC's "ole32.lib" is -lole32 here.
    linkArgs: [
      '-shared',
      ...toolchain.linkArgs,
      stubs,
      ...libraries.map((lib) => `-l${lib.replace(/\.lib$/, '')}`),
    ],
    sources,
    outDir,
    output: path.join(windowsAddonDir(arch), 'plumb.node'),
  });
}

/**
 * tests/windows/volume-fixtures' describe-volume.exe (x64): the engine's volume_facts.cc fed
 * documented reports, as the engine built above reads live ones.
 */
export async function buildVolumeDescriber() {
  const { defines } = gypTarget('win');
  const outDir = path.join(windowsAddonDir('x64'), 'describe-volume');
  return compileAndLink({
    compiler: [`${mingw}-g++-posix`],
    compileArgs: addonCompileArgs(defines),
    linkArgs: ['-static', '-municode'],
    sources: [
      path.join(root, 'tests', 'windows', 'volume-fixtures', 'describe-volume.cc'),
      path.join(root, 'native', 'src', 'win', 'volume_facts.cc'),
      path.join(root, 'native', 'src', 'engine', 'utf.cc'),
    ],
    outDir: path.join(outDir, 'obj'),
    output: path.join(outDir, 'describe-volume.exe'),
  });
}
