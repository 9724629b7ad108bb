import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { bundledMigrations } from './scripts/bundle-migrations.ts';
import { bundledWorkers, workerEntries } from './scripts/bundle-workers.ts';

// main: the Electron shell and the services it binds; preload: one bundled CommonJS file, as a
// sandboxed preload must be; renderer: the React UI (also served by the web shell, main/web.ts).
export default defineConfig({
  main: {
    // The app's and the sandbox gateway's SQL migrations travel with the bundle, and the worker
    // threads are built beside it: the sandbox gateway's own thread (out/main/sandbox-worker.js)
    // and the two it starts (out/main/number-worker.js, out/main/adapt-worker.js).
    plugins: [bundledMigrations(import.meta.dirname), bundledWorkers()],
    build: {
      outDir: 'out/main',
      lib: {
        entry: {
          index: resolve(import.meta.dirname, 'main/electron/index.ts'),
          ...workerEntries(import.meta.dirname),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      lib: { entry: resolve(import.meta.dirname, 'preload/index.ts'), formats: ['cjs'] },
      rollupOptions: { output: { inlineDynamicImports: true, entryFileNames: 'index.cjs' } },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      rollupOptions: { input: resolve(import.meta.dirname, 'renderer/index.html') },
    },
  },
});
