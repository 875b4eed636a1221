// The macOS addon, compiled and linked on Linux with zig (used by .ci/run) for arm64 and x86_64:
// every source binding.gyp builds on a Mac, against zig's macOS libc headers. zig has no Apple
// frameworks, so the addon must need none (the volume's bus comes from diskutil, parsed in
// app/core); Node-API symbols resolve when node loads the addon (-undefined dynamic_lookup).
// Needs the pinned PyPI ziglang under PLUMB_CI_CACHE/ziglang (.ci/run installs it).
import path from 'node:path';
import { addonCompileArgs, compileAndLink, gypTarget, root, zig } from './cross/build.mjs';

const started = Date.now();
const { sources, defines } = gypTarget('mac');
let failed = false;
for (const [arch, target] of [
  ['arm64', 'aarch64-macos.11.0'],
  ['x64', 'x86_64-macos.11.0'],
]) {
  const outDir = path.join(root, 'native', 'build-cross', `darwin-${arch}`);
  try {
    const built = await compileAndLink({
      compiler: zig('c++', target),
      compileArgs: addonCompileArgs(defines),
      linkArgs: ['-shared', '-undefined', 'dynamic_lookup'],
      sources,
      outDir: path.join(outDir, 'obj'),
      output: path.join(outDir, 'plumb.node'),
    });
    console.log(
      `macos ${arch}: ${path.relative(root, built.output)} linked (${built.compiled} of ${built.total} sources compiled)`,
    );
  } catch (error) {
    console.error(`check-macos ${arch}: ${error.message}`);
    failed = true;
  }
}
console.log(
  `check-macos: ${failed ? 'FAILED' : 'ok'} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
);
process.exit(failed ? 1 : 0);
