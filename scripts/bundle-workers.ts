// A Vite plugin for the Electron main bundle (electron.vite.config.ts), beside bundle-migrations.ts.
// The sandbox gateway checks large recipient lists on a worker thread started from a file next to
// its module (`new Worker(new URL('./number-worker.ts', import.meta.url))`), which is right when
// Node runs the sources but names a file that is not in out/main once bundled (the check then
// silently falls back to the main thread). The worker is built as a second entry of the main
// bundle (BUNDLED_WORKERS, out/main/<name>.js) and this plugin points the URL at it.
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
] as const;

/** The main build's extra entries: entry name → absolute source path. */
export function workerEntries(root: string): Record<string, string> {
  return Object.fromEntries(BUNDLED_WORKERS.map((w) => [w.entry, resolve(root, w.worker)]));
}

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
      return { code: code.replaceAll(from, `new URL('./${entry.entry}.js', import.meta.url)`), map: null };
    },
  };
}
