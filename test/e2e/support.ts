// Shared by the e2e tests: the web shell as a child process, Debian's Chromium with a fresh profile
// (page errors and console errors collected), screenshots in light and dark, and the three together.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const CHROMIUM = '/usr/bin/chromium';
/** The e2e tests are skipped where Debian's Chromium is missing (.ci/run installs it). */
export const HAS_CHROMIUM = existsSync(CHROMIUM);
/** Where the screenshots go (looked at by people, not compared). */
export const SHOTS = join(ROOT, 'test-results');

export const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface Shell {
  child: ChildProcess;
  url: string;
  stderr: string[];
}

export interface ShellOptions {
  /** Sign in to the local sandbox (default true). */
  sandbox?: boolean;
  /** More arguments of main/web.ts (e.g. --downloads DIR). */
  args?: string[];
  /** Added to the child's environment (e.g. NODE_EXTRA_CA_CERTS). */
  env?: Record<string, string>;
}

export async function startShell(dataDir: string, opts: ShellOptions = {}): Promise<Shell> {
  const child = spawn(
    join(ROOT, 'node_modules/.bin/node'),
    [
      'main/web.ts',
      '--port',
      '0',
      '--data',
      dataDir,
      ...(opts.sandbox === false ? [] : ['--sandbox']),
      ...(opts.args ?? []),
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(opts.env ? { env: { ...process.env, ...opts.env } } : {}),
    },
  );
  const stderr: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (d: string) => stderr.push(d));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL line in 150 s:\n${stderr.join('')}`)), 150_000);
    lines.on('line', (line) => {
      const m = /^URL: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/.exec(line);
      if (m?.[1]) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`web shell exited with ${code}:\n${stderr.join('')}`));
    });
  });
  return { child, url, stderr };
}

export async function stopShell(shell: Shell): Promise<void> {
  if (shell.child.exitCode !== null || shell.child.signalCode !== null) return;
  const exited = new Promise((r) => shell.child.once('exit', r));
  shell.child.kill('SIGTERM');
  await exited;
}

export interface BrowserOptions {
  viewport?: { width: number; height: number };
  timezoneId?: string;
  locale?: string;
}

export interface AppBrowser {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors, for `expect(pageErrors).toEqual([])`. */
  pageErrors: string[];
}

/** Chromium with a fresh profile in `profileDir` and one page (light colour scheme). */
export async function openBrowser(profileDir: string, opts: BrowserOptions = {}): Promise<AppBrowser> {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    viewport: opts.viewport ?? { width: 1280, height: 900 },
    colorScheme: 'light',
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
    ...(opts.locale ? { locale: opts.locale } : {}),
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.stack ?? e.message));
  page.on('console', (m) => {
    if (m.type() === 'error')
      void Promise.all(m.args().map((a) => a.jsonValue().catch(() => '?'))).then((a) =>
        pageErrors.push(a.map((x) => String(x).slice(0, 300)).join(' | ') || m.text().slice(0, 300)),
      );
  });
  return { context, page, pageErrors };
}

/** test-results/NAME-light.png and NAME-dark.png; the page is left in the light scheme. */
/** Pastes `text` into the focused element as the clipboard would (a ClipboardEvent with its data). */
export async function pasteText(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    document.activeElement!.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

/**
 * Pastes `text` into the focused field and waits until Compose has checked it: a long paste (lines,
 * or over 1,000 characters) is checked in a worker while "Checking N numbers…" shows, and Send
 * meanwhile is refused ("Still checking …"), as a busy machine showed.
 */
export async function pasteChecked(page: Page, text: string): Promise<void> {
  await pasteText(page, text);
  await page
    .getByRole('status')
    .filter({ hasText: /^Checking [\d,]+ numbers/ })
    .waitFor({ state: 'detached', timeout: 60_000 });
}

export async function shoot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(SHOTS, `${name}-${scheme}.png`), fullPage: opts.fullPage ?? false });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

export interface E2eApp extends AppBrowser {
  tmp: string;
  shell: Shell;
  /** Stops the browser and the shell and removes the temporary folder (page errors are printed). */
  close(): Promise<void>;
}

/**
 * A temporary folder `<prefix>…`, the web shell on `tmp/data` and Chromium on its URL (the page is
 * loaded; the caller waits for what it needs).
 */
export async function startApp(
  prefix: string,
  opts: BrowserOptions & { shell?: ShellOptions } = {},
): Promise<E2eApp> {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  let shell: Shell | undefined;
  let browser: AppBrowser | undefined;
  const close = async (): Promise<void> => {
    if (browser?.pageErrors.length) console.error('page errors:', browser.pageErrors);
    await browser?.context.close();
    if (shell) await stopShell(shell);
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    shell = await startShell(join(tmp, 'data'), opts.shell);
    browser = await openBrowser(join(tmp, 'profile'), opts);
    await browser.page.goto(shell.url);
    return { ...browser, tmp, shell, close };
  } catch (e) {
    await close();
    throw e;
  }
}
