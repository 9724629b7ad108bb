// Issue 15: a long paste's chips arrive after the worker answers and the slices are read
// (Recipients.tsx addTokens → checkLater → addCheckedInSlices). What the user does meanwhile:
// "Discard draft" (the form emptied) and a second paste of the same list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, pasteText, startApp, type E2eApp } from './support.ts';

const COUNT = 30_000;
const list = Array.from({ length: COUNT }, (_, i) => `+44 7400 ${String(100000 + i)}`).join('\n');

describe.skipIf(!HAS_CHROMIUM)('what happens while a long paste is read', { timeout: 120_000 }, () => {
  let app: E2eApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp('messenger-e2e-paste-races-');
    page = app.page;
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
  }, 180_000);

  afterAll(() => app?.close());

  it('"Discard draft" while the paste is checked leaves an empty form (the chips do not arrive later)', async () => {
    await page.keyboard.press('Control+n');
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    await entry.fill('+447400999999');
    await entry.press('Enter');
    await entry.focus();
    await pasteText(page, list);
    await page.getByRole('button', { name: 'Discard draft' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Checking' })
      .waitFor({ state: 'detached', timeout: 60_000 });
    await page.waitForTimeout(300);
    const chips = page.getByRole('list', { name: 'Recipients' }).getByRole('listitem');
    expect(await chips.count()).toBe(0);
  });

  it('the same list pasted twice while the first is read gives each number once', async () => {
    await page.keyboard.press('Control+n');
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    await entry.focus();
    await pasteText(page, list);
    await pasteText(page, list);
    await page
      .getByRole('status')
      .filter({ hasText: 'Checking' })
      .waitFor({ state: 'detached', timeout: 60_000 });
    await page.waitForTimeout(300);
    expect(await page.getByTestId('recipient-count').textContent()).toBe(
      `${COUNT.toLocaleString('en-GB')} recipients`,
    );
  });
  it('Send while a long paste is still checked is refused (it would go without the pasted numbers)', async () => {
    await page.keyboard.press('Control+n');
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    await entry.fill('+447400999998');
    await entry.press('Enter');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('hello');
    await entry.focus();
    await pasteText(page, list);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Checking' })
      .waitFor({ state: 'detached', timeout: 60_000 });
    await page.waitForTimeout(500);
    const body = (await page.locator('body').textContent()) ?? '';
    // Before: sent to the one chip there was (its outcome "All 1 recipient accepted"), and the
    // 30,000 chips arrived afterwards in the locked form ("30,001 recipients").
    expect(body).not.toMatch(/All 1 recipient (answered|accepted|delivered)/);
    expect(await page.getByTestId('send-outcome').count()).toBe(0);
  });
});
