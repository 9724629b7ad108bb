// End to end (issue 12): the confirmation threshold (settings.confirmAboveRecipients, default 50) has
// its field in the Account view; the settings' own rule refuses what it cannot take, and a saved
// value decides when Compose asks before sending.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, shoot, startApp, type E2eApp } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)(
  'confirmation threshold setting (web shell + Chromium)',
  { timeout: 90_000 },
  () => {
    let app: E2eApp;
    let page: Page;

    beforeAll(async () => {
      app = await startApp('messenger-e2e-confirm-', { viewport: { width: 1024, height: 720 } });
      ({ page } = app);
      await page.getByTestId('credit-amount').waitFor({ timeout: 20_000 });
    }, 180_000);
    afterAll(() => app?.close());

    it('is set in the Account view, checked by the settings rule, and Compose asks above it', async () => {
      await page.getByRole('button', { name: 'Account', exact: true }).click();
      const field = page.getByRole('spinbutton', { name: 'Ask before sending to more than (recipients)' });
      expect(await field.inputValue()).toBe('50');
      const save = page.getByRole('button', { name: 'Save settings' });

      await field.fill('-1');
      await save.click();
      await page.getByText('confirmAboveRecipients must be a whole number, 0 or more').waitFor();
      expect(await page.evaluate(() => window.messenger!.settings.get())).toMatchObject({
        confirmAboveRecipients: 50,
      });
      await field.fill('');
      await save.click();
      await page.getByText('Type how many recipients a send may have before it asks').waitFor();

      await field.fill('2');
      await save.click();
      await page.getByText('Settings saved: ask before sending to more than 2 recipients.').waitFor();
      await page.setViewportSize({ width: 720, height: 480 });
      await field.evaluate((el) => el.closest('label')!.scrollIntoView({ block: 'center' }));
      await shoot(page, 'account-confirm-threshold');
      await page.setViewportSize({ width: 1024, height: 720 });
      expect(await page.evaluate(() => window.messenger!.settings.get())).toMatchObject({
        confirmAboveRecipients: 2,
      });

      // Three recipients are now more than enough to be asked.
      await page.getByRole('button', { name: 'Compose', exact: true }).click();
      const entry = page.getByRole('combobox', { name: 'To', exact: true });
      for (const n of ['+447700900971', '+447700900972', '+447700900973']) {
        await entry.fill(n);
        await entry.press('Enter');
      }
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Three is many');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Send to many recipients?' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Go back' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => window.messenger!.outbox.jobs())).toEqual([]);
      // The field shows the saved value when the Account view opens again.
      await page.getByRole('button', { name: 'Account', exact: true }).click();
      expect(await field.inputValue()).toBe('2');
      expect(app.pageErrors).toEqual([]);
    });
  },
);
