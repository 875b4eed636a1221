import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The version from package.json, found by walking up from this module (sources or dist/). */
export function appVersion(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth += 1) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'plumb' && pkg.version) return (cached = pkg.version);
    } catch {
      // not here; keep walking up
    }
    dir = path.dirname(dir);
  }
  return (cached = '0.0.0');
}
