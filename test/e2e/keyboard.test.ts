// End to end (issue 26 item 5): the three everyday workflows done with the keyboard alone, no
// mouse: sign in to the sandbox, compose and send, read a reply and answer it, import contacts
// from a CSV file (the operating system's file chooser is the only part not typed: Playwright
// answers it). Tab moves, Enter and Space act, as a keyboard user would.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_NUMBER } from '../../gateway/demo.ts';
import { violationsBothSchemes } from './axe.ts';
import { HAS_CHROMIUM, shoot, startApp, type E2eApp } from './support.ts';

/**
 * Tab (or Shift+Tab) until the focused element's name matches `name`; its description. Fails
 * after `max` presses.
 */
async function tabTo(page: Page, name: RegExp, opts: { back?: boolean; max?: number } = {}): Promise<string> {
  for (let i = 0; i < (opts.max ?? 80); i++) {
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return '';
      const labelled = (el as HTMLInputElement).labels?.[0]?.textContent ?? '';
      return (el.getAttribute('aria-label') ?? (labelled || el.textContent) ?? '')
        .replace(/\s+/g, ' ')
        .trim();
    });
    if (name.test(focused)) return focused;
  }
  throw new Error(`Tab never reached ${name}`);
}

describe.skipIf(!HAS_CHROMIUM)('keyboard alone (issue 26)', { timeout: 120_000 }, () => {
  let app: E2eApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp('messenger-e2e-keys-', {
      viewport: { width: 1280, height: 800 },
      shell: { sandbox: false },
    });
    page = app.page;
  }, 180_000);
  afterAll(() => app?.close());

  it('the sign-in screen passes axe, and the sandbox is one Tab and Enter away', async () => {
    await page.getByRole('heading', { name: 'Welcome to Messenger' }).waitFor({ timeout: 30_000 });
    expect(await violationsBothSchemes(page)).toEqual([]);
    for (const [width, height] of [
      [1280, 800],
      [720, 480],
    ] as const) {
      await page.setViewportSize({ width, height });
      await shoot(page, `a11y-signin-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await tabTo(page, /^Use local sandbox$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
  });

  it('composes and sends', async () => {
    await page.keyboard.press('Control+n');
    await tabTo(page, /^To$/);
    await page.keyboard.type('+44 7700 900851');
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Recipients' }).getByText('+447700900851').waitFor();
    await tabTo(page, /^Message$/);
    await page.keyboard.type('Typed, not clicked');
    await page.keyboard.press('Control+Enter');
    await page.getByText('All 1 recipient accepted').waitFor({ timeout: 20_000 });
    const jobs = await page.evaluate(() => window.messenger!.outbox.jobs({ limit: 1 }));
    expect(jobs[0]?.content.text).toBe('Typed, not clicked');
  });

  it('reads a reply and answers it', async () => {
    const gateway = await page.evaluate(async () => (await window.messenger!.accounts.current())!.primaryUrl);
    const res = await fetch(new URL('/sandbox/inbound', gateway), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: new URLSearchParams({
        SendTo: DEMO_NUMBER,
        ReplyTo: '447700900851',
        Message: 'Got it',
      }).toString(),
    });
    expect(res.status).toBe(200);
    await page.evaluate(() => window.messenger!.inbox.pollNow());
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, /^Inbox/);
    await page.keyboard.press('Enter');
    await tabTo(page, /447700900851.*Got it/);
    await page.keyboard.press('Enter');
    const thread = page.getByRole('region', { name: /Conversation with/ });
    await thread.getByText('Got it').waitFor();
    await tabTo(page, /^Reply$/);
    await page.keyboard.type('Thanks for letting me know');
    await page.keyboard.press('Enter');
    await thread
      .locator('.bubble.out', { hasText: 'Thanks for letting me know' })
      .waitFor({ timeout: 20_000 });
    await shoot(page, 'keyboard-reply');
  });

  it('imports contacts from a CSV file', async () => {
    const file = join(app.tmp, 'people.csv');
    writeFileSync(
      file,
      'Name,Mobile,Email\nKeya Board,+447700900861,keya@example.com\nTab Key,07700 900862,\n',
    );
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, /^Contacts & groups$/);
    await page.keyboard.press('Enter');
    // Listening before Tab reaches the button: the file chooser is intercepted well before Enter opens it
    // (once it failed to arrive when the listener and the key press went together on a loaded machine).
    const chosen = page.waitForEvent('filechooser', { timeout: 60_000 });
    await tabTo(page, /^Import CSV…/);
    await page.keyboard.press('Enter');
    const chooser = await chosen;
    await chooser.setFiles(file);
    const dialog = page.getByRole('dialog', { name: 'CSV column mapping' });
    await dialog.waitFor();
    await tabTo(page, /^Import$/);
    await page.keyboard.press('Enter');
    await expect
      .poll(async () =>
        (await page.evaluate(() => window.messenger!.contacts.list())).map((c) => c.name).sort(),
      )
      .toEqual(['Keya Board', 'Tab Key']);
    await shoot(page, 'keyboard-import');
  });
});
