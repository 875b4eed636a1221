import { defineConfig } from 'vite';

// The renderer is plain static files: served by Electron's plumb:// protocol or by `plumb serve`.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
});
