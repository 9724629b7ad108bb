// A Vite plugin for the Electron main bundle (electron.vite.config.ts), beside bundle-migrations.ts.
// Worker threads are started from a file next to the module that starts them
// (`new Worker(new URL('./number-worker.ts', import.meta.url))`), which is right when Node runs the
// sources but names a file that is not in out/main once bundled (the number check and the image
// adaption then silently fall back to their caller's thread; the local sandbox would not start).
// Each worker is built as an entry of the main bundle (BUNDLED_WORKERS, out/main/<name>.js) and
// this plugin points the URL at it. Workers start workers: the app starts the sandbox gateway's
// thread (out/main/sandbox-worker.js, issue 15), whose gateway starts the number and image workers;
// the app's database runs its WAL checkpoints on one (out/main/checkpoint-worker.js, issue 27);
// so the URL is right only in a file directly in out/main (an entry, or a shared chunk rollup puts
// beside them), which renderChunk checks: a starting module bundled into a chunk in a subfolder
// fails the build instead of naming a file that is not there.
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/** Source module → the worker file it starts → the entry name in out/main. */
export const BUNDLED_WORKERS = [
  {
    module: 'gateway/numbers.ts',
    worker: 'gateway/number-worker.ts',
    source: './number-worker.ts',
    entry: 'number-worker',
  },
  {
    module: 'gateway/library/adapt-pool.ts',
    worker: 'gateway/library/adapt-worker.ts',
    source: './adapt-worker.ts',
    entry: 'adapt-worker',
  },
  {
    module: 'main/services/db-recovery.ts',
    worker: 'main/store/db-check-worker.ts',
    source: '../store/db-check-worker.ts',
    entry: 'db-check-worker',
  },
  {
    module: 'storage/checkpointer.ts',
    worker: 'storage/checkpoint-worker.ts',
    source: './checkpoint-worker.ts',
    entry: 'checkpoint-worker',
  },
  {
    module: 'main/services/sandbox.ts',
    worker: 'main/services/sandbox-worker.ts',
    source: './sandbox-worker.ts',
    entry: 'sandbox-worker',
  },
] as const;

/** The main build's extra entries: entry name → absolute source path. */
export function workerEntries(root: string): Record<string, string> {
  return Object.fromEntries(BUNDLED_WORKERS.map((w) => [w.entry, resolve(root, w.worker)]));
}

const bundledUrl = (entry: string): string => `new URL('./${entry}.js', import.meta.url)`;

export function bundledWorkers(): Plugin {
  return {
    name: 'messenger-bundled-workers',
    enforce: 'pre',
    transform(code, id) {
      const entry = BUNDLED_WORKERS.find((w) => id.replaceAll('\\', '/').endsWith(w.module));
      if (!entry) return null;
      const from = `new URL('${entry.source}', import.meta.url)`;
      if (!code.includes(from))
        this.error(`${entry.module} no longer starts ${from}: update scripts/bundle-workers.ts`);
      return { code: code.replaceAll(from, bundledUrl(entry.entry)), map: null };
    },
    renderChunk(code, chunk) {
      if (!chunk.fileName.includes('/')) return null;
      for (const w of BUNDLED_WORKERS) {
        // rollup may have switched the quotes
        const url = new RegExp(`new URL\\(["']\\./${w.entry}\\.js["'], import\\.meta\\.url\\)`);
        if (url.test(code))
          this.error(
            `${chunk.fileName} starts ./${w.entry}.js relative to itself, not out/main: ${w.module} must be bundled into a file directly in out/main`,
          );
      }
      return null;
    },
  };
}
