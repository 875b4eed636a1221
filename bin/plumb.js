#!/usr/bin/env node
// The `plumb` command: runs the built CLI (dist/cli.js).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write(
    'plumb: not built yet. Run `npm install` (or `npm run build`) in the Plumb folder.\n',
  );
  process.exit(1);
}
await import(pathToFileURL(cli).href);
