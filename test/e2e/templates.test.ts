// End to end (issue 26, item 3): a template is inserted at the cursor of Compose's message, not over
// what was typed, and Ctrl+Z in Chromium takes the insertion back; "Manage templates" creates,
// edits, renames and deletes templates (a delete undone brings the template back).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, shoot, startApp, type E2eApp } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)('templates in Compose (web shell + Chromium)', { timeout: 120_000 }, () => {
  let app: E2eApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp('messenger-e2e-templates-', { viewport: { width: 1280, height: 800 } });
    ({ page } = app);
    await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
    await page.evaluate(() =>
      window.messenger!.templates.create({ name: 'Sign-off', text: ' Kind regards, Ops' }),
    );
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
  }, 180_000);
  afterAll(() => app?.close());

  it('inserts at the cursor, undoably', async () => {
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('Hello team. See you at 9.');
    // The cursor after "team." (before " See you…").
    await box.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(11, 11));
    await page.getByRole('combobox', { name: 'Insert template' }).selectOption({ label: 'Sign-off' });
    await expect.poll(() => box.inputValue()).toBe('Hello team. Kind regards, Ops See you at 9.');
    // The cursor follows the inserted text, as typing would leave it.
    expect(await box.evaluate((el: HTMLTextAreaElement) => el.selectionStart)).toBe(11 + 18);
    await box.focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => box.inputValue()).toBe('Hello team. See you at 9.');
    // The text Compose holds (and would send) follows the undo too.
    await page.keyboard.press('Control+y');
    await expect.poll(() => box.inputValue()).toBe('Hello team. Kind regards, Ops See you at 9.');
    expect(app.pageErrors).toEqual([]);
  });

  it('manages templates: create, edit, rename, delete and undo', async () => {
    await page.getByRole('button', { name: 'Manage templates' }).click();
    const dialog = page.getByRole('dialog', { name: 'Templates' });
    await dialog.waitFor();
    const list = dialog.getByRole('list', { name: 'Templates' });
    const name = dialog.getByRole('textbox', { name: 'Name' });
    const text = dialog.getByRole('textbox', { name: 'Text' });

    await dialog.getByRole('button', { name: '+ New template' }).click();
    await name.fill('Reminder');
    await text.fill('Reminder: your appointment is tomorrow.');
    await dialog.getByRole('button', { name: 'Create template' }).click();
    await dialog.getByTestId('templates-status').filter({ hasText: 'Created “Reminder”.' }).waitFor();

    // Rename and edit the first one.
    await list.getByRole('button', { name: 'Sign-off' }).click();
    await name.fill('Signature');
    await text.fill(' Best, the Ops desk');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByTestId('templates-status').filter({ hasText: 'Saved “Signature”.' }).waitFor();
    await list.getByRole('button', { name: 'Signature' }).waitFor();
    expect(await list.getByRole('button', { name: 'Sign-off' }).count()).toBe(0);
    await page.setViewportSize({ width: 720, height: 480 });
    await shoot(page, 'templates-manage-720');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shoot(page, 'templates-manage-1280');

    // Delete, undo, delete again.
    await list.getByRole('button', { name: 'Reminder' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByTestId('templates-status').filter({ hasText: 'Deleted “Reminder”.' }).waitFor();
    expect((await page.evaluate(() => window.messenger!.templates.list())).map((t) => t.name)).toEqual([
      'Signature',
    ]);
    await dialog.getByRole('button', { name: 'Undo' }).click();
    await dialog.getByTestId('templates-status').filter({ hasText: '“Reminder” is back.' }).waitFor();
    const stored = await page.evaluate(() => window.messenger!.templates.list());
    expect(stored.map((t) => [t.name, t.text])).toEqual([
      ['Reminder', 'Reminder: your appointment is tomorrow.'],
      ['Signature', ' Best, the Ops desk'],
    ]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The picker offers the templates as they are now.
    const picker = page.getByRole('combobox', { name: 'Insert template' });
    expect(await picker.locator('option').allTextContents()).toEqual([
      'Insert template…',
      'Reminder',
      'Signature',
    ]);
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(el.value.length, el.value.length));
    await picker.selectOption({ label: 'Signature' });
    await expect.poll(() => box.inputValue()).toMatch(/ Best, the Ops desk$/);
    await page.setViewportSize({ width: 720, height: 480 });
    await box.scrollIntoViewIfNeeded();
    await shoot(page, 'templates-compose-720');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shoot(page, 'templates-compose-1280');
    expect(app.pageErrors).toEqual([]);
  });
});
