// End to end (issue 12): Compose's draft survives navigation and a restart of the app (the web
// shell stopped and started again on the same data folder), per account; "Discard draft" clears it
// and a send is no longer a draft.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  HAS_CHROMIUM,
  openBrowser,
  shoot,
  startShell,
  stopShell,
  type AppBrowser,
  type Shell,
} from './support.ts';

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
  });

  it("keeps a rich editor's own state (logo pixels and network, ringtone text) across navigation, a reload and a restart", async () => {
    const page = browser!.page;
    const kindSelect = page.getByLabel('Content', { exact: true });
    const status = page.getByTestId('bitmap-status');
    const mcc = page.getByRole('textbox', { name: 'MCC' });
    const mnc = page.getByRole('textbox', { name: 'MNC' });
    const backToCompose = async () => {
      await page.getByRole('button', { name: 'Contacts & groups' }).click();
      await page.getByRole('button', { name: 'Compose', exact: true }).click();
      await page.getByTestId('draft-restored').waitFor();
    };

    await kindSelect.selectOption({ label: 'Operator logo' });
    const canvas = page.getByTestId('bitmap-canvas');
    const box = (await canvas.boundingBox())!;
    const cell = box.width / 72;
    for (const [x, y] of [
      [3, 2],
      [40, 7],
      [71, 13],
    ] as const)
      await page.mouse.click(box.x + (x + 0.5) * cell, box.y + (y + 0.5) * cell);
    await status.getByText('72×14, 3 black pixels').waitFor();
    await mcc.fill('262');
    await mnc.fill('02');
    const pixelsOf = () =>
      page.evaluate(async () => (await window.messenger!.drafts.get())?.editor?.state['pixels']);
    await expect.poll(pixelsOf).toMatch(/^[0-9a-f]+$/);
    const saved = await pixelsOf();

    await backToCompose();
    expect(await kindSelect.inputValue()).toBe('operatorLogo');
    await status.getByText('72×14, 3 black pixels').waitFor();
    expect(await mcc.inputValue()).toBe('262');
    expect(await mnc.inputValue()).toBe('02');
    await page.getByTestId('network-chosen').getByText('Vodafone Germany, Germany (262 02)').waitFor();

    // A reload starts the renderer from nothing: only the saved draft brings the drawing back (the
    // URL's token is single-use: the tab's session must be stored before reloading).
    await page.waitForFunction(() => window.sessionStorage.getItem('messenger.session') !== null);
    await page.reload();
    await page.getByTestId('credit-amount').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    await page.getByTestId('draft-restored').waitFor();
    expect(await kindSelect.inputValue()).toBe('operatorLogo');
    await status.getByText('72×14, 3 black pixels').waitFor();
    expect(await mcc.inputValue()).toBe('262');
    expect(await pixelsOf()).toBe(saved);
    await page.setViewportSize({ width: 720, height: 480 });
    await shoot(page, 'compose-draft-logo-restored');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Another kind: the ringtone's own text comes back.
    await kindSelect.selectOption({ label: 'Ringtone' });
    const rtttl = page.getByRole('textbox', { name: 'RTTTL / RTX' });
    await rtttl.fill('Mine:d=4,o=5,b=100:c,e,g');
    await expect
      .poll(() => page.evaluate(async () => (await window.messenger!.drafts.get())?.editor?.state['text']))
      .toBe('Mine:d=4,o=5,b=100:c,e,g');
    await backToCompose();
    expect(await kindSelect.inputValue()).toBe('ringtone');
    expect(await rtttl.inputValue()).toBe('Mine:d=4,o=5,b=100:c,e,g');

    // Restart: a new shell process on the same data, a new browser profile.
    await close();
    const after = await open('profile-3');
    const kindAfter = after.getByLabel('Content', { exact: true });
    const rtttlAfter = after.getByRole('textbox', { name: 'RTTTL / RTX' });
    await after.getByRole('button', { name: 'Compose', exact: true }).click();
    await after.getByTestId('draft-restored').waitFor();
    expect(await kindAfter.inputValue()).toBe('ringtone');
    expect(await rtttlAfter.inputValue()).toBe('Mine:d=4,o=5,b=100:c,e,g');

    // A form editor (vCalendar): its fields come back too.
    await kindAfter.selectOption({ label: 'vCalendar (event)' });
    const title = after.getByRole('textbox', { name: 'Title' });
    await title.fill('Team lunch');
    await after.getByRole('textbox', { name: 'Location' }).fill('Canteen');
    await expect
      .poll(() =>
        after.evaluate(async () => (await window.messenger!.drafts.get())?.editor?.state['location']),
      )
      .toBe('Canteen');
    await after.getByRole('button', { name: 'Contacts & groups' }).click();
    await after.getByRole('button', { name: 'Compose', exact: true }).click();
    await after.getByTestId('draft-restored').waitFor();
    expect(await kindAfter.inputValue()).toBe('vcalendar');
    expect(await title.inputValue()).toBe('Team lunch');
    expect(await after.getByRole('textbox', { name: 'Location' }).inputValue()).toBe('Canteen');

    // Discard draft: the editor's state goes with the rest.
    await after.getByRole('button', { name: 'Discard draft' }).click();
    expect(await kindAfter.inputValue()).toBe('text');
    await expect.poll(() => after.evaluate(() => window.messenger!.drafts.get())).toBeNull();
    await after.getByRole('button', { name: 'Inbox' }).first().click();
    await after.getByRole('button', { name: 'Compose', exact: true }).click();
    await after.waitForTimeout(300);
    expect(await kindAfter.inputValue()).toBe('text');
    await kindAfter.selectOption({ label: 'Ringtone' });
    expect(await rtttlAfter.inputValue()).not.toBe('Mine:d=4,o=5,b=100:c,e,g');
    expect(pageErrors).toEqual([]);
    expect(browser!.pageErrors).toEqual([]);
  });
});
