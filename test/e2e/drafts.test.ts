// End to end (issue 12): Compose's draft survives navigation and a restart of the app (the web
// shell stopped and started again on the same data folder), per account; "Discard draft" clears it
// and a send is no longer a draft.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, openBrowser, startShell, stopShell, type AppBrowser, type Shell } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)('Compose drafts (web shell + Chromium)', { timeout: 120_000 }, () => {
  const tmp = mkdtempSync(join(tmpdir(), 'messenger-e2e-drafts-'));
  let shell: Shell | undefined;
  let browser: AppBrowser | undefined;
  const pageErrors: string[] = [];

  async function open(profile: string): Promise<Page> {
    shell = await startShell(join(tmp, 'data'));
    browser = await openBrowser(join(tmp, profile));
    await browser.page.goto(shell.url);
    await browser.page.getByTestId('credit-amount').waitFor({ timeout: 20_000 });
    return browser.page;
  }
  async function close(): Promise<void> {
    if (browser) pageErrors.push(...browser.pageErrors);
    await browser?.context.close();
    if (shell) await stopShell(shell);
    browser = undefined;
    shell = undefined;
  }
  afterAll(async () => {
    await close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const chipTexts = (page: Page) =>
    page.getByRole('list', { name: 'Recipients' }).getByRole('listitem').allTextContents();
  const message = (page: Page) => page.getByRole('textbox', { name: 'Message', exact: true });

  it('keeps the draft across navigation and a restart; Discard draft clears it', async () => {
    let page = await open('profile-1');
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    await entry.fill('+44 7700 900501');
    await entry.press('Enter');
    await message(page).fill('Draft that must survive');
    // Look something up and come back.
    await page.getByRole('button', { name: 'Contacts & groups' }).click();
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    await page.getByTestId('draft-restored').waitFor();
    expect(await message(page).inputValue()).toBe('Draft that must survive');
    expect(await chipTexts(page)).toEqual(['+447700900501×']);

    // Restart: a new shell process on the same data, a new browser profile.
    await close();
    page = await open('profile-2');
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    await page.getByTestId('draft-restored').waitFor();
    expect(await message(page).inputValue()).toBe('Draft that must survive');
    expect(await chipTexts(page)).toEqual(['+447700900501×']);

    // Ctrl+N is a new message; the Compose item brings the draft back.
    await page.keyboard.press('Control+n');
    expect(await message(page).inputValue()).toBe('');
    await page.getByRole('button', { name: 'Inbox' }).first().click();
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    await page.getByTestId('draft-restored').waitFor();

    await page.getByRole('button', { name: 'Discard draft' }).click();
    expect(await message(page).inputValue()).toBe('');
    expect(await page.evaluate(() => window.messenger!.drafts.get())).toBeNull();
    await page.getByRole('button', { name: 'Inbox' }).first().click();
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    await page.waitForTimeout(300);
    expect(await message(page).inputValue()).toBe('');
    expect(await chipTexts(page)).toEqual([]);
  });

  it('a sent message is no longer a draft', async () => {
    const page = browser!.page;
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    await entry.fill('+44 7700 900502');
    await entry.press('Enter');
    await message(page).fill('Sent, not kept');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('sent-lock').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.evaluate(() => window.messenger!.drafts.get())).toBeNull();
    await page.getByRole('button', { name: 'Inbox' }).first().click();
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    await page.waitForTimeout(300);
    expect(await message(page).inputValue()).toBe('');
    expect(pageErrors).toEqual([]);
    expect(browser!.pageErrors).toEqual([]);
  });
});
