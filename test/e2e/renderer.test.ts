// End to end: the real web shell (`main/web.ts --sandbox`, a child process) and Debian's Chromium
// driven by playwright-core. The user's path through the app: sandbox signed in → credit shown;
// three contacts in a group, a send to the group with per-recipient results and the credit going
// down; a message from a phone (POST /sandbox/inbound) in the inbox within one poll with the unread
// badge; search; a delivery receipt turning the sent message "delivered"; an invalid number and an
// over-length text refused with clear errors and nothing sent. Screenshots land in test-results/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_NUMBER } from '../../gateway/demo.ts';
import { type E2eApp, HAS_CHROMIUM, pasteText, shoot as shootPage, SHOTS, startApp } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)('renderer end to end (web shell + Chromium)', { timeout: 60_000 }, () => {
  let app: E2eApp;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    app = await startApp('messenger-e2e-', {
      viewport: { width: 1280, height: 820 },
      timezoneId: 'Europe/Berlin',
    });
    ({ page, pageErrors } = app);
  }, 180_000);

  afterAll(() => app?.close());

  const shoot = (name: string) => shootPage(page, name);
  const creditValue = async () => Number(await page.getByTestId('credit-amount').textContent());
  const jobCount = () => page.evaluate(async () => (await window.messenger!.outbox.jobs()).length);

  it('starts signed in to the local sandbox with the credit shown', async () => {
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeDefined();
    await page.getByTestId('credit-amount').waitFor({ timeout: 20_000 });
    expect(await creditValue()).toBeGreaterThan(0);
    await expect(page.getByText('Local sandbox')).toBeDefined();
    // One poll every 5 s (the shortest allowed), so "within one poll" is quick to check.
    await page.evaluate(() => window.messenger!.settings.update({ pollIntervalSeconds: 5 }));
  });

  it('creates a group of three contacts and sends to it: per-recipient results, credit drops', async () => {
    const before = await creditValue();
    await page.getByRole('button', { name: 'Contacts & groups' }).click();
    const people = [
      ['Alice Archer', '+44 7700 900101'],
      ['Bob Baker', '07700 900102'],
      ['Carol Cooper', '447700900103'],
    ] as const;
    for (const [name, number] of people) {
      await page.getByRole('button', { name: 'Add contact' }).click();
      const form = page.getByRole('form', { name: 'Add contact' });
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('Number').fill(number);
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('cell', { name, exact: true }).waitFor();
    }
    // A duplicate number is flagged before it is saved.
    await page.getByRole('button', { name: 'Add contact' }).click();
    await page.getByRole('form', { name: 'Add contact' }).getByLabel('Number').fill('07700900101');
    await page.getByText('Duplicate: Alice Archer already has this number.').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();

    for (const [name] of people) await page.getByLabel(`Select ${name}`).check();
    await page.getByLabel('New group name').fill('Team');
    await page.getByRole('button', { name: 'Create with 3 selected' }).click();
    const group = page.getByRole('region', { name: 'Group Team' });
    await group.getByText('Carol Cooper').waitFor();
    await shoot('contacts');
    await group.getByRole('button', { name: 'Send to group' }).click();

    await page.getByRole('listitem').filter({ hasText: 'Team (3)' }).waitFor();
    await page
      .getByRole('textbox', { name: 'Message', exact: true })
      .fill('Team meeting moved to 3pm — see you there');
    await expect(await page.getByTestId('counter').textContent()).toContain('UCS-2'); // the em dash
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const rows = page.getByTestId('send-results').locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(3);
    for (const n of ['+447700900101', '+447700900102', '+447700900103'])
      await rows
        .filter({ hasText: n })
        .locator('[data-status="accepted"], [data-status="queued"], [data-status="delivered"]')
        .waitFor({ timeout: 20_000 });
    // The summary agrees with the rows, even when the send finished before submit() answered.
    await page
      .getByTestId('send-outcome')
      .filter({ hasText: /^All 3 recipients (accepted|delivered)/ })
      .waitFor({ timeout: 20_000 });
    await shoot('compose');
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh credit' }).click();
          return creditValue();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBeLessThan(before);
  });

  it('shows a message from a phone in the inbox within one poll, with the unread badge; search finds it', async () => {
    // The sandbox gateway's address is the signed-in account's primary URL.
    const gateway = await page.evaluate(async () => (await window.messenger!.accounts.current())!.primaryUrl);
    const number = DEMO_NUMBER; // the sandbox demo account's number, which the phone writes to
    const res = await fetch(new URL('/sandbox/inbound', gateway), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: new URLSearchParams({
        SendTo: number,
        ReplyTo: '447700900101',
        Message: 'Are we still on for the pelican briefing?',
      }).toString(),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const badge = page.getByTestId('unread-badge');
    await badge.waitFor({ timeout: 12_000 });
    expect(await badge.textContent()).toBe('1');

    await page.getByRole('button', { name: /^Inbox/ }).click();
    const list = page.getByRole('list', { name: 'Conversations' });
    await list.getByText('Alice Archer').waitFor();
    // Newest activity first: Alice's conversation is the first row.
    expect(await list.getByRole('listitem').first().textContent()).toContain('pelican');

    await page.getByRole('searchbox', { name: 'Search messages and contacts' }).fill('pelican');
    await page.keyboard.press('Enter');
    const results = page.getByTestId('search-results');
    await results.locator('mark', { hasText: /pelican/i }).waitFor();
    await shoot('inbox-search');
    await results.getByRole('button', { name: /Alice Archer/ }).click();
    const thread = page.getByRole('region', { name: /Conversation with Alice Archer/ });
    await thread.getByText('Are we still on for the pelican briefing?').waitFor();
    await badge.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('a delivery receipt turns the sent message "delivered"', async () => {
    const thread = page.getByRole('region', { name: /Conversation with Alice Archer/ });
    const out = thread.getByTestId('bubble').filter({ hasText: 'Team meeting moved' });
    await out.locator('[data-status="delivered"]').waitFor({ timeout: 20_000 });
    await shoot('inbox');
  });

  it('refuses an invalid number and an over-length text with clear errors, sending nothing', async () => {
    const jobsBefore = await jobCount();
    await page.keyboard.press('Control+n');
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    await entry.fill('12ab34');
    await entry.press('Enter');
    const chip = page
      .getByRole('list', { name: 'Recipients' })
      .getByRole('listitem')
      .filter({ hasText: '12ab34' });
    await chip.waitFor();
    expect(await chip.getAttribute('class')).toContain('invalid');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('x'.repeat(255 * 153 + 1));
    await page.getByText('Too long: 256 parts, at most 255 can be joined into one message.').waitFor();
    await page.getByRole('textbox', { name: 'Message', exact: true }).press('Control+Enter');
    const errors = page.getByTestId('compose-errors');
    await errors.waitFor();
    const text = (await errors.textContent()) ?? '';
    expect(text).toContain('Nothing was sent');
    expect(text).toContain('12ab34');
    expect(text).toContain('needs 256 parts; at most 255');
    await shoot('compose-errors');
    expect(await jobCount()).toBe(jobsBefore);
  });

  it('history shows a failed delivery and resends to the failed recipient only', async () => {
    await page.keyboard.press('Control+n');
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    await entry.fill('+44 7700 900000'); // the sandbox network fails numbers ending 0000
    await entry.press('Enter');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Ping');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('send-results').locator('[data-status="failed"]').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'History' }).click();
    const job = page.getByRole('listitem').filter({ hasText: 'Ping' });
    await job.getByText('1 failed').first().waitFor();
    await job.getByRole('button', { name: /Ping/ }).click();
    await job.getByRole('button', { name: 'Resend to failed (1)' }).click();
    const confirm = page.getByRole('dialog', { name: 'Resend to failed recipients?' });
    expect(await confirm.textContent()).toContain('Send the message again to 1 failed recipient?');
    await confirm.getByRole('button', { name: 'Resend' }).click();
    await confirm.waitFor({ state: 'detached' });
    await job.getByText(/Resent as send #\d+/).waitFor();
    await shoot('history');
    const jobs = await page.evaluate(() => window.messenger!.outbox.jobs());
    expect(jobs[0]?.resendOf).toBe(jobs[1]?.id);
    expect(jobs[0]?.recipientCount).toBe(1);
  });

  it('Ctrl+F opens the inbox search; the theme setting switches to dark', async () => {
    await page.keyboard.press('Control+f');
    const search = page.getByRole('searchbox', { name: 'Search messages and contacts' });
    await search.waitFor();
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole('button', { name: 'Account', exact: true }).click();
    await page.getByLabel('Theme').selectOption('dark');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved: theme dark.').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.screenshot({ path: join(SHOTS, 'account-theme-dark.png') });
    await page.getByLabel('Theme').selectOption('system');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.theme ?? 'none'))
      .toBe('none');
    expect(pageErrors).toEqual([]);
  });

  it('imports contacts from CSV with a column mapping and from a vCard, flags duplicates, exports CSV', async () => {
    await page.getByRole('button', { name: 'Contacts & groups' }).click();
    const csv =
      'First,Last,Mobile\nDan,Drake,07700 900104\nErin,Eve,+447700900105\nAl,Dup,07700900101\nBad,Row,12ab\n';
    await page
      .getByLabel('Import CSV…')
      .setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const dialog = page.getByRole('dialog', { name: 'CSV column mapping' });
    // The mapping is guessed from the header and can be changed.
    expect(await dialog.getByLabel('Number (required)').inputValue()).toBe('Mobile');
    expect(await dialog.getByLabel('Name (or first name)').inputValue()).toBe('First');
    expect(await dialog.getByLabel('Last name (joined to the name)').inputValue()).toBe('Last');
    // The mapping is the Dialog: the first field has the focus, Escape cancels without importing.
    expect(
      await dialog.getByLabel('Name (or first name)').evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByLabel('Import CSV…')
      .setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    expect(await dialog.getByLabel('Number (required)').inputValue()).toBe('Mobile');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await page
      .getByText('Imported: 2 added, 0 updated, 1 duplicate skipped, 1 invalid', { exact: false })
      .waitFor();
    await page.getByRole('cell', { name: 'Dan Drake', exact: true }).waitFor();

    const vcard = 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Fay Fox\r\nTEL;TYPE=CELL:+447700900106\r\nEND:VCARD\r\n';
    await page
      .getByLabel('Import vCard…')
      .setInputFiles({ name: 'fay.vcf', mimeType: 'text/vcard', buffer: Buffer.from(vcard) });
    await page.getByRole('cell', { name: 'Fay Fox', exact: true }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('contacts.csv');
    const path = await download.path();
    const exported = readFileSync(path, 'utf8');
    for (const n of ['Alice Archer', 'Dan Drake', 'Fay Fox', '447700900106']) expect(exported).toContain(n);
    expect(pageErrors).toEqual([]);
  });

  it('splits a pasted list into chips and sends a scheduled message as UTC SendTimeAbsolute', async () => {
    await page.keyboard.press('Control+n');
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    await entry.focus();
    // A pasted list: commas, semicolons and new lines.
    await pasteText(page, '07700 900107; 07700900108\n+447700900109');
    const chips = page.getByRole('list', { name: 'Recipients' }).getByRole('listitem');
    await expect
      .poll(() => chips.allTextContents())
      .toEqual(['+447700900107×', '+447700900108×', '+447700900109×']);
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Later');
    await page
      .locator('select')
      .filter({ has: page.locator('option[value="at"]') })
      .selectOption('at');
    // The browser runs in Europe/Berlin (UTC+1 in January): 12:00 local is 11:00 UTC.
    await page.getByLabel('Local time').fill('2030-01-15T12:00:00');
    await page.getByText('UTC 2030-01-15T11:00:00').waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('send-results').locator('tbody tr').nth(2).waitFor();
    const job = await page.evaluate(async () => (await window.messenger!.outbox.jobs())[0]);
    expect(job?.content.sendTimeAbsolute).toBe('2030-01-15T11:00:00');
    expect(job?.recipientCount).toBe(3);
    expect(pageErrors).toEqual([]);
  });

  it('saves a template, renames a group and deletes a contact through the Dialog (no browser dialogs)', async () => {
    // Any browser dialog would fail here: nothing answers it.
    page.on('dialog', (d) => {
      pageErrors.push(`a browser ${d.type()} dialog was opened: ${d.message()}`);
      void d.dismiss();
    });
    await page.keyboard.press('Control+n');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('See you at 3');
    await page.setViewportSize({ width: 720, height: 480 });
    await shoot('compose-narrow');
    await page.setViewportSize({ width: 1280, height: 820 });
    const save = page.getByRole('button', { name: 'Save as template' });
    await save.click();
    const ask = page.getByRole('dialog', { name: 'Save as template' });
    const name = ask.getByRole('textbox', { name: 'Template name' });
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);
    await name.press('Enter');
    expect(await ask.getByRole('alert').textContent()).toBe('A template needs a name.');
    await page.setViewportSize({ width: 720, height: 480 });
    await shoot('compose-template-dialog');
    await page.setViewportSize({ width: 1280, height: 820 });
    await name.fill('Meeting');
    await name.press('Enter');
    await ask.waitFor({ state: 'detached' });
    expect(await save.evaluate((el) => el === document.activeElement)).toBe(true);
    await page
      .getByRole('combobox', { name: 'Insert template' })
      .locator('option', { hasText: 'Meeting' })
      .waitFor({
        state: 'attached',
      });
    const templates = await page.evaluate(() => window.messenger!.templates.list());
    expect(templates.map((t) => [t.name, t.text])).toContainEqual(['Meeting', 'See you at 3']);

    await page.getByRole('button', { name: 'Contacts & groups' }).click();
    await page.locator('.group-item', { hasText: 'Team' }).click();
    await page.getByRole('region', { name: 'Group Team' }).getByRole('button', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename group Team' });
    await rename.getByRole('textbox', { name: 'Group name' }).fill('Core team');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('region', { name: 'Group Core team' }).waitFor();
    expect((await page.evaluate(() => window.messenger!.groups.list())).map((g) => g.name)).toContain(
      'Core team',
    );

    const row = page.getByRole('row').filter({ hasText: 'Fay Fox' });
    await row.getByRole('button', { name: 'Delete' }).click();
    const del = page.getByRole('dialog', { name: 'Delete Fay Fox?' });
    await page.setViewportSize({ width: 720, height: 480 });
    await shoot('contacts-delete-dialog');
    await page.setViewportSize({ width: 1280, height: 820 });
    await del.getByRole('button', { name: 'Cancel' }).click();
    await del.waitFor({ state: 'detached' });
    expect(await page.getByRole('cell', { name: 'Fay Fox', exact: true }).count()).toBe(1);
    await row.getByRole('button', { name: 'Delete' }).click();
    await del.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('cell', { name: 'Fay Fox', exact: true }).waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });
});
