import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlumbNative } from '../../../native/index.js';
import { PlumbError } from '../../contract/errors.js';
import { computerName, engineBinaryOfFile, engineFits } from './engine-binary.js';
import { hostOs } from '../os/index.js';

const require = createRequire(import.meta.url);

/** Electron's resources folder in the desktop app (build/electron-builder.yml packs engine/ there). */
const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;

/**
 * Where the engine may be: PLUMB_NATIVE_PATH, the desktop app's resources/engine/plumb.node (the
 * one for its CPU, packed per installer), then a build next to the sources.
 */
export function addonCandidates(fromDir: string): string[] {
  const candidates: string[] = [];
  if (process.env.PLUMB_NATIVE_PATH) candidates.push(process.env.PLUMB_NATIVE_PATH);
  if (resourcesPath) candidates.push(path.join(resourcesPath, 'engine', 'plumb.node'));
  let dir = fromDir;
  for (let depth = 0; depth < 6; depth += 1) {
    candidates.push(path.join(dir, 'native', 'build', 'Release', 'plumb.node'));
    dir = path.dirname(dir);
  }
  return candidates;
}

/**
 * The first candidate that exists and was built for `platform` and `arch`; a PlumbError saying
 * what to do when none exists, or when those that exist are for another OS or CPU.
 */
export function findEngine(
  candidates: readonly string[],
  platform: string = hostOs.platform,
  arch: string = process.arch,
): string {
  const here = computerName(platform, arch);
  const misfits: string[] = [];
  for (const candidate of candidates) {
    if (!existsSync(candidate)) continue;
    const binary = engineBinaryOfFile(candidate);
    if (binary && engineFits(binary, platform, arch)) return candidate;
    misfits.push(
      `${candidate} is ${binary ? `for ${binary.description}` : 'not an engine binary'}`,
    );
  }
  if (misfits.length > 0) {
    throw new PlumbError(
      'ENATIVE',
      `No Plumb engine for ${here} was found (${misfits.join('; ')}). Install the Plumb download for ${here}, or run \`npm run build:native\` in a source checkout.`,
    );
  }
  throw new PlumbError(
    'ENATIVE',
    `The Plumb native engine for ${here} is missing. Reinstall Plumb, or run \`npm run build:native\` in a source checkout (needs a C++ compiler and Python 3).`,
  );
}

let cached: PlumbNative | undefined;

/** The native addon for this OS and CPU, loaded once; a PlumbError saying what to do otherwise. */
export function loadNative(): PlumbNative {
  if (cached) return cached;
  const here = path.dirname(fileURLToPath(import.meta.url));
  const found = findEngine(addonCandidates(here));
  try {
    cached = require(found) as PlumbNative;
  } catch (cause) {
    throw new PlumbError(
      'ENATIVE',
      `The Plumb native engine at ${found} could not be loaded (${(cause as Error).message}). Reinstall Plumb, or run \`npm run build:native\`.`,
    );
  }
  return cached;
}
