// Issue 25 item 6: a test that failed under load ("refuses an invalid number…": the chip never
// appeared) showed a race in Compose itself: a number entered before the form's lists (contacts,
// groups, templates, settings) had arrived was wiped when they did. Here that moment is made long
// on purpose — the page's call for the templates is held at the WebSocket (Playwright's
// routeWebSocket) — and the chip entered meanwhile must still be there when the lists arrive.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { HAS_CHROMIUM, openBrowser, startShell, stopShell, type Shell } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)('Compose while its lists are still being read', { timeout: 90_000 }, () => {
  let tmp: string;
  let shell: Shell;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  /** While set, the page's templates.list calls wait here. */
  let hold: Promise<void> | null = null;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'messenger-e2e-compose-load-'));
    shell = await startShell(join(tmp, 'data'));
    ({ context, page, pageErrors: errors } = await openBrowser(join(tmp, 'profile')));
    await page.routeWebSocket(/.*/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => {
        const held = hold;
        if (held && typeof m === 'string' && m.includes('"channel":"templates.list"'))
          void held.then(() => server.send(m));
        else server.send(m);
      });
      server.onMessage((m) => ws.send(m));
    });
    await page.goto(shell.url);
    await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
  }, 180_000);

  afterAll(async () => {
    if (errors?.length) console.error('page errors:', errors);
    await context?.close();
    if (shell) await stopShell(shell);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('a number entered before the lists arrive stays a chip when they do', async () => {
    // A template, so that the form shows when its lists have arrived (the select of templates).
    await page.evaluate(() => window.messenger!.templates.create({ name: 'Hi', text: 'Hello' }));
    let release = (): void => {};
    hold = new Promise((r) => (release = r));
    await page.keyboard.press('Control+n');
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    await entry.fill('+447700900901');
    await entry.press('Enter');
    const chips = page.getByRole('list', { name: 'Recipients' }).getByRole('listitem');
    await chips.filter({ hasText: '+447700900901' }).waitFor();
    // The lists arrive: the form's start (a handed-over empty draft) must not empty it.
    hold = null;
    release();
    // The lists arrived (one Promise.all): the form's start has run.
    await page.getByRole('combobox', { name: 'Insert template' }).waitFor({ timeout: 20_000 });
    expect(await chips.allTextContents()).toEqual(['+447700900901×']);
    expect(errors).toEqual([]);
  });
});
