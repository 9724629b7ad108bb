// The app as electron-builder packs it, built by electron-vite into a temporary folder laid out
// like app.asar: package.json, out/{main,preload,renderer} and node_modules (the project's, linked:
// electron-builder copies the production dependencies there). The main bundle resolves its
// packages and reads ../../package.json exactly as in the packaged app; the project's own out/
// (the web shell's renderer) is left alone.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const NODE = join(ROOT, 'node_modules/.bin/node');

export interface BuiltApp {
  /** The app folder (what app.asar would hold). */
  root: string;
  /** root/out: main/index.js, preload/index.cjs, renderer/. */
  out: string;
  remove(): void;
}

export function buildApp(prefix = 'messenger-built-'): BuiltApp {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const out = join(root, 'out');
  try {
    execFileSync(
      NODE,
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
    copyFileSync(join(ROOT, 'package.json'), join(root, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
  return { root, out, remove: () => rmSync(root, { recursive: true, force: true }) };
}
