// End to end, issue 28: two desks side by side (two web shells with --office on one real
// PostgreSQL, Debian's Chromium on each) signed in to one account of a reference gateway. A reply
// collected by whichever desk collects shows in both Inboxes; a contact added at one desk shows in
// the other's Contacts and Compose suggestions; a send from desk A shows in desk B's History and
// campaign view with desk A's name, read-only, and a send from desk A to a new number lists its
// conversation in desk B's Inbox as it comes; the office database stopped, both
// show the office banner; started again, the banner goes; a change the office database refuses, the
// desk says so (its own banner) until it is taken. Screenshots in test-results/ (light and
// dark, 1280x800 and 720x480).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_NUMBER } from '../../gateway/demo.ts';
import { queueReplies, serverBook, startTestGateway, type TestGateway } from '../support/gateway.ts';
import { havePostgres, startTestPostgres, type TestPostgres } from '../support/office-db.ts';
import {
  HAS_CHROMIUM,
  openBrowser,
  shoot,
  SHOTS,
  startShell,
  stopShell,
  type AppBrowser,
  type Shell,
} from './support.ts';

const cleanups: Array<() => Promise<void>> = [];

async function shots(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const size of [
    { width: 1280, height: 800 },
    { width: 720, height: 480 },
  ]) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SHOTS, `${name}-${size.width}-${scheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await shoot(page, name);
}

describe.skipIf(!HAS_CHROMIUM || !havePostgres())(
  'office mode, two desks side by side',
  { timeout: 120_000 },
  () => {
    let tmp: string;
    let server: TestPostgres;
    let gw: TestGateway;
    const desks: Array<{ shell: Shell; browser: AppBrowser }> = [];

    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'messenger-e2e-office-'));
      server = await startTestPostgres(cleanups);
      gw = await startTestGateway({ receiptDelayMs: 100 });
      // waiting at the gateway before any desk signs in: the first to take the lease collects them
      queueReplies(gw, DEMO_NUMBER, 3);
      for (const name of ['a', 'b']) {
        const shell = await startShell(join(tmp, `data-${name}`), {
          sandbox: false,
          args: ['--office', server.url],
          env: { MESSENGER_OFFICE_PASSWORD: server.password },
        });
        const browser = await openBrowser(join(tmp, `profile-${name}`), {
          viewport: { width: 1280, height: 800 },
        });
        desks.push({ shell, browser });
        await browser.page.goto(shell.url);
        await browser.page.getByRole('form', { name: 'Sign in to a gateway' }).waitFor({ timeout: 60_000 });
        await browser.page.evaluate((req) => window.messenger!.accounts.signIn(req).then(() => undefined), {
          username: gw.username,
          pin: gw.pin,
          primaryUrl: gw.url,
          rememberPin: false,
        });
      }
    }, 240_000);

    afterAll(async () => {
      for (const d of desks) {
        if (d.browser.pageErrors.length) console.error('page errors:', d.browser.pageErrors);
        await d.browser.context.close();
        await stopShell(d.shell);
      }
      await gw?.close();
      while (cleanups.length > 0) await cleanups.pop()?.();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    it('shows each reply on both desks, once', async () => {
      for (const [i, { browser }] of desks.entries()) {
        const nav = browser.page.getByRole('navigation', { name: 'Main' });
        await nav.getByRole('button', { name: /Inbox/ }).click();
        await browser.page.getByText('reply 2').first().waitFor({ timeout: 30_000 });
        for (const n of [0, 1, 2])
          expect(await browser.page.getByText(`reply ${n}`, { exact: true }).count()).toBe(1);
        await shots(browser.page, `office-inbox-desk-${i === 0 ? 'a' : 'b'}`);
      }
      // The Account view says which desk collects; the URL given on the command line is read-only there.
      const roles: string[] = [];
      for (const [i, { browser }] of desks.entries()) {
        await browser.page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('button', { name: 'Account' })
          .click();
        const card = browser.page.getByRole('form', { name: 'Office database' });
        await card
          .getByTestId('office-state')
          .filter({ hasText: 'Connected to' })
          .waitFor({ timeout: 30_000 });
        roles.push((await card.getByTestId('office-state').textContent()) ?? '');
        expect(await card.getByLabel(/^URL/).getAttribute('readonly')).not.toBeNull();
        expect(await card.getByText('given on the command line (--office)').count()).toBe(1);
        await card.scrollIntoViewIfNeeded();
        await shots(browser.page, `office-account-desk-${i === 0 ? 'a' : 'b'}`);
      }
      expect(roles.filter((r) => r.includes('collects the replies')).length).toBe(1);
      expect(roles.filter((r) => r.includes('receives the replies another desk collects')).length).toBe(1);
      const status = await desks[0]!.browser.page.evaluate(() => window.messenger!.office.status());
      expect(status).toMatchObject({ enabled: true, connected: true, url: server.url });
      for (const d of desks) expect(d.browser.pageErrors).toEqual([]);
    });

    it('a contact added at desk A shows in desk B’s Contacts (as it is added) and in B’s Compose suggestions', async () => {
      const [a, b] = desks.map((d) => d.browser.page) as [Page, Page];
      for (const page of [a, b])
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('button', { name: /Contacts/ })
          .click();
      for (const page of [a, b])
        expect(await page.getByTestId('account-scope').textContent()).toBe(
          'Contacts and groups: shared by every desk of the office (and every account signed in on them).',
        );
      await a.getByRole('button', { name: 'Add contact' }).click();
      const form = a.getByRole('form', { name: 'Add contact' });
      await form.getByLabel('Name').fill('Olive Office');
      await form.getByLabel('Number').fill('+44 7700 900555');
      await form.getByRole('button', { name: 'Save' }).click();
      // desk B's open Contacts view follows without being reloaded
      await b.getByText('Olive Office').first().waitFor({ timeout: 30_000 });
      await a.getByText('Olive Office').first().waitFor({ timeout: 30_000 });
      await shots(a, 'office-contacts-desk-a');
      await shots(b, 'office-contacts-desk-b');
      await b.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Compose' }).click();
      const suggestion = b.locator('#recipient-suggestions option[value="Olive Office"]');
      await suggestion.waitFor({ state: 'attached', timeout: 15_000 });
      expect(await suggestion.textContent()).toBe('+447700900555');
      // an auto-reply rule made at desk A: in desk B's open view, shared by the desks of the account
      await b
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: /auto-replies/ })
        .click();
      expect(await b.getByTestId('account-scope').textContent()).toMatch(
        /^Opt-outs and auto-replies of demo .*: shared by every desk of the office signed in to this account\.$/,
      );
      await a.evaluate(() =>
        window
          .messenger!.autoreplies.create({ keyword: 'HOURS', reply: 'Open 9 to 5' })
          .then(() => undefined),
      );
      await b.getByText('Open 9 to 5').first().waitFor({ timeout: 30_000 });
      await shots(b, 'office-autoreplies-desk-b');
      for (const d of desks) expect(d.browser.pageErrors).toEqual([]);
    });

    it("shows desk A's send in desk B's History and campaign view, with desk A's name, read-only", async () => {
      const [a, b] = [desks[0]!.browser.page, desks[1]!.browser.page];
      // Desk A is named in its Account view's Office card; desk B through the API.
      await a.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Account' }).click();
      const card = a.getByRole('form', { name: 'Office database' });
      await card.getByLabel(/This desk's name/).fill('Front desk');
      await card.getByRole('button', { name: 'Save name' }).click();
      await card.getByRole('button', { name: 'Save name' }).and(a.locator(':disabled')).waitFor();
      expect(await card.getByLabel(/This desk's name/).inputValue()).toBe('Front desk');
      await card.getByLabel(/This desk's name/).scrollIntoViewIfNeeded();
      await shots(a, 'office-account-name-desk-a');
      await b.evaluate(() => window.messenger!.office.rename({ name: 'Back office' }).then(() => undefined));
      const sent = await a.evaluate(() =>
        window.messenger!.send.submit({
          recipients: ['447700900701', '447700900702', '447700900703'],
          content: { kind: 'text', text: 'Spring sale at the front desk' },
        }),
      );
      expect(sent.job.id).toBeGreaterThan(0);

      await b
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: /History/ })
        .click();
      const job = b.locator('li.job', { hasText: 'Spring sale at the front desk' });
      await job
        .getByTestId('sent-by')
        .filter({ hasText: 'sent from Front desk' })
        .waitFor({ timeout: 30_000 });
      await job.locator('.pill').first().waitFor({ timeout: 30_000 });
      await job.getByRole('button', { name: /Spring sale/ }).click();
      await job.getByTestId('other-desk-note').waitFor();
      expect(await job.getByTestId('other-desk-note').textContent()).toContain('Front desk');
      expect(
        await job.getByRole('button', { name: /Continue sending|Cancel pending|Resend to failed/ }).count(),
      ).toBe(0);
      await job.getByText('447700900703').first().waitFor({ timeout: 30_000 });
      await shots(b, 'office-history-desk-b');
      await job.getByRole('button', { name: 'Open campaign' }).click();
      await b
        .getByTestId('campaign-recipients')
        .getByText('447700900701')
        .first()
        .waitFor({ timeout: 30_000 });
      expect(await b.getByTestId('other-desk-note').count()).toBe(1);
      expect(await b.getByRole('button', { name: /Resend to failed/ }).count()).toBe(0);
      await shots(b, 'office-campaign-desk-b');
      await b.getByRole('button', { name: '← History' }).click();

      // Desk A's own History names it as this desk's.
      await a
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: /History/ })
        .click();
      await a
        .locator('li.job', { hasText: 'Spring sale at the front desk' })
        .getByTestId('sent-by')
        .filter({ hasText: 'sent from this desk (Front desk)' })
        .waitFor({ timeout: 30_000 });
      await shots(a, 'office-history-desk-a');
      for (const d of desks) expect(d.browser.pageErrors).toEqual([]);
    });

    it("shows desk A's messages in desk B's conversation thread, and A's send to a server book in B's History", async () => {
      const [a, b] = [desks[0]!.browser.page, desks[1]!.browser.page];
      serverBook(gw, 'Club', ['447700900801', '447700900802']);
      // (desk A is "Front desk" since the test before; 447700100000 sent "reply 0")
      await a.evaluate(async () => {
        await window.messenger!.send.submit({
          recipients: ['447700100000'],
          content: { kind: 'text', text: 'Thanks, your order ships today' },
        });
        await window.messenger!.send.submit({
          recipients: [],
          addressBooks: ['Club'],
          content: { kind: 'text', text: 'Club night on Friday' },
        });
      });
      await b.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Inbox/ }).click();
      await b.locator('button.conv', { hasText: '+447700100000' }).click();
      const thread = b.getByRole('region', { name: /Conversation with/ });
      const bubble = thread.getByTestId('bubble').filter({ hasText: 'Thanks, your order ships today' });
      await bubble.waitFor({ timeout: 30_000 });
      expect(await bubble.textContent()).toContain('sent from Front desk');
      // in its order: after the reply it answers
      const texts = await thread.getByTestId('bubble').allTextContents();
      expect(texts.findIndex((t) => t.includes('reply 0'))).toBeLessThan(
        texts.findIndex((t) => t.includes('Thanks, your order ships today')),
      );
      await shots(b, 'office-thread-desk-b');

      await b
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: /History/ })
        .click();
      const job = b.locator('li.job', { hasText: 'Club night on Friday' });
      await job
        .getByTestId('sent-by')
        .filter({ hasText: 'sent from Front desk' })
        .waitFor({ timeout: 30_000 });
      await job.getByRole('button', { name: /Club night/ }).click();
      await job.getByText('Server book Club').waitFor({ timeout: 30_000 });
      await job.getByText(/the gateway answered for 2: 2 accepted/).waitFor({ timeout: 30_000 });
      await shots(b, 'office-history-book-desk-b');
      for (const d of desks) expect(d.browser.pageErrors).toEqual([]);
    });

    it("lists desk A's send to a new number in desk B's Inbox as it comes, with desk A's name", async () => {
      const [a, b] = [desks[0]!.browser.page, desks[1]!.browser.page];
      await b.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Inbox/ }).click();
      await b.locator('button.conv').first().waitFor({ timeout: 30_000 });
      // a number desk B has no conversation with: B's open list gains it (no reload)
      await a.evaluate(async () => {
        await window.messenger!.send.submit({
          recipients: ['447700100777'],
          content: { kind: 'text', text: 'Your table for four is booked' },
        });
      });
      const conv = b.locator('button.conv', { hasText: '+447700100777' });
      await conv.waitFor({ timeout: 30_000 });
      expect(await conv.textContent()).toContain('Sent from Front desk: Your table for four is booked');
      // the newest first
      expect(await b.locator('button.conv').first().textContent()).toContain('+447700100777');
      await shots(b, 'office-list-desk-b');
      await conv.click();
      const thread = b.getByRole('region', { name: /Conversation with/ });
      await thread
        .getByTestId('bubble')
        .filter({ hasText: 'Your table for four is booked' })
        .filter({ hasText: 'sent from Front desk' })
        .waitFor({ timeout: 30_000 });
      await shots(b, 'office-list-thread-desk-b');
      for (const d of desks) expect(d.browser.pageErrors).toEqual([]);
    });

    it('says so on both desks while the office database is away, and stops saying it when it is back', async () => {
      await server.stop('fast');
      for (const [i, { browser }] of desks.entries()) {
        const banner = browser.page.getByTestId('office-offline');
        await banner.waitFor({ timeout: 30_000 });
        expect(await banner.textContent()).toContain('The office database cannot be reached');
        expect(await banner.textContent()).toContain(server.url);
        expect(await banner.textContent()).not.toContain(server.password);
        await banner.scrollIntoViewIfNeeded();
        await shots(browser.page, `office-offline-desk-${i === 0 ? 'a' : 'b'}`);
      }
      await server.restart();
      for (const { browser } of desks)
        await browser.page.getByTestId('office-offline').waitFor({ state: 'detached', timeout: 60_000 });
    });

    it('says so at the desk whose changes the office database refuses, and stops when it takes them', async () => {
      // a refusal the desk cannot mend by reconnecting (as a permission or constraint error would be)
      await server.query(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'permission denied for table library (test)'; END $$`);
      await server.query(
        'CREATE TRIGGER refuse_library BEFORE INSERT OR UPDATE ON library FOR EACH ROW EXECUTE FUNCTION refuse()',
      );
      const [a, b] = desks.map((d) => d.browser.page) as [Page, Page];
      await a.evaluate(() =>
        window.messenger!.contacts.add({ name: 'Refused Rita', number: '+447700900777' }),
      );
      const banner = a.getByTestId('office-refused');
      await banner.waitFor({ timeout: 30_000 });
      expect(await banner.textContent()).toContain("The office database refuses this desk's changes");
      expect(await banner.textContent()).toContain('permission denied for table library (test)');
      expect(await banner.textContent()).toContain('1 change made here waits to be shared');
      expect(await b.getByTestId('office-refused').count()).toBe(0);
      await shots(a, 'office-refused-desk-a');
      await server.query('DROP TRIGGER refuse_library ON library');
      await banner.waitFor({ state: 'detached', timeout: 60_000 });
      expect(
        await b.evaluate(async () =>
          (await window.messenger!.contacts.list()).some((c) => c.name === 'Refused Rita'),
        ),
      ).toBe(true);
      for (const d of desks) expect(d.browser.pageErrors).toEqual([]);
    });
  },
);
