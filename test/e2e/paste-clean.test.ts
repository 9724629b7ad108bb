// End to end (issue 26, item 1): a big paste cleaned in one step. 2,000 lines with 48 invalid and 52
// duplicates are summarised (valid / invalid / duplicates); the invalid ones are listed on their own
// with their reasons (not hidden behind "+N more"), copied and exported as CSV; Send's error is one
// line that shrinks as they are removed; "Remove invalid" takes them all out at once and Undo puts
// them back; Find matches digits as numbers ("0" no longer matches every +44… chip); and "Send to the
// N valid recipients" sends in one step.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, pasteText, shoot, startApp, type E2eApp } from './support.ts';

const VALID = 1900;
const INVALID = 48;
const DUPLICATES = 52;

describe.skipIf(!HAS_CHROMIUM)(
  'cleaning a big paste in Compose (web shell + Chromium)',
  { timeout: 150_000 },
  () => {
    let app: E2eApp;
    let page: Page;

    beforeAll(async () => {
      app = await startApp('messenger-e2e-paste-clean-', { viewport: { width: 1280, height: 800 } });
      ({ page } = app);
      await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
      await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(page.url()).origin,
      });
    }, 180_000);
    afterAll(() => app?.close());

    const entry = () => page.getByRole('combobox', { name: 'To', exact: true });
    const chips = () => page.getByRole('list', { name: 'Recipients' }).getByRole('listitem');
    const invalidList = () => page.getByRole('list', { name: 'Invalid entries' }).getByRole('listitem');
    const bad = (i: number) => `07400 ${200 + i}x`;

    it('summarises, lists, finds, exports and removes the invalid entries', async () => {
      const lines: string[] = [];
      for (let i = 0; i < VALID; i++) {
        lines.push(`+447400${100000 + i}`);
        // Invalid entries and duplicates spread through the list.
        if (i % 39 === 38 && i / 39 < INVALID) lines.push(bad(Math.floor(i / 39)));
        if (i % 36 === 35 && i / 36 < DUPLICATES) lines.push(`07400 ${100000 + i - 7}`);
      }
      expect(lines).toHaveLength(VALID + INVALID + DUPLICATES);
      await page.getByRole('button', { name: 'Compose', exact: true }).click();
      await entry().focus();
      await pasteText(page, lines.join('\n'));
      await page.getByTestId('recipient-note').filter({ hasText: 'valid' }).waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('recipient-note').textContent()).toBe(
        '1,900 valid, 52 duplicates removed, 48 invalid.',
      );
      expect(await page.getByTestId('recipient-summary').textContent()).toBe(
        '1,900 valid recipients, 48 invalid.',
      );
      // Every invalid entry listed with its reason, though the chips collapse after 12.
      expect(await invalidList().count()).toBe(INVALID);
      expect(await invalidList().first().textContent()).toMatch(/^07400 200x .+Remove$/);

      // Send: one line for the 48, not 48 lines; it follows the form as entries are removed.
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Hello');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const errors = page.getByTestId('compose-errors');
      await errors.filter({ hasText: '48 invalid numbers: remove them' }).waitFor();
      expect(await errors.locator('li').count()).toBe(1);
      await page
        .getByTestId('invalid-panel')
        .getByRole('button', { name: `Remove ${bad(0)}` })
        .click();
      await errors.filter({ hasText: '47 invalid numbers: remove them' }).waitFor();
      expect(await invalidList().count()).toBe(INVALID - 1);
      await page.setViewportSize({ width: 720, height: 480 });
      await page.getByTestId('invalid-panel').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await shoot(page, 'paste-clean-invalid-720');
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByTestId('invalid-panel').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await shoot(page, 'paste-clean-invalid-1280');

      // Copy and Export hold every invalid entry.
      await page.getByTestId('invalid-panel').getByRole('button', { name: 'Copy list' }).click();
      await page.getByText('47 entries copied.').waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied.split('\n')).toEqual(Array.from({ length: INVALID - 1 }, (_, i) => bad(i + 1)));
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('invalid-panel').getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('invalid-recipients.csv');
      const csv = readFileSync((await download.path())!, 'utf8').split(/\r?\n/);
      expect(csv[0]).toBe('entry,reason');
      expect(csv).toHaveLength(INVALID);
      expect(csv[1]).toMatch(/^07400 201x,/);

      // Find: digits match numbers, from their start (or anywhere from four digits on).
      await page.getByRole('button', { name: /^\+[\d,]+ more$/ }).click();
      const find = page.getByRole('searchbox', { name: 'Find a recipient' });
      await find.fill('0');
      // Only the entries typed with a leading 0 (the invalid national ones), not every +44… chip.
      await expect.poll(() => chips().count()).toBe(INVALID - 1);
      await find.fill('+44 7400 1000');
      await expect.poll(() => chips().count()).toBe(100);
      await find.fill('1899');
      await expect.poll(() => chips().allTextContents()).toEqual(['+447400101899×']);
      await find.fill('');
      await page.getByRole('button', { name: 'Show less' }).click();

      // Remove all at once, undo, remove again: the rejects stay on offer.
      await page.getByRole('button', { name: 'Remove 47 invalid' }).click();
      const removed = page.getByTestId('invalid-removed');
      await removed.getByText('47 invalid entries removed: not sent.').waitFor();
      expect(await page.getByTestId('recipient-count').textContent()).toBe('1,900 recipients');
      expect(await errors.count()).toBe(0);
      await removed.getByRole('button', { name: 'Undo' }).click();
      await page.getByTestId('recipient-count').filter({ hasText: '1,947 recipients' }).waitFor();
      expect(await invalidList().count()).toBe(INVALID - 1);
      await page.getByRole('button', { name: 'Remove 47 invalid' }).click();
      await removed.waitFor();
      await page.setViewportSize({ width: 720, height: 480 });
      await removed.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await shoot(page, 'paste-clean-removed-720');
      await page.setViewportSize({ width: 1280, height: 800 });
      await shoot(page, 'paste-clean-removed-1280');
      expect(app.pageErrors).toEqual([]);
    });

    it('sends to the valid recipients in one step', async () => {
      await page.getByRole('button', { name: 'Clear all' }).click();
      await entry().focus();
      await pasteText(
        page,
        ['+447400200001', '12ab', '+447400200002', '07400 9x', '+447400200003'].join('\n'),
      );
      const panel = page.getByTestId('invalid-panel');
      await panel.waitFor();
      await panel.getByRole('button', { name: 'Send to the 3 valid recipients' }).click();
      await page.getByTestId('sent-lock').waitFor({ timeout: 20_000 });
      const job = (await page.evaluate(() => window.messenger!.outbox.jobs()))[0]!;
      expect(job.content).toMatchObject({ text: 'Hello' });
      expect(job.recipientCount).toBe(3);
      const rows = await page.evaluate((id) => window.messenger!.outbox.recipients(id), job.id);
      expect(rows.map((r) => r.to).sort()).toEqual(['447400200001', '447400200002', '447400200003']);
      await page.getByTestId('invalid-removed').getByText('2 invalid entries removed: not sent.').waitFor();
      expect(app.pageErrors).toEqual([]);
    });
  },
);
