import { defineConfig } from 'vite';

// The renderer is plain static files: served by Electron's plumb:// protocol or by `plumb serve`.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  // The renderer imports app/common (pure formatting and units, shared with core) from outside root.
  server: { fs: { allow: [import.meta.dirname, `${import.meta.dirname}/../app/common`] } },
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // The app, and the print layout of reports (opened by the printers, never by a user).
      input: {
        main: `${import.meta.dirname}/index.html`,
        report: `${import.meta.dirname}/report.html`,
      },
    },
  },
});
