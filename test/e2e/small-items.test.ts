// End to end (issue 26 item 6, the small items): a 17-digit entry is "too long: 17 digits"; the
// child-account form names its fields by their labels; History's Failed filter and badge follow
// the latest attempt (a campaign resent successfully after a top-up is no longer failed); the
// virtual phone's handset list stays beside the phone frame at 720 and 1280 px; CSV exports with
// a UTF-8 byte-order mark once the setting is on, report codes as numbers. Screenshots at 1280×800
// and 720×480, light and dark.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, ROOT, shoot, startApp, type E2eApp } from './support.ts';

const SIZES = [
  [1280, 800],
  [720, 480],
] as const;

describe.skipIf(!HAS_CHROMIUM)('issue 26: the small items', { timeout: 120_000 }, () => {
  let app: E2eApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp('messenger-e2e-small-', { viewport: { width: 1280, height: 800 } });
    page = app.page;
    await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
  }, 180_000);
  afterAll(() => app?.close());

  /** Screenshots at both sizes; the page is left at 1280×800. */
  const shootBoth = async (name: string) => {
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await shoot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  };
  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

  it('keeps the handset list beside the phone frame, at 1280 and at 720 px', async () => {
    await page.evaluate(async () => {
      const m = window.messenger!;
      await m.contacts.add({ name: 'Maximiliane Featherstonehaugh-Cholmondeley', number: '+447700900711' });
      await m.send.submit({
        recipients: ['+447700900711', '+447700900712', '+447700900713'],
        content: { kind: 'text', text: 'Handset list check' },
      });
    });
    await nav('Virtual phone');
    const list = page.getByRole('list', { name: 'Handsets' });
    await expect.poll(() => list.getByRole('listitem').count(), { timeout: 20_000 }).toBe(3);
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      const frame = page.locator('section.handset');
      await frame.waitFor();
      // The list's box stays clear of the phone's, and everything in the list stays within its width.
      // Polled: the sidebar folds and the grid reflows a frame or two after the resize.
      const overlapNow = () =>
        page.evaluate(() => {
          const f = document.querySelector('section.handset')!.getBoundingClientRect();
          const l = document.querySelector('.handsets')!.getBoundingClientRect();
          const apart = l.right <= f.left + 0.5 || l.bottom <= f.top + 0.5;
          const inside = [
            ...document.querySelectorAll('.handsets .handset-item, .handsets .handset-item *'),
          ].every((el) => el.getBoundingClientRect().right <= l.right + 0.5);
          return !(apart && inside);
        });
      await expect
        .poll(overlapNow)
        .toBe(false)
        .catch(() => undefined);
      const overlap = await overlapNow();
      if (overlap) await shoot(page, `small-phone-overlap-${width}`);
      expect(overlap, `list under the phone at ${width} px`).toBe(false);
      // Nothing spills sideways either.
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1,
        ),
      ).toBe(true);
    }
    await shootBoth('small-phone');
  });

  it('says a 17-digit entry is too long with its 17 digits', async () => {
    await page.keyboard.press('Control+n');
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    await entry.fill('28345678901234567');
    await entry.press('Enter');
    const chip = page.getByRole('list', { name: 'Recipients' }).getByRole('listitem').first();
    await expect.poll(() => chip.textContent()).toContain('too long: 17 digits, at most 15');
    await shootBoth('small-17-digits');
  });

  it('names the child-account form fields by their labels in its errors', async () => {
    await page.evaluate(() => window.messenger!.settings.update({ childAccounts: true }));
    await page.reload();
    await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
    await nav('Accounts');
    const form = page.getByRole('form', { name: 'Create a child account' });
    await form.getByRole('button', { name: 'Create child account' }).click();
    await form.getByRole('alert').waitFor();
    const problems = await form.locator('.error.small').allTextContents();
    expect(problems).toContain('E-mail is required');
    expect(problems.join(' ')).not.toMatch(/CreateChildAccount/);
    await shootBoth('small-child-form');
  });

  it("History's Failed filter and badge follow the latest attempt", async () => {
    // Beyond the credit the gateway refuses recipients (out of credit); after a top-up a resend
    // reaches them, and the first send is no longer failed.
    const count = 320;
    const numbers = Array.from({ length: count }, (_, i) => `4479112${String(i).padStart(5, '0')}`);
    const job = await page.evaluate(
      (r) =>
        window.messenger!.send.submit({ recipients: r, content: { kind: 'text', text: 'Big campaign' } }),
      numbers,
    );
    const jobOf = () => page.evaluate((id) => window.messenger!.outbox.job(id), job.job.id);
    await expect
      .poll(
        async () => {
          const c = (await jobOf())!.counts;
          return c.pending + c.sending;
        },
        { timeout: 60_000 },
      )
      .toBe(0);
    const refused = (await jobOf())!.counts.rejected;
    expect(refused).toBeGreaterThan(0);
    await nav('History');
    const item = page
      .locator('.job')
      .filter({ hasText: 'Big campaign' })
      .filter({ hasText: '320 recipients' });
    await expect
      .poll(() => item.locator('.pill.failed').textContent({ timeout: 20_000 }), { timeout: 20_000 })
      .toBe(`${refused} failed`);
    await page.getByLabel('Show').selectOption('failed');
    await item.waitFor();

    // The sandbox account topped up the way its administrator would (gateway/cli.ts), then resent.
    const username = await page.evaluate(async () => (await window.messenger!.accounts.current())!.username);
    execFileSync(
      join(ROOT, 'node_modules/.bin/node'),
      [
        'gateway/cli.ts',
        'account',
        'top-up',
        '--data',
        join(app.tmp, 'data', 'sandbox-gateway'),
        '--username',
        username,
        '--credit',
        '50.00',
      ],
      { cwd: ROOT },
    );
    const resend = await page.evaluate((id) => window.messenger!.campaigns.resendFailed(id), job.job.id);
    await expect
      .poll(
        async () => {
          const r = await page.evaluate((id) => window.messenger!.outbox.job(id), resend.job.id);
          return r ? r.counts.pending + r.counts.sending + r.counts.rejected + r.counts.failed : -1;
        },
        { timeout: 60_000 },
      )
      .toBe(0);
    await page.getByLabel('Show').selectOption('all');
    await page.getByLabel('Show').selectOption('failed');
    await page.getByText('No sends.').waitFor();
    await page.getByLabel('Show').selectOption('all');
    await item.waitFor();
    expect(await item.locator('.pill.failed').count()).toBe(0);
    const resent = page.locator('.job').filter({ hasText: `resend of #${job.job.id}` });
    expect(await resent.locator('.pill.failed').count()).toBe(0);
    await shootBoth('small-history-latest');
  });

  it('exports CSV with a byte-order mark once the setting is on, report codes as numbers', async () => {
    await nav('Account');
    await page.getByLabel(/CSV exports for spreadsheet programs/).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(() => page.evaluate(async () => (await window.messenger!.settings.get()).csvBom))
      .toBe(true);
    await shootBoth('small-csv-setting');
    await page.evaluate(async () => {
      await window.messenger!.send.submit({
        recipients: ['+447700900791'],
        content: { kind: 'text', text: 'Zoë’s café' },
      });
    });
    await nav('Inbox');
    await page.getByRole('list', { name: 'Conversations' }).getByText('+447700900791').click();
    const thread = page.getByRole('region', { name: /Conversation with/ });
    await thread.locator('.bubble.out [data-status]').filter({ hasNotText: 'pending' }).first().waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      thread.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const bytes = readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).split('\r\n');
    expect(lines[0]).toBe('Time (UTC),Direction,From,To,Text,Status,Report,MessageIdentifier');
    // The gateway accepted it with report -3: a number in the spreadsheet, not the text '-3.
    expect(lines[1]).toContain('Zoë’s café');
    expect(lines[1]).toContain(',-3,');
  });
});
