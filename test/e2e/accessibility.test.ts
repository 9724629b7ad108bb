// End to end (issue 26 item 5): axe-core finds no serious or critical violation on any main view
// (Compose, Inbox with a conversation open, Contacts, History, Opt-outs & auto-replies, Account,
// child accounts, the virtual phone, a dialog, the sign-in screen), in light and in dark; every
// focusable element shows a visible focus ring. Screenshots at 1280×800 and 720×480.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_NUMBER } from '../../gateway/demo.ts';
import { focusWithoutRing, violationsBothSchemes } from './axe.ts';
import { HAS_CHROMIUM, shoot, startApp, type E2eApp } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)('accessibility: axe on every view (issue 26)', { timeout: 120_000 }, () => {
  let app: E2eApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp('messenger-e2e-a11y-', { viewport: { width: 1280, height: 800 } });
    page = app.page;
    await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
    const gateway = await page.evaluate(async () => (await window.messenger!.accounts.current())!.primaryUrl);
    await page.evaluate(async () => {
      const m = window.messenger!;
      await m.settings.update({ childAccounts: true });
      await m.contacts.add({ name: 'Ada Lovelace', number: '+447700900301', email: 'ada@example.com' });
      await m.contacts.add({ name: 'Bob Babbage', number: '+447700900302' });
      await m.autoreplies.create({ keyword: 'HOURS', reply: 'Open 9 to 5.' });
      await m.send.submit({ recipients: ['+447700900301'], content: { kind: 'text', text: 'Hello Ada' } });
      await m.send.submit({
        recipients: ['+447700900301', '+447700900302', '+447700900000'],
        content: { kind: 'text', text: 'Spring sale' },
      });
    });
    for (const text of ['Thanks!', 'HOURS please']) {
      const res = await fetch(new URL('/sandbox/inbound', gateway), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body: new URLSearchParams({ SendTo: DEMO_NUMBER, ReplyTo: '447700900301', Message: text }).toString(),
      });
      expect(res.status).toBe(200);
    }
    await page.evaluate(() => window.messenger!.inbox.pollNow());
    await page.reload();
    await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
  }, 180_000);
  afterAll(() => app?.close());

  const nav = (name: string) =>
    page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', name === 'Inbox' ? { name: /^Inbox/ } : { name, exact: true })
      .click();

  const views: Array<[string, () => Promise<void>]> = [
    [
      'compose',
      async () => {
        await nav('Compose');
        const entry = page.getByRole('combobox', { name: 'To', exact: true });
        await entry.fill('+447700900302');
        await entry.press('Enter');
        await entry.fill('12');
        await entry.press('Enter');
        await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Hello there');
      },
    ],
    [
      'inbox',
      async () => {
        await nav('Inbox');
        await page.getByRole('list', { name: 'Conversations' }).getByText('Ada Lovelace').click();
        await page.locator('.auto-badge').first().waitFor({ timeout: 20_000 });
      },
    ],
    [
      'search',
      async () => {
        await nav('Inbox');
        await page.getByRole('searchbox', { name: 'Search messages and contacts' }).fill('ada');
        await page.getByTestId('search-results').waitFor();
      },
    ],
    [
      'compose-ringtone',
      async () => {
        await page.keyboard.press('Control+n');
        await page.getByLabel('Content', { exact: true }).selectOption({ label: 'Ringtone' });
        await page.getByRole('textbox', { name: 'RTTTL / RTX' }).waitFor();
      },
    ],
    ['contacts', () => nav('Contacts & groups')],
    [
      'history',
      async () => {
        await nav('History');
        await page.locator('.job', { hasText: 'Spring sale' }).getByRole('button').first().click();
        await page.locator('.job tbody tr').first().waitFor();
      },
    ],
    [
      'campaign',
      async () => {
        await nav('History');
        const job = page.locator('.job', { hasText: 'Spring sale' });
        if ((await job.getByRole('button', { name: 'Open campaign' }).count()) === 0)
          await job.getByRole('button').first().click();
        await job.getByRole('button', { name: 'Open campaign' }).click();
        await page.getByRole('heading', { name: 'Campaign: Spring sale' }).waitFor();
      },
    ],
    ['automation', () => nav('Opt-outs & auto-replies')],
    ['account', () => nav('Account')],
    ['children', () => nav('Accounts')],
    [
      'phone',
      async () => {
        await nav('Virtual phone');
        await page.locator('section.handset').waitFor({ timeout: 20_000 });
      },
    ],
    [
      'dialog',
      async () => {
        await nav('Inbox');
        await page.getByRole('list', { name: 'Conversations' }).getByText('Ada Lovelace').click();
        await page.getByRole('button', { name: 'Delete', exact: true }).click();
        await page.getByRole('dialog').waitFor();
      },
    ],
  ];

  for (const [name, open] of views) {
    it(`${name}: no serious or critical axe violation, light and dark`, async () => {
      await open();
      const found = await violationsBothSchemes(page);
      for (const [width, height] of [
        [1280, 800],
        [720, 480],
      ] as const) {
        await page.setViewportSize({ width, height });
        await shoot(page, `a11y-${name}-${width}`);
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      // Visible focus: every element Tab reaches shows its ring.
      const bare = await focusWithoutRing(page, name === 'dialog' ? 6 : 40);
      if (name === 'dialog') await page.keyboard.press('Escape');
      expect(found, found.join('\n')).toEqual([]);
      expect(bare).toEqual([]);
    });
  }
});
