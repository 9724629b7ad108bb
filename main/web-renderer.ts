// The web shell's renderer build (main/web.ts serves it): out/renderer is built with Vite when it is
// missing or older than its sources, in this process, for production. Split from web.ts by size.

import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const RENDERER_SOURCE = join(ROOT, 'renderer');
export const RENDERER_OUT = join(ROOT, 'out', 'renderer');
/** Written beside a renderer built for production by buildRenderer (rendererStale looks for it). */
const PRODUCTION_MARK = 'production-build.txt';

/** Newest modification time of the files under `dir` (node_modules skipped), 0 when none. */
function newestMtime(dir: string): number {
  let newest = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.parentPath.includes(`${sep}node_modules`)) continue;
    newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Whether out/renderer must be (re)built: missing, or older than the renderer, preload API or protocol. */
export function rendererStale(source = RENDERER_SOURCE, out = RENDERER_OUT): boolean {
  const built = join(out, 'index.html');
  if (!existsSync(built)) return true;
  // A build made before it was always a production one (one made under a test runner's NODE_ENV
  // carried React's development build: several times slower) is made again.
  if (!existsSync(join(out, PRODUCTION_MARK))) return true;
  const sources = Math.max(
    newestMtime(source),
    newestMtime(join(ROOT, 'protocol')),
    newestMtime(join(ROOT, 'domain')),
    newestMtime(join(ROOT, 'preload')),
  );
  return sources > statSync(built).mtimeMs;
}

/** Builds in this process, one after another: each sets NODE_ENV for its whole duration. */
let building: Promise<void> = Promise.resolve();

/**
 * Build the renderer with vite's build API from electron.vite.config.ts's renderer section (or a
 * vite config in renderer/ when there is one), so `npm run web` works right after `npm ci`.
 */
export function buildRenderer(log: (m: string) => void, root = ROOT): Promise<void> {
  const mine = building.then(() => buildOnce(log, root));
  building = mine.catch(() => undefined);
  return mine;
}

async function buildOnce(log: (m: string) => void, root: string): Promise<void> {
  const vite = await import('vite');
  // vite takes the build's flavour from NODE_ENV when it is set: under a test runner (NODE_ENV=test)
  // the renderer came out with React's development build. What users run is the production one.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  const finalDir = join(root, 'out', 'renderer');
  // Built beside the target and swapped in, so a second shell starting at the same time (e2e
  // runs) never serves a half-written directory.
  const outDir = `${finalDir}.build-${process.pid}-${Date.now()}`;
  const own = ['vite.config.ts', 'vite.config.js', 'vite.config.mjs']
    .map((f) => join(root, 'renderer', f))
    .find(existsSync);
  log(`building the renderer into ${finalDir} …`);
  try {
    if (own !== undefined) {
      await vite.build({
        configFile: own,
        logLevel: 'warn',
        build: { outDir, emptyOutDir: true },
      });
    } else {
      const mod = (await import(pathToFileURL(join(root, 'electron.vite.config.ts')).href)) as {
        default: unknown;
      };
      const exported = mod.default;
      const config = (
        typeof exported === 'function'
          ? await (exported as (env: unknown) => unknown)({ command: 'build', mode: 'production' })
          : exported
      ) as {
        renderer?: Record<string, unknown>;
      };
      const renderer = config.renderer ?? {};
      const build = (renderer.build ?? {}) as Record<string, unknown>;
      await vite.build({
        ...renderer,
        configFile: false,
        logLevel: 'warn',
        base: './',
        build: { ...build, outDir, emptyOutDir: true },
      });
    }
    writeFileSync(join(outDir, PRODUCTION_MARK), 'built with NODE_ENV=production\n');
    const old = `${finalDir}.old-${process.pid}-${Date.now()}`;
    if (existsSync(finalDir)) renameSync(finalDir, old);
    try {
      renameSync(outDir, finalDir);
    } catch (err) {
      // Another shell swapped its build in meanwhile: the same sources, so keep that one.
      if (!existsSync(join(finalDir, 'index.html'))) throw err;
    }
    rmSync(old, { recursive: true, force: true });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
    rmSync(outDir, { recursive: true, force: true });
  }
  log('renderer built');
}
