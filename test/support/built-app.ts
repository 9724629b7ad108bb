// The app as electron-builder packs it, built by electron-vite into a temporary folder laid out
// like app.asar: package.json, out/{main,preload,renderer} and node_modules (the project's, linked:
// electron-builder copies the production dependencies there). The main bundle resolves its
// packages and reads ../../package.json exactly as in the packaged app; the project's own out/
// (the web shell's renderer) is left alone.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BootConfig, BootReport } from './electron-boot-driver.ts';

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

export interface Boot {
  report: BootReport;
  code: number | null;
  dir: string;
}

/**
 * One start of the built app's main bundle in a fresh user-data folder (added to `dirs` for the
 * caller to remove), with test/support/electron-boot-driver.ts as its Electron; resolves when the
 * process has ended. (Moved from test/electron-boot/built-app.test.ts by size, issue 27.)
 */
export async function bootBuilt(
  built: BuiltApp,
  dirs: string[],
  opts: Pick<BootConfig, 'gotLock' | 'signIn'>,
): Promise<Boot> {
  const dir = mkdtempSync(join(tmpdir(), 'messenger-boot-'));
  dirs.push(dir);
  const config: BootConfig = {
    bundle: join(built.out, 'main/index.js'),
    dir,
    report: join(dir, 'report.json'),
    ...opts,
  };
  const driver = join(ROOT, 'test/support/electron-boot-driver.ts');
  const child = spawn(NODE, ['--disable-warning=ExperimentalWarning', driver, JSON.stringify(config)], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (!existsSync(config.report)) throw new Error(`no report (exit ${code}):\n${stderr}`);
  return { report: JSON.parse(readFileSync(config.report, 'utf8')) as BootReport, code, dir };
}
