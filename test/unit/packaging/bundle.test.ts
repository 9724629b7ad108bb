// The Electron bundle (electron-vite build, as `npm run dist` makes it) carries what the main
// process reads from disk at run time: the app store's and the sandbox gateway's SQL migrations,
// each in a folder of its own that its bundled db.ts points at. Built into a temporary folder, so
// the out/ of the web shell is left alone.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_MIGRATIONS } from '../../../scripts/bundle-migrations.ts';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
let out: string;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'messenger-bundle-'));
  execFileSync(
    join(ROOT, 'node_modules/.bin/node'),
    [
      join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'),
      'build',
      '--outDir',
      out,
      '--logLevel',
      'error',
    ],
    { cwd: ROOT, stdio: 'pipe' },
  );
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the Electron main bundle', () => {
  it('has each migrations folder beside it, file for file', () => {
    for (const m of BUNDLED_MIGRATIONS) {
      const sources = readdirSync(join(ROOT, m.from)).filter((f) => f.endsWith('.sql'));
      expect(sources.length, m.from).toBeGreaterThan(0);
      expect(readdirSync(join(out, 'main', m.to)).sort()).toEqual(sources.sort());
      for (const f of sources)
        expect(readFileSync(join(out, 'main', m.to, f), 'utf8')).toBe(
          readFileSync(join(ROOT, m.from, f), 'utf8'),
        );
    }
  });

  it('reads the app and the gateway migrations from their own folders, never one shared ./migrations/', () => {
    const code = readFileSync(join(out, 'main', 'index.js'), 'utf8');
    const dirs = [...code.matchAll(/new URL\(["']\.\/(migrations\/[^"']*)["'], import\.meta\.url\)/g)].map(
      (m) => m[1],
    );
    expect(dirs.sort()).toEqual(BUNDLED_MIGRATIONS.map((m) => `${m.to}/`).sort());
  });
});
