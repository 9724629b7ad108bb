// The renderer's primitives in Chromium. The Dialog (renderer/components/Dialog.tsx): a modal
// <dialog> with an accessible name, focus on the right control when it opens, Tab kept inside,
// Escape cancelling, focus back on the opener, and the text question's inline validation. useAction:
// busy while running, no second run meanwhile, the error shown by ErrorText. The harness page
// (test/e2e/harness/primitives) is bundled with vite's build API and served from 127.0.0.1.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { ARGS, CHROMIUM, HAS_CHROMIUM, ROOT, SHOTS } from './support.ts';

const focused = (l: Locator) => l.evaluate((el) => el === document.activeElement);

describe.skipIf(!HAS_CHROMIUM)('Dialog and useAction (Chromium)', { timeout: 60_000 }, () => {
  let out: string;
  let server: Server;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'primitives-'));
    const vite = await import('vite');
    const react = (await import('@vitejs/plugin-react')).default;
    await vite.build({
      configFile: false,
      logLevel: 'warn',
      root: join(ROOT, 'test/e2e/harness/primitives'),
      base: './',
      plugins: [react()],
      build: { outDir: out, emptyOutDir: true },
    });
    const types: Record<string, string> = {
      '.html': 'text/html',
      '.js': 'text/javascript',
      '.css': 'text/css',
    };
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const file = resolve(out, `.${path === '/' ? '/index.html' : path}`);
      if (!file.startsWith(out) || !existsSync(file)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      res.end(readFileSync(file));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    page = await browser.newPage({ viewport: { width: 720, height: 480 } });
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.getByRole('heading', { name: 'Primitives harness' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    if (out) rmSync(out, { recursive: true, force: true });
  });

  const answer = () => page.getByTestId('answer').textContent();
  const shoot = async (name: string) => {
    mkdirSync(SHOTS, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SHOTS, `${name}-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  };

  it('confirm: modal, named and described, Cancel focused for a destructive question, Escape answers no', async () => {
    const opener = page.getByRole('button', { name: 'Delete contact' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Delete Alice Archer?' });
    await dialog.waitFor();
    expect(await dialog.evaluate((el) => el.matches(':modal'))).toBe(true);
    expect(await dialog.getAttribute('aria-describedby')).not.toBeNull();
    expect(await page.locator(`#${await dialog.getAttribute('aria-describedby')}`).textContent()).toBe(
      'The contact is removed from every group.',
    );
    // The rest of the page is inert: its controls cannot take the focus.
    const outside = page.getByRole('textbox', { name: 'Outside field' });
    expect(await outside.evaluate((el: HTMLElement) => (el.focus(), el === document.activeElement))).toBe(
      false,
    );
    const cancel = dialog.getByRole('button', { name: 'Cancel' });
    const confirm = dialog.getByRole('button', { name: 'Delete' });
    expect(await focused(cancel)).toBe(true);
    await shoot('dialog-confirm');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await answer()).toBe('confirm:false');
    expect(await focused(opener)).toBe(true);

    await opener.click();
    await confirm.click();
    await dialog.waitFor({ state: 'detached' });
    expect(await answer()).toBe('confirm:true');
    expect(await focused(opener)).toBe(true);
  });

  it('Tab and Shift+Tab stay inside the dialog', async () => {
    await page.getByRole('button', { name: 'Delete contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Alice Archer?' });
    const cancel = dialog.getByRole('button', { name: 'Cancel' });
    const confirm = dialog.getByRole('button', { name: 'Delete' });
    await page.keyboard.press('Tab');
    expect(await focused(confirm)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused(cancel)).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await focused(confirm)).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await focused(cancel)).toBe(true);
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await cancel.click();
    await dialog.waitFor({ state: 'detached' });
    expect(await answer()).toBe('confirm:false');
  });

  it('text: the field has the focus, empty and invalid answers are refused inline, Enter submits', async () => {
    const opener = page.getByRole('button', { name: 'Rename group' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Rename group Friends' });
    await dialog.waitFor();
    const field = dialog.getByRole('textbox', { name: 'Group name' });
    expect(await focused(field)).toBe(true);
    expect(await field.inputValue()).toBe('Friends');
    // Tab cycles field → Rename → Cancel → field.
    await page.keyboard.press('Tab');
    expect(await focused(dialog.getByRole('button', { name: 'Rename' }))).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused(dialog.getByRole('button', { name: 'Cancel' }))).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused(field)).toBe(true);

    await field.fill('   ');
    await field.press('Enter');
    const alert = dialog.getByRole('alert');
    expect(await alert.textContent()).toBe('A group needs a name.');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill('Friends 2');
    expect(await alert.textContent()).toBe('No digits in a group name.');
    await field.press('Enter');
    expect(await dialog.isVisible()).toBe(true);
    expect(await answer()).toBe('confirm:false');
    await shoot('dialog-prompt');
    await field.fill('Close friends');
    expect(await alert.count()).toBe(0);
    await field.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await answer()).toBe('text:Close friends');
    expect(await focused(opener)).toBe(true);

    await opener.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await answer()).toBe('text:null');
    expect(await focused(opener)).toBe(true);
  });

  it('useAction: busy while running, a second click meanwhile does not run it again, the error is shown', async () => {
    const save = page.getByRole('button', { name: /^Sav/ });
    const calls = () => page.getByTestId('calls').textContent();
    // Two clicks in one task: both handlers run before React re-renders.
    await save.evaluate((el: HTMLElement) => (el.click(), el.click()));
    await page.getByRole('button', { name: 'Saving…' }).waitFor();
    expect(await calls()).toBe('1');
    await save.click();
    expect(await calls()).toBe('1');
    await page.evaluate(() => window.finishSave!(false));
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
    const alert = page.getByRole('alert');
    expect(await alert.locator('strong').textContent()).toBe('Not saved.');
    expect(await alert.getByRole('listitem').allTextContents()).toEqual(['Name is too long.']);

    // The next run clears the last error, and a success leaves none.
    await save.click();
    await page.getByRole('button', { name: 'Saving…' }).waitFor();
    expect(await calls()).toBe('2');
    expect(await alert.count()).toBe(0);
    await page.evaluate(() => window.finishSave!(true));
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
    expect(await alert.count()).toBe(0);
  });

  it('useThrottledRead: an older answer never replaces a newer one; an event during a read reads once after it', async () => {
    const data = () => page.getByTestId('read-data').textContent();
    const started = () => page.getByTestId('reads-started').textContent();
    const answer = (i: number, v: string) => page.evaluate(([i, v]) => window.reads![i]!(v), [i, v] as const);
    // The first read (on mount) is still unanswered; a second starts and answers first.
    await expect.poll(started).toBe('1');
    await page.getByRole('button', { name: 'Read now' }).click();
    await expect.poll(started).toBe('2');
    await answer(1, 'newer');
    await expect.poll(data).toBe('newer');
    await answer(0, 'older');
    await page.waitForTimeout(200);
    expect(await data()).toBe('newer');

    // Events while a read is under way: no second read at the same time, one more after it (each
    // waits four times the last read's time, which the test made long).
    await page.getByRole('button', { name: 'Event' }).click();
    await expect.poll(started, { timeout: 30_000 }).toBe('3');
    for (let i = 0; i < 5; i++) await page.getByRole('button', { name: 'Event' }).click();
    await page.waitForTimeout(1_000);
    expect(await started()).toBe('3');
    await answer(2, 'third');
    await expect.poll(data).toBe('third');
    await expect.poll(started, { timeout: 30_000 }).toBe('4');
    await answer(3, 'fourth');
    await expect.poll(data).toBe('fourth');
    await page.waitForTimeout(1_000);
    expect(await started()).toBe('4');
  });
});
