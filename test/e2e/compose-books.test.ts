// End to end (issue 16): a server address book as one recipient in Compose, in the real web shell
// with Debian's Chromium against the local sandbox, whose demo account has the book Friends (3
// members) with the group Team (2; gateway/demo.ts). Picked as a chip, its reach is in the cost
// estimate; sent as SendToAddressBook, its members' handsets get it; History shows the book with its
// reach and the gateway's answer. Then Cc/Bcc of a rich send, kept in the draft. Screenshots of
// Compose with a book chip and Cc/Bcc open, 720×480, light and dark, land in test-results/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, shoot, startApp, type E2eApp } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)(
  'Compose: server books and Cc/Bcc (web shell + Chromium)',
  { timeout: 90_000 },
  () => {
    let app: E2eApp;
    let page: Page;
    let sandboxUrl = '';

    beforeAll(async () => {
      app = await startApp('messenger-e2e-books-', { viewport: { width: 1024, height: 720 } });
      ({ page } = app);
      await page.getByTestId('credit-amount').waitFor({ timeout: 20_000 });
      sandboxUrl = (await page.evaluate(() => window.messenger!.accounts.current()))?.primaryUrl ?? '';
    }, 180_000);

    afterAll(() => app?.close());

    const entry = () => page.getByRole('combobox', { name: 'To', exact: true });
    const outbound = async (msisdn: string): Promise<number> => {
      const res = await fetch(`${sandboxUrl}/sandbox/outbound?recipient=${msisdn}`);
      return ((await res.json()) as unknown[]).length;
    };

    it('picks Friends::Team as one chip, counts its reach, sends it as a book, History shows it', async () => {
      await page.keyboard.press('Control+n');
      // The account's books are offered as the field's suggestions.
      const suggestion = page.locator('#recipient-suggestions option[value="Friends::Team"]');
      await suggestion.waitFor({ state: 'attached', timeout: 15_000 });
      expect(await suggestion.getAttribute('label')).toBeNull();
      expect(await suggestion.textContent()).toBe('Server book, reaches 2');
      await entry().fill('Friends::Team');
      await entry().press('Enter');
      const chip = page.getByRole('listitem').filter({ hasText: 'Friends::Team' });
      expect(await chip.textContent()).toMatch(/Server book\s*Friends::Team\s*reaches 2/);
      await entry().fill('+44 7700 900201');
      await entry().press('Enter');
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Team meeting at 10');
      // The estimate counts the book's members: 1 number + 2 members.
      await page.getByText('≈ 3 message credits').waitFor();
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page
        .getByTestId('send-outcome')
        .filter({ hasText: /^All 3 recipients (accepted|delivered)/ })
        .waitFor({ timeout: 20_000 });
      // The members got it through the book (Alice and Bob are Team; Carol is not).
      await expect.poll(() => outbound('447700900101'), { timeout: 15_000 }).toBe(1);
      expect(await outbound('447700900102')).toBe(1);
      expect(await outbound('447700900103')).toBe(0);
      const jobs = await page.evaluate(() => window.messenger!.outbox.jobs());
      expect(jobs[0]).toMatchObject({ recipientCount: 1, extraReach: 2 });

      await page.getByRole('button', { name: 'History' }).click();
      const job = page.getByRole('listitem').filter({ hasText: 'Team meeting at 10' }).first();
      await job.getByText('+ 2 through server books or Cc/Bcc').waitFor();
      await job.getByRole('button', { name: /Team meeting at 10/ }).click();
      const books = job.getByRole('list', { name: 'Server books and Cc/Bcc' });
      await books.waitFor();
      await expect
        .poll(async () => books.textContent(), { timeout: 15_000 })
        .toMatch(/Server book Friends::Team.*reaches 2 recipients.*answered for 2: 2 accepted/);
      expect(await books.locator('[data-status="accepted"]').count()).toBe(1);
      // Nothing failed: no Resend to failed offered.
      expect(await job.getByRole('button', { name: /Resend to failed/ }).count()).toBe(0);
      await shoot(page, 'history-books');
      // Edit and send again: the book comes back as a book chip, never as its members' numbers.
      await job.getByRole('button', { name: 'Edit and send again' }).click();
      const chips = page.getByRole('list', { name: 'Recipients' });
      await chips.getByText('Friends::Team').waitFor();
      // The chip learns its reach when the account's books arrive (read once per form; later on a
      // busy machine): waited for, not read once (issue 25).
      await expect
        .poll(() => chips.textContent(), { timeout: 15_000 })
        .toMatch(/Server book\s*Friends::Team\s*reaches 2/);
      expect(await chips.textContent()).not.toContain('447700900101');
      expect(await chips.getByRole('listitem').count()).toBe(2);
    });

    it('Compose with a book chip and Cc/Bcc open (720×480), kept in the draft', async () => {
      await page.setViewportSize({ width: 720, height: 480 });
      await page.keyboard.press('Control+n');
      await page.locator('#recipient-suggestions option[value="Friends"]').waitFor({ state: 'attached' });
      await entry().fill('Friends');
      await entry().press('Enter');
      await page.getByRole('listitem').filter({ hasText: 'reaches 3' }).waitFor();
      await page.getByLabel('Content', { exact: true }).selectOption({ label: 'vCard (contact)' });
      // Cc/Bcc is offered for a rich send only (spec 2.4).
      await page.getByRole('button', { name: 'Cc/Bcc' }).click();
      await page.getByLabel('Cc address book', { exact: true }).fill('Friends::Team');
      await page.getByLabel('Bcc numbers', { exact: true }).fill('447700900201');
      await page
        .getByTestId('copies-reach')
        .getByText('reaches 3 recipients, with the first request only')
        .waitFor();
      await expect
        .poll(async () => (await page.evaluate(() => window.messenger!.drafts.get()))?.copies, {
          timeout: 5_000,
        })
        .toEqual({ cc: '', bcc: '447700900201', ccAddressBook: 'Friends::Team', bccAddressBook: '' });
      const draft = await page.evaluate(() => window.messenger!.drafts.get());
      expect(draft?.addressBooks).toEqual(['Friends']);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      // 480 px show either the chip or the Cc/Bcc: one screenshot each.
      await page.locator('#compose-title').evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await shoot(page, 'compose-books-chip');
      await page
        .getByRole('button', { name: 'Cc/Bcc' })
        .evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await shoot(page, 'compose-books-copies');
      await page.setViewportSize({ width: 1024, height: 720 });
      // Away and back: the draft brings the book chip (with its reach) and the Cc/Bcc back.
      await page.getByRole('button', { name: 'History' }).click();
      await page.getByRole('button', { name: 'Compose', exact: true }).click();
      await page.getByTestId('draft-restored').waitFor();
      await page.getByRole('listitem').filter({ hasText: 'Friends' }).getByText('reaches 3').waitFor();
      expect(await page.getByLabel('Cc address book', { exact: true }).inputValue()).toBe('Friends::Team');
      expect(await page.getByLabel('Bcc numbers', { exact: true }).inputValue()).toBe('447700900201');
      expect(app.pageErrors).toEqual([]);
    });

    it('a local group named like a server book stays the local group', async () => {
      await page.getByRole('button', { name: 'Discard draft' }).click();
      const group = await page.evaluate(() => window.messenger!.groups.create('friends'));
      // Compose reads the groups when it opens.
      await page.getByRole('button', { name: 'History' }).click();
      await page.getByRole('button', { name: 'Compose', exact: true }).click();
      // (its suggestions list the group once the read is done: a busy machine may take a while)
      await page.locator('#recipient-suggestions option[value="friends"]').waitFor({ state: 'attached' });
      await entry().fill('Friends');
      await entry().press('Enter');
      const chips = page.getByRole('list', { name: 'Recipients' });
      await chips.getByRole('listitem').first().waitFor();
      expect(await chips.getByRole('listitem').count()).toBe(1);
      expect(await chips.getByRole('listitem').first().textContent()).toMatch(/^friends \(0\)/);
      await expect
        .poll(async () => (await page.evaluate(() => window.messenger!.drafts.get()))?.groupIds, {
          timeout: 5_000,
        })
        .toEqual([group.id]);
    });
  },
);
