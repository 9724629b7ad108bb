// End to end (issue 26, item 2): the cost in money, per delivery option, with its basis. The local
// sandbox starts with 10.00 GBP; AvailableMessages says 200 (premier messages only), so before any
// send Compose counts "200 available … from AvailableMessages". A send shows what Default costs:
// the app learns 0.04 GBP from the credit before and after, the counter says so, the confirmation
// of a send the credit does not cover gives its cost in money and every option's, and "Send to the
// first K" uses the whole credit (the gateway accepts every one, the credit ends at 0.00). The
// Account view takes a price of the administrator's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, pasteText, shoot, startApp, type E2eApp } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)(
  'the cost of a send in money (web shell + Chromium)',
  { timeout: 150_000 },
  () => {
    let app: E2eApp;
    let page: Page;

    beforeAll(async () => {
      app = await startApp('messenger-e2e-cost-', { viewport: { width: 1280, height: 800 } });
      ({ page } = app);
      await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
    }, 180_000);
    afterAll(() => app?.close());

    const entry = () => page.getByRole('combobox', { name: 'To', exact: true });
    const message = () => page.getByRole('textbox', { name: 'Message', exact: true });
    const numbers = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => `+447400${100000 + from + i}`).join('\n');
    const defaultRate = async () =>
      (await page.evaluate(() => window.messenger!.credit.get()))?.rates?.find((r) => r.option === 'Default');

    it('counts from AvailableMessages, then learns the Default price from a send', async () => {
      await page.getByRole('button', { name: 'Compose', exact: true }).click();
      await entry().focus();
      await pasteText(page, numbers(10, 0));
      await message().fill('Hello');
      const available = page.getByTestId('counter-available');
      expect(await available.textContent()).toBe(
        'of 200 available at 0.05 GBP per message, from AvailableMessages (the Premier price; this option may cost less)',
      );
      expect(await page.getByTestId('counter').textContent()).toContain('≈ 10 message credits (0.50 GBP)');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.getByTestId('sent-lock').waitFor({ timeout: 20_000 });
      await expect.poll(async () => (await defaultRate())?.basis, { timeout: 30_000 }).toBe('learned');
      expect(await defaultRate()).toMatchObject({ price: '0.0400', messages: 240 });
      await page.getByTestId('credit-messages').filter({ hasText: '≈ 240 messages' }).waitFor();

      await page.getByRole('button', { name: 'New message' }).click();
      await entry().focus();
      await pasteText(page, numbers(260, 100));
      await message().fill('Hello all');
      await available
        .filter({ hasText: 'of 240 available at 0.04 GBP per message, learned from your last send' })
        .waitFor();
      // Premier still costs what AvailableMessages says.
      await page.getByRole('combobox', { name: 'Delivery' }).selectOption('Premier');
      await available
        .filter({ hasText: 'of 192 available at 0.05 GBP per message, from AvailableMessages' })
        .waitFor();
      await page.getByRole('combobox', { name: 'Delivery' }).selectOption('Default');
      await page.setViewportSize({ width: 720, height: 480 });
      await page.getByTestId('counter').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await shoot(page, 'cost-counter-720');
      await page.setViewportSize({ width: 1280, height: 800 });
      await shoot(page, 'cost-counter-1280');
      expect(app.pageErrors).toEqual([]);
    });

    it('gives the cost in money per option and sends to the first K with the whole credit', async () => {
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Not enough credit for this send' });
      await dialog.waitFor();
      expect(await dialog.getByTestId('send-confirm-cost').textContent()).toBe(
        '10.40 GBP at 0.04 GBP per message, learned from your last send',
      );
      expect(await dialog.textContent()).toContain(
        'The credit runs out after 240 recipients: 20 recipients would fail.',
      );
      await dialog.getByText('Cost with each delivery option').click();
      const rows = await dialog
        .getByTestId('send-confirm-options')
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
      expect(rows).toEqual([
        ['Default', '10.40 GBP', '240 messages', '0.04 GBP, learned from your last send'],
        ['Premier', '13.00 GBP', '192 messages', '0.05 GBP, from AvailableMessages'],
        [
          'LeastCost',
          '13.00 GBP',
          '192 messages',
          '0.05 GBP, from AvailableMessages (the Premier price; this option may cost less)',
        ],
        [
          'Economy',
          '13.00 GBP',
          '192 messages',
          '0.05 GBP, from AvailableMessages (the Premier price; this option may cost less)',
        ],
      ]);
      await page.setViewportSize({ width: 720, height: 480 });
      await shoot(page, 'cost-confirm-720');
      await page.setViewportSize({ width: 1280, height: 800 });
      await shoot(page, 'cost-confirm-1280');

      await dialog.getByRole('button', { name: 'Send to the first 240' }).click();
      await page.getByTestId('sent-lock').waitFor({ timeout: 20_000 });
      const job = (await page.evaluate(() => window.messenger!.outbox.jobs()))[0]!;
      expect(job.recipientCount).toBe(240);
      await expect
        .poll(
          async () => (await page.evaluate((id) => window.messenger!.outbox.job(id), job.id))?.counts.pending,
          {
            timeout: 30_000,
          },
        )
        .toBe(0);
      const done = await page.evaluate((id) => window.messenger!.outbox.job(id), job.id);
      // None refused for want of credit, and none of the credit left.
      expect(done?.counts.rejected).toBe(0);
      await page.getByTestId('credit-amount').filter({ hasText: '0.00' }).waitFor({ timeout: 20_000 });
      expect(app.pageErrors).toEqual([]);
    });

    it('takes a price in the Account settings, said as its basis', async () => {
      await page.getByRole('button', { name: 'Account', exact: true }).click();
      const economy = page.getByRole('textbox', { name: 'Economy' });
      await economy.fill('0.025');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved: message prices Economy 0.025.').waitFor();
      const rates = (await page.evaluate(() => window.messenger!.credit.get()))?.rates;
      expect(rates?.find((r) => r.option === 'Economy')).toMatchObject({ price: '0.0250', basis: 'setting' });
      await economy.fill('0');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText(/Message prices \(deliveryRates\): each must be above 0/).waitFor();
      await economy.fill('0.025');
      await page.setViewportSize({ width: 720, height: 480 });
      await economy.scrollIntoViewIfNeeded();
      await shoot(page, 'cost-account-720');
      await page.setViewportSize({ width: 1280, height: 800 });
      await economy.scrollIntoViewIfNeeded();
      await shoot(page, 'cost-account-1280');
      expect(app.pageErrors).toEqual([]);
    });
  },
);
