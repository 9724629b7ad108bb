// A Vite plugin for the Electron main bundle (electron.vite.config.ts). The app store and the
// sandbox gateway each read their schema migrations from a `migrations/` folder beside their
// db.ts (`new URL('./migrations/', import.meta.url)`), which is right when Node runs the sources
// (tests, web shell, CLI) but not once both are bundled into out/main/index.js: the two URLs
// would then name one folder, out/main/migrations/, that nothing puts there. This plugin points
// each db.ts at a folder of its own and copies the .sql files there, so the packaged app finds
// the same migrations the sources use. (Vite bundles only imported modules; the SQL files are
// read at run time, so no built-in option covers them.)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/** Source module → its migrations folder → where the bundle reads them (relative to the bundle). */
export const BUNDLED_MIGRATIONS = [
  { module: 'main/store/db.ts', from: 'main/store/migrations', to: 'migrations/app' },
  { module: 'gateway/store/db.ts', from: 'gateway/store/migrations', to: 'migrations/gateway' },
  { module: 'main/office/db.ts', from: 'main/office/migrations', to: 'migrations/office' },
] as const;

const SOURCE_URL = /new URL\((['"])\.\/migrations\/\1, import\.meta\.url\)/;

/** `root`: the project folder (where main/ and gateway/ are). */
export function bundledMigrations(root: string): Plugin {
  return {
    name: 'messenger-bundled-migrations',
    enforce: 'pre',
    transform(code, id) {
      const entry = BUNDLED_MIGRATIONS.find((m) => id.replaceAll('\\', '/').endsWith(m.module));
      if (!entry) return null;
      if (!SOURCE_URL.test(code))
        this.error(
          `${entry.module} no longer reads new URL('./migrations/', import.meta.url): update scripts/bundle-migrations.ts`,
        );
      return { code: code.replace(SOURCE_URL, `new URL('./${entry.to}/', import.meta.url)`), map: null };
    },
    generateBundle() {
      for (const m of BUNDLED_MIGRATIONS) {
        for (const file of readdirSync(join(root, m.from)).filter((f) => f.endsWith('.sql'))) {
          this.emitFile({
            type: 'asset',
            fileName: `${m.to}/${file}`,
            source: readFileSync(join(root, m.from, file), 'utf8'),
          });
        }
      }
    },
  };
}
