// Builds everything that runs: the CLI and web server (dist/cli.js), the Electron main process and
// preload (dist/desktop/), and the renderer (dist/renderer/, with Vite).
import { build as esbuild } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as viteBuild } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);
const quiet = process.argv.includes('--quiet');

const node = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  packages: 'external',
  logLevel: 'warning',
};

// Chunks of earlier builds would pile up: start the CLI's afresh.
rmSync(at('dist/cli-chunks'), { recursive: true, force: true });
await Promise.all([
  // The CLI bundles its dependencies: one file starts in about half the time of resolving and
  // loading zod, ws and simple-statistics module by module (plumb --version: 0.40 s → 0.23 s).
  // Split into chunks: each command is loaded when it runs, so `plumb space scan` does not parse
  // and run zod, ws or the benchmark engine. playwright-core stays external (large, loaded only
  // for PDFs); ws's optional native helpers too.
  esbuild({
    ...node,
    packages: undefined,
    external: ['electron', 'playwright-core', 'bufferutil', 'utf-8-validate'],
    // CommonJS dependencies (ws) call require(); give the ES module bundle one.
    banner: {
      js: "import { createRequire as plumbCreateRequire } from 'node:module';\nconst require = plumbCreateRequire(import.meta.url);",
    },
    // The worker threads that analyse off the event loop (app/core/threads/off-thread.ts finds
    // them beside the bundle).
    entryPoints: {
      cli: at('app/cli/index.ts'),
      'analyze-worker': at('app/cli/commands/analyze-worker.ts'),
      'csv-analysis-worker': at('app/core/bench/csv-analysis-worker.ts'),
    },
    format: 'esm',
    splitting: true,
    outdir: at('dist'),
    chunkNames: 'cli-chunks/[name]-[hash]',
  }),
  esbuild({
    ...node,
    entryPoints: [at('app/desktop/main.ts')],
    format: 'esm',
    outfile: at('dist/desktop/main.js'),
  }),
  // Sandboxed preloads must be CommonJS and may require only `electron`: bundle the rest in.
  esbuild({
    ...node,
    packages: undefined,
    external: ['electron'],
    entryPoints: [at('app/desktop/preload.ts')],
    format: 'cjs',
    outfile: at('dist/desktop/preload.cjs'),
  }),
]);
await viteBuild({ configFile: at('renderer/vite.config.ts'), logLevel: quiet ? 'warn' : 'info' });
if (!quiet) console.log('plumb: built dist/ (cli, desktop, renderer)');
