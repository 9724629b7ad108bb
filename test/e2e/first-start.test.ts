// First start without --sandbox: the sign-in page. A wrong gateway shows the service's error and
// stays on the page; "Use local sandbox" signs in and the credit appears; sign out returns here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, shoot, startApp, type E2eApp } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)('first start: sign in or local sandbox', { timeout: 60_000 }, () => {
  let app: E2eApp;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    app = await startApp('messenger-first-', {
      viewport: { width: 1280, height: 820 },
      shell: { sandbox: false },
    });
    ({ page, pageErrors } = app);
  }, 180_000);

  afterAll(() => app?.close());

  it('refuses a gateway that does not answer, with the reason shown', async () => {
    await page.getByRole('heading', { name: 'Welcome to Messenger' }).waitFor();
    const form = page.getByRole('form', { name: 'Sign in to a gateway' });
    await form.getByLabel('Username', { exact: true }).fill('nobody');
    await form.getByLabel('PIN', { exact: true }).fill('1234');
    await form.getByLabel('Gateway URL', { exact: true }).fill('http://127.0.0.1:9/');
    // In a browser the PIN is not remembered by default (no OS keyring).
    expect(await form.getByLabel('Remember the PIN').isChecked()).toBe(false);
    await form.getByRole('button', { name: 'Sign in' }).click();
    const alert = form.getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toMatch(/could not be reached/);
    await shoot(page, 'signin-error');
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
  });

  it('"Use local sandbox" signs in and shows the credit; sign out returns to the first page', async () => {
    await page.getByRole('button', { name: 'Use local sandbox' }).click();
    await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
    expect(Number(await page.getByTestId('credit-amount').textContent())).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Account', exact: true }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Welcome to Messenger' }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
