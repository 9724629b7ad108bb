// End to end (issue 13): contacts at scale in the web shell. A 5,000-row CSV with a Group column
// (";" and "|" separated) becomes contacts and groups; duplicates are offered for merging; the filter
// finds "user42@", "zoe" (Zoë) and a national number, and counts "N of M"; select all goes into a
// group (with Undo); a shift-click selects a range; a bulk delete is undone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, shoot, startApp, type E2eApp } from './support.ts';

const ROWS = 5000;

function bigCsv(): string {
  const lines = ['Name,Mobile,Email,Group'];
  for (let i = 0; i < ROWS; i++) {
    const name = i === 7 ? 'Zoë Adams' : `Member ${i}`;
    const groups = i < 10 ? `${i % 2 ? 'Odd' : 'Even'}${i % 3 ? ';' : '|'}First ten` : i % 2 ? 'Odd' : 'Even';
    lines.push(`${name},07911 ${String(100000 + i)},user${i}@example.com,${groups}`);
  }
  // A last row repeats row 3's number: a duplicate within the file.
  lines.push('Member 2 again,+44 7911 100002,,Even');
  return `${lines.join('\n')}\n`;
}

describe.skipIf(!HAS_CHROMIUM)('contacts at scale (issue 13)', { timeout: 120_000 }, () => {
  let app: E2eApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp('messenger-e2e-contacts-', { viewport: { width: 1280, height: 800 } });
    page = app.page;
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    // A contact that the file will name again (a duplicate of a stored contact).
    await page.evaluate(() => window.messenger!.contacts.add({ name: 'Old Name', number: '+447911100003' }));
  }, 180_000);
  afterAll(() => app?.close());

  const count = () => page.getByTestId('contact-count').textContent();
  const groupCount = (name: string) =>
    page.evaluate(
      async (n) => (await window.messenger!.groups.list()).find((g) => g.name === n)?.memberCount,
      name,
    );

  it('imports 5,000 rows with a Group column into contacts and groups; offers the duplicates for merging', async () => {
    await page.getByRole('button', { name: 'Contacts & groups' }).click();
    await page
      .getByLabel('Import CSV…')
      .setInputFiles({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(bigCsv()) });
    const dialog = page.getByRole('dialog', { name: 'CSV column mapping' });
    expect(await dialog.getByLabel('Groups (names separated by ; or |)').inputValue()).toBe('Group');
    expect(await dialog.getByLabel('Number (required)').inputValue()).toBe('Mobile');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await page
      .getByText(`Imported: ${ROWS - 1} added, 0 updated, 2 duplicates skipped, 0 invalid`, {
        exact: false,
      })
      .waitFor({ timeout: 60_000 });
    await expect.poll(count, { timeout: 10_000 }).toBe('5,000 contacts');
    expect(await groupCount('Even')).toBe(2500);
    expect(await groupCount('Odd')).toBe(2500);
    expect(await groupCount('First ten')).toBe(10);

    // The stored "Old Name" has row 4's number: merging takes the file's name.
    await page.getByRole('button', { name: 'Merge the 2 duplicates into the existing contacts' }).click();
    await page.getByText(/Imported: 0 added, \d+ updated/).waitFor({ timeout: 60_000 });
    const merged = await page.evaluate(
      async () => (await window.messenger!.contacts.list()).find((c) => c.number === '447911100003')?.name,
    );
    expect(merged).toBe('Member 3');
    await expect.poll(count, { timeout: 10_000 }).toBe('5,000 contacts');
    await shoot(page, 'contacts-5000');
  });

  it('filters by text without turning it into a number search, by accents and by national number', async () => {
    const filter = page.getByLabel('Filter contacts');
    const cases: Array<[string, string, string]> = [
      ['user42@', '1 of 5,000 contacts', 'Member 42'],
      ['zoe', '1 of 5,000 contacts', 'Zoë Adams'],
      ['07911100042', '1 of 5,000 contacts', 'Member 42'],
      ['+44 7911 100042', '1 of 5,000 contacts', 'Member 42'],
    ];
    for (const [q, n, name] of cases) {
      await filter.fill(q);
      await expect.poll(count, { timeout: 10_000 }).toBe(n);
      expect(await page.getByRole('cell', { name, exact: true }).count(), q).toBe(1);
    }
    // "member 42" is words, not digits: Member 42, 420–429 and 4200–4299.
    await filter.fill('member 42');
    await expect.poll(count, { timeout: 10_000 }).toBe('111 of 5,000 contacts');
    await filter.fill('');
  });

  it('selects all of the filter into a group, with Undo', async () => {
    await page.getByLabel('New group name').fill('Everyone');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('region', { name: 'Group Everyone' }).waitFor();
    await page.getByLabel('Select all', { exact: true }).check();
    await expect.poll(count, { timeout: 10_000 }).toBe('5,000 contacts, 5,000 selected');
    await page.getByLabel('Add the selected to a group').selectOption({ label: 'Everyone' });
    await page.getByText('Added 5,000 contacts to “Everyone”.').waitFor({ timeout: 30_000 });
    expect(await groupCount('Everyone')).toBe(5000);
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByText('Undone.').waitFor();
    expect(await groupCount('Everyone')).toBe(0);

    // The filter's "select all" takes only what matches.
    await page.getByLabel('Filter contacts').fill('member 42');
    await page.getByLabel('Select all 111 matching').check();
    await page.getByLabel('Add the selected to a group').selectOption({ label: 'Everyone' });
    await page.getByText('Added 111 contacts to “Everyone”.').waitFor();
    expect(await groupCount('Everyone')).toBe(111);
    await page.getByLabel('Filter contacts').fill('');
  });

  it('selects a range with shift-click and undoes a bulk delete', async () => {
    const boxes = page.getByRole('table', { name: 'Contacts' }).locator('tbody input[type=checkbox]');
    await boxes.nth(0).click();
    await boxes.nth(4).click({ modifiers: ['Shift'] });
    await expect.poll(count, { timeout: 10_000 }).toBe('5,000 contacts, 5 selected');
    for (let i = 0; i < 5; i++) expect(await boxes.nth(i).isChecked()).toBe(true);
    expect(await boxes.nth(5).isChecked()).toBe(false);
    await page
      .getByRole('toolbar', { name: 'Selected contacts' })
      .getByRole('button', { name: 'Delete 5' })
      .click();
    await page
      .getByRole('dialog', { name: 'Delete 5 contacts?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('Deleted 5 contacts.').waitFor();
    await expect.poll(count, { timeout: 10_000 }).toBe('4,995 contacts');
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByText('Undone.').waitFor();
    await expect.poll(count, { timeout: 10_000 }).toBe('5,000 contacts');
    await page.setViewportSize({ width: 720, height: 480 });
    await boxes.nth(0).click();
    await shoot(page, 'contacts-5000-720');
    expect(app.pageErrors).toEqual([]);
  });
});
