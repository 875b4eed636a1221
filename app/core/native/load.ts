import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlumbNative } from '../../../native/index.js';
import { PlumbError } from '../../contract/errors.js';

const require = createRequire(import.meta.url);

/** Where the built addon may be: next to the sources, or unpacked beside an Electron app.asar. */
export function addonCandidates(fromDir: string): string[] {
  const candidates: string[] = [];
  let dir = fromDir;
  for (let depth = 0; depth < 6; depth += 1) {
    candidates.push(path.join(dir, 'native', 'build', 'Release', 'plumb.node'));
    dir = path.dirname(dir);
  }
  if (process.env.PLUMB_NATIVE_PATH) candidates.unshift(process.env.PLUMB_NATIVE_PATH);
  return candidates.map((p) => p.replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`));
}

let cached: PlumbNative | undefined;

/** The native addon, loaded once; a PlumbError saying how to rebuild it when it is missing. */
export function loadNative(): PlumbNative {
  if (cached) return cached;
  const here = path.dirname(fileURLToPath(import.meta.url));
  const found = addonCandidates(here).find((candidate) => existsSync(candidate));
  if (!found) {
    throw new PlumbError(
      'ENATIVE',
      'The Plumb native addon is not built. Run `npm run build:native` (needs a C++ compiler and Python 3).',
    );
  }
  try {
    cached = require(found) as PlumbNative;
  } catch (cause) {
    throw new PlumbError(
      'ENATIVE',
      `The Plumb native addon at ${found} could not be loaded (${(cause as Error).message}). Run \`npm run build:native\`.`,
    );
  }
  return cached;
}
