// End to end (issue 13): reading and answering replies in the web shell with the local sandbox.
// Replies are played through the sandbox gateway's POST /sandbox/inbound. Replying (Enter sends,
// Shift+Enter new line, trailing whitespace never sent, focus kept), the list (newest activity first,
// the selected row stays put, unread filter, mark all read, archive), search as you type (own panel,
// keyboard, contact → conversation, add an unknown sender), the unread count in the title, a
// browser notification whose click opens the conversation, export (all, date range, search), and
// the default country picked from a list.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import { DEMO_NUMBER } from '../../gateway/demo.ts';
import { HAS_CHROMIUM, shoot, startApp, type E2eApp } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)('inbox end to end (issue 13)', { timeout: 90_000 }, () => {
  let app: E2eApp;
  let page: Page;
  let gateway: string;

  beforeAll(async () => {
    app = await startApp('messenger-e2e-inbox-', { viewport: { width: 1280, height: 800 } });
    page = app.page;
    await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
    gateway = await page.evaluate(async () => (await window.messenger!.accounts.current())!.primaryUrl);
  }, 180_000);
  afterAll(() => app?.close());

  /** A reply from a phone, stored by a poll (pollNow, so the test does not wait for the timer). */
  const inbound = async (from: string, text: string) => {
    const res = await fetch(new URL('/sandbox/inbound', gateway), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: new URLSearchParams({ SendTo: DEMO_NUMBER, ReplyTo: from, Message: text }).toString(),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await page.evaluate(() => window.messenger!.inbox.pollNow());
  };
  const list = () => page.getByRole('list', { name: 'Conversations' });
  const rowNames = () => list().locator('.conv-name').allTextContents();
  const csvOf = async (d: Download) => readFileSync((await d.path())!, 'utf8');

  it('replies: Enter sends without a trailing newline, Shift+Enter makes a new line, focus stays', async () => {
    await page.evaluate(() => window.messenger!.contacts.add({ name: 'Bea Brook', number: '+447700900201' }));
    await inbound('447700900201', 'Hello from Bea');
    await page.getByRole('button', { name: /^Inbox/ }).click();
    await list().getByText('Bea Brook').click();
    const thread = page.getByRole('region', { name: /Conversation with Bea Brook/ });
    await thread.getByText('Hello from Bea').waitFor();
    await thread.getByText('Enter to send · Shift+Enter for a new line').waitFor();
    const box = thread.getByRole('textbox', { name: 'Reply' });
    await box.click();
    await page.keyboard.type('Line one');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('line two   ');
    expect(await box.inputValue()).toBe('Line one\nline two   ');
    await page.keyboard.press('Enter');
    await thread.locator('.bubble.out', { hasText: 'line two' }).waitFor();
    expect(await box.inputValue()).toBe('');
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    const sent = await page.evaluate(async () => {
      const h = await window.messenger!.history.messages({ limit: 5 });
      return h.items.map((m) => m.text);
    });
    expect(sent[0]).toBe('Line one\nline two');
  });

  it('lists by newest activity: reading does not move a row; unread filter, mark all read, archive', async () => {
    await inbound('447700900202', 'First from 202');
    await inbound('447700900203', 'First from 203');
    await list().getByText('+447700900203').waitFor();
    expect((await rowNames()).slice(0, 3)).toEqual(['+447700900203', '+447700900202', 'Bea Brook']);
    // Opening (and so reading) the second row leaves the order as it was.
    await list().getByText('+447700900202').click();
    await page
      .getByRole('region', { name: /Conversation with 447700900202/ })
      .getByText('First from 202')
      .waitFor();
    await expect.poll(async () => await list().locator('.conv.unread').count()).toBe(1);
    expect((await rowNames()).slice(0, 3)).toEqual(['+447700900203', '+447700900202', 'Bea Brook']);
    expect(await list().locator('.conv.selected .conv-name').textContent()).toBe('+447700900202');

    await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Unread' }).click();
    await expect.poll(rowNames).toEqual(['+447700900203']);
    await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'All' }).click();
    await page.getByLabel('More inbox actions').click();
    await page.getByRole('menuitem', { name: 'Mark all read' }).click();
    await expect.poll(async () => list().locator('.conv.unread').count()).toBe(0);
    await expect.poll(() => page.title()).toBe('Messenger');

    // Archive 202: it leaves the list, shows under Archived, and a new reply brings it back.
    await list().getByText('+447700900202').click();
    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await expect.poll(async () => (await rowNames()).includes('+447700900202')).toBe(false);
    await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Archived' }).click();
    await expect.poll(rowNames).toEqual(['+447700900202']);
    await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'All' }).click();
    await inbound('447700900202', 'Back again');
    await expect.poll(async () => (await rowNames())[0]).toBe('+447700900202');
    await shoot(page, 'inbox-list-1280');
  });

  it('shows the unread count in the title', async () => {
    await inbound('447700900204', 'Count me');
    await expect.poll(() => page.title()).toMatch(/^\(\d+\) Messenger$/);
    const total = await page.evaluate(() => window.messenger!.inbox.unreadTotal());
    expect(await page.title()).toBe(`(${total}) Messenger`);
  });

  it('searches as you type in its own panel, by keyboard; a contact opens its conversation; adds a sender', async () => {
    const search = page.getByRole('searchbox', { name: 'Search messages and contacts' });
    await search.fill('bea');
    // No Enter: the results come as one types.
    const results = page.getByTestId('search-results');
    await results.locator('mark', { hasText: /bea/i }).first().waitFor();
    // The panel stays in the list column, beside the thread pane.
    const panel = (await results.boundingBox())!;
    const pane = (await page.locator('.thread-pane').boundingBox())!;
    expect(panel.x + panel.width).toBeLessThanOrEqual(pane.x);
    await shoot(page, 'inbox-search-typing');
    await search.press('ArrowDown');
    const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    expect(focused).toContain('Bea Brook');
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: /Conversation with Bea Brook/ }).waitFor();

    // A contact with no conversation yet: its (empty) conversation opens, not Compose.
    await page.evaluate(() => window.messenger!.contacts.add({ name: 'Cy Quiet', number: '+447700900299' }));
    await search.fill('cy qui');
    await results.getByRole('button', { name: /Cy Quiet/ }).click();
    const cy = page.getByRole('region', { name: /Conversation with Cy Quiet/ });
    await cy.getByText('No messages yet.').waitFor();
    expect(await page.getByRole('heading', { name: 'Compose' }).count()).toBe(0);

    // Escape clears the search; the unknown sender 204 can be added to contacts from the thread.
    await search.fill('');
    await list().getByText('+447700900204').click();
    await page.getByRole('button', { name: 'Add to contacts' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Dee Dorn');
    await page.getByRole('dialog').getByRole('button', { name: 'Add contact' }).click();
    await page.getByRole('region', { name: /Conversation with Dee Dorn/ }).waitFor();
    await expect.poll(async () => (await rowNames()).includes('Dee Dorn')).toBe(true);
  });

  it('exports the whole inbox, a date range and a search result as CSV', async () => {
    await page.getByLabel('More inbox actions').click();
    await page.getByRole('menuitem', { name: 'Export messages…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export messages' });
    const [all] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = await csvOf(all);
    expect(csv.split('\r\n')[0]).toBe('Time (UTC),Direction,From,To,Text,Status,Report,MessageIdentifier');
    for (const t of ['Hello from Bea', 'First from 203', 'Back again', 'Count me']) expect(csv).toContain(t);

    // A range that ended yesterday holds nothing but the header.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('More inbox actions').click();
    await page.getByRole('menuitem', { name: 'Export messages…' }).click();
    await dialog.getByLabel('To (inclusive)').fill(yesterday);
    const [range] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect((await csvOf(range)).trimEnd().split('\r\n')).toHaveLength(1);

    await page.getByRole('searchbox', { name: 'Search messages and contacts' }).fill('first from');
    const results = page.getByTestId('search-results');
    await results.getByText(/2 messages,/).waitFor();
    const [found] = await Promise.all([
      page.waitForEvent('download'),
      results.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const lines = (await csvOf(found)).trimEnd().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).every((l) => l.includes('First from'))).toBe(true);
    await page.getByRole('searchbox', { name: 'Search messages and contacts' }).fill('');
  });

  it('notifies in the background once permitted; the click opens the conversation', async () => {
    await app.context.grantPermissions(['notifications']);
    // Record each notification the page creates (the browser's own Notification still shows it).
    await page.evaluate(() => {
      const Real = window.Notification;
      const shown: Notification[] = [];
      (window as unknown as { shown: Notification[] }).shown = shown;
      window.Notification = class extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          shown.push(this);
        }
      } as typeof Notification;
    });
    const shownTitles = () =>
      page.evaluate(() => (window as unknown as { shown: Notification[] }).shown.map((n) => n.title));
    // In front and focused: no notification (the user sees the reply).
    await inbound('447700900206', 'Seen in front');
    await list().getByText('+447700900206').waitFor();
    expect(await shownTitles()).toEqual([]);
    // The tab loses focus (Playwright otherwise keeps every page focused).
    const cdp = await app.context.newCDPSession(page);
    await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
    const other = await app.context.newPage();
    await other.bringToFront();
    await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(false);
    await inbound('447700900205', 'Ping from 205');
    await expect.poll(shownTitles).toEqual(['New message from +447700900205']);
    await other.close();
    await page.bringToFront();
    await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true });
    await page.evaluate(() =>
      (window as unknown as { shown: Notification[] }).shown[0]!.onclick?.(new Event('click')),
    );
    await page
      .getByRole('region', { name: /Conversation with 447700900205/ })
      .getByText('Ping from 205')
      .waitFor();
  });

  it('picks the default country from a list: "Germany" is DE, and the saved value is shown', async () => {
    await page.getByRole('button', { name: 'Account', exact: true }).click();
    await page.getByLabel('Find a country').fill('Germany');
    await page.getByLabel('Default country').selectOption('DE');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved: default country Germany (DE, +49).').waitFor();
    expect(await page.getByTestId('country-chosen').textContent()).toBe('Chosen: Germany (DE, +49)');
    expect(await page.evaluate(async () => (await window.messenger!.settings.get()).defaultCountry)).toBe(
      'DE',
    );
    // Typing "+995" finds Georgia by its calling code; Enter picks it (no free-typed code).
    await page.getByLabel('Find a country').fill('+995');
    await page.getByLabel('Find a country').press('Enter');
    expect(await page.getByTestId('country-chosen').textContent()).toBe('Chosen: Georgia (GE, +995)');
    await shoot(page, 'account-country');
    expect(app.pageErrors).toEqual([]);
  });
});
