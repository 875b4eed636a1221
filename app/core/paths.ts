import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding the built renderer (dist/renderer), from the sources or from dist/. */
export function rendererDir(): string {
  if (process.env.PLUMB_RENDERER_DIR) return process.env.PLUMB_RENDERER_DIR;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth += 1) {
    for (const candidate of [path.join(dir, 'renderer'), path.join(dir, 'dist', 'renderer')]) {
      if (existsSync(path.join(candidate, 'index.html'))) return candidate;
    }
    dir = path.dirname(dir);
  }
  throw new Error('The renderer is not built. Run `npm run build`.');
}
