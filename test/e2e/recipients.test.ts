// End to end (issue 12): large recipient lists in Compose. 5,000 pasted numbers (and some duplicates)
// collapse to a screenful with "+N more", expand to a searchable list, and "Clear all" empties them; the
// duplicates removed are counted; a name that matches nothing makes no invalid chip; a chip is edited
// in place. Screenshots of the collapsed chips in light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type E2eApp, HAS_CHROMIUM, pasteText, shoot, startApp } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)(
  'Compose recipients: large lists (web shell + Chromium)',
  { timeout: 90_000 },
  () => {
    let app: E2eApp;
    let page: Page;

    beforeAll(async () => {
      app = await startApp('messenger-e2e-recipients-', { viewport: { width: 1024, height: 720 } });
      ({ page } = app);
      await page.getByTestId('credit-amount').waitFor({ timeout: 20_000 });
    }, 180_000);
    afterAll(() => app?.close());

    const entry = () => page.getByRole('combobox', { name: 'To', exact: true });
    const chips = () => page.getByRole('list', { name: 'Recipients' }).getByRole('listitem');

    it('5,000 pasted numbers collapse, expand with search, and clear', async () => {
      const numbers = Array.from({ length: 5000 }, (_, i) => `+4479110${String(i).padStart(5, '0')}`);
      const pasted = [...numbers, numbers[0], numbers[1], numbers[2]].join('\n');
      await entry().focus();
      await pasteText(page, pasted);
      await page.getByRole('button', { name: '+4,988 more' }).waitFor();
      expect(await chips().count()).toBe(12);
      expect(await page.getByTestId('recipient-count').textContent()).toBe('5,000 recipients');
      expect(await page.getByTestId('recipient-note').textContent()).toBe(
        '5,000 added, 3 duplicates removed.',
      );
      await shoot(page, 'recipients-collapsed');

      await page.getByRole('button', { name: '+4,988 more' }).click();
      await page.getByRole('searchbox', { name: 'Find a recipient' }).fill('447911004999');
      await expect.poll(() => chips().allTextContents()).toEqual(['+447911004999×']);
      await page.getByRole('searchbox', { name: 'Find a recipient' }).fill('');
      await page.getByRole('button', { name: 'Show less' }).click();

      await page.getByRole('button', { name: 'Clear all' }).click();
      expect(await chips().count()).toBe(0);
      expect(await page.getByRole('button', { name: /more$/ }).count()).toBe(0);
    });

    it('a name that matches nothing makes no chip; a chip is edited in place', async () => {
      await entry().fill('Ali');
      await entry().press('Enter');
      expect(await chips().count()).toBe(0);
      expect(await entry().inputValue()).toBe('Ali');
      expect(await page.getByTestId('recipient-note').textContent()).toContain(
        'no contact or group named “Ali”',
      );

      await entry().fill('07700 90012');
      await entry().press('Enter');
      const bad = chips().first();
      expect(await bad.getAttribute('class')).toContain('invalid');
      await bad.dblclick();
      const edit = page.getByRole('textbox', { name: 'Edit recipient' });
      await edit.fill('07700 900123');
      await edit.press('Enter');
      await expect.poll(() => chips().allTextContents()).toEqual(['+447700900123×']);
      expect(app.pageErrors).toEqual([]);
    });

    it('a long text is said before it is sent, even to one recipient (issue 12, small things)', async () => {
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('x'.repeat(153 * 5 + 1));
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Send a long message?' });
      await dialog.waitFor();
      expect(await dialog.getByTestId('long-message').textContent()).toContain('Each recipient gets 6 parts');
      await dialog.getByRole('button', { name: 'Go back' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => window.messenger!.outbox.jobs())).toEqual([]);
      // A 20-part SMS: the counter says it as it is typed, and Send asks first.
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('x'.repeat(153 * 19 + 1));
      expect(await page.getByTestId('counter').textContent()).toContain('20 segments');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await dialog.waitFor();
      expect(await dialog.getByTestId('long-message').textContent()).toContain(
        'Each recipient gets 20 parts',
      );
      await dialog.getByRole('button', { name: 'Go back' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => window.messenger!.outbox.jobs())).toEqual([]);
      // The sidebar shows the credit with two decimals.
      expect(await page.getByTestId('credit-amount').textContent()).toMatch(/^\d+\.\d\d$/);
      expect(app.pageErrors).toEqual([]);
    });

    it('mail merge sends each recipient their own name', async () => {
      await page.evaluate(async () => {
        await window.messenger!.contacts.add({ name: 'Alice Archer', number: '447700900931' });
        await window.messenger!.contacts.add({ name: 'Bob Baker', number: '447700900932' });
      });
      // The contacts are read when Compose opens.
      await page.getByRole('button', { name: 'Inbox' }).first().click();
      await page.getByRole('button', { name: 'Compose', exact: true }).click();
      await page.getByRole('button', { name: 'Discard draft' }).click();
      for (const name of ['Alice Archer', 'Bob Baker', '+44 7700 900933']) {
        await entry().fill(name);
        await entry().press('Enter');
      }
      await expect.poll(() => chips().count()).toBe(3);
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Hi {first name|there}!');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.getByTestId('sent-lock').waitFor({ timeout: 20_000 });
      await expect
        .poll(async () =>
          (await page.evaluate(() => window.messenger!.history.messages({ limit: 50 }))).items
            .filter((m) => m.direction === 'out' && m.text.startsWith('Hi '))
            .map((m) => `${m.peer} ${m.text}`)
            .sort(),
        )
        .toEqual(['447700900931 Hi Alice!', '447700900932 Hi Bob!', '447700900933 Hi there!']);
      expect(app.pageErrors).toEqual([]);
    });
  },
);
