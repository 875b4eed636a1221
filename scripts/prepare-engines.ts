// Lays out the engine each installer packs, one per target, as build/electron-builder.yml reads
// them (extraResources from native/engines/<platform>-<arch>/): the cross-built engines
// (scripts/check-macos.mjs: darwin-arm64, darwin-x64; scripts/check-windows.mjs --build-only:
// win32-x64, win32-arm64) or, for this computer's own OS and CPU, node-gyp's build. Each is
// checked to be a binary for its target before it is copied, so an installer cannot carry
// another CPU's engine.
//   node --import tsx scripts/prepare-engines.ts [TARGET...]   (default: every installer target)
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineBinaryOfFile, engineFits } from '../app/core/native/engine-binary.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The four installers' targets (platform-arch, as process.platform and process.arch name them). */
export const installerTargets = ['darwin-arm64', 'darwin-x64', 'win32-x64', 'win32-arm64'];

/** Where the engine for `target` is laid out under `outRoot`. */
const preparedEngine = (outRoot: string, target: string) =>
  path.join(outRoot, 'native', 'engines', target, 'plumb.node');

/** The built engines that may serve `target`, the cross-built one first. */
function sources(target: string): string[] {
  const found = [path.join(root, 'native', 'build-cross', target, 'plumb.node')];
  if (target === `${process.platform}-${process.arch}`)
    found.push(path.join(root, 'native', 'build', 'Release', 'plumb.node'));
  return found;
}

/**
 * Copies an engine that fits each target into `outRoot`/native/engines; returns what was copied
 * from where, and the targets without one (with the command that builds it).
 */
export function prepareEngines(outRoot: string, targets = installerTargets) {
  const prepared: { target: string; from: string }[] = [];
  const missing: string[] = [];
  for (const target of targets) {
    const [platform = '', arch = ''] = target.split('-');
    const from = sources(target).find((file) => {
      if (!existsSync(file)) return false;
      const binary = engineBinaryOfFile(file);
      return binary !== null && engineFits(binary, platform, arch);
    });
    if (!from) {
      const command = platform === 'darwin' ? 'check-macos.mjs' : 'check-windows.mjs --build-only';
      missing.push(`${target} (build it with \`node scripts/${command}\`)`);
      continue;
    }
    const to = preparedEngine(outRoot, target);
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(from, to);
    prepared.push({ target, from: path.relative(root, from) });
  }
  return { prepared, missing };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((target) => !/^(darwin|win32|linux)-(x64|arm64)$/.test(target));
  if (unknown.length > 0) {
    console.error(
      `prepare-engines: ${unknown.join(', ')} is not a target such as darwin-arm64 or win32-x64`,
    );
    process.exit(2);
  }
  const { prepared, missing } = prepareEngines(root, asked.length > 0 ? asked : installerTargets);
  for (const { target, from } of prepared) console.log(`engine ${target}: ${from}`);
  if (missing.length > 0) {
    console.error(`prepare-engines: no engine for ${missing.join('; ')}`);
    process.exit(1);
  }
}
