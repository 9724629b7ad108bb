// End to end (issue 16): the Contacts view's "Server address books" in the real web shell with
// Debian's Chromium against the local sandbox, whose demo account has the book Friends with the
// group Team (gateway/demo.ts): books, groups with their member counts, members, refresh.
// Screenshots land in test-results/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { HAS_CHROMIUM, openBrowser, shoot, startShell, stopShell, type Shell } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)('server address books (web shell + Chromium)', { timeout: 60_000 }, () => {
  let tmp: string;
  let shell: Shell;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'messenger-e2e-books-'));
    shell = await startShell(join(tmp, 'data'));
    const opened = await openBrowser(join(tmp, 'profile'));
    ({ context, page } = opened);
    errors = opened.pageErrors;
    await page.goto(shell.url);
  }, 180_000);

  afterAll(async () => {
    if (errors?.length) console.error('page errors:', errors);
    await context?.close();
    if (shell) await stopShell(shell);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("lists the books with their groups and counts, opens a book's members, refreshes", async () => {
    await page.getByTestId('credit-amount').waitFor({ timeout: 20_000 });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Contacts & groups' }).click();
    const section = page.getByRole('region', { name: 'Server address books' });
    const books = section.getByRole('list', { name: 'Server address books' });
    await books.getByRole('button', { name: /Friends/ }).waitFor({ timeout: 15_000 });
    const groups = section.getByRole('list', { name: 'Groups of Friends' });
    expect(await groups.textContent()).toMatch(/Friends::Team\s*2/);
    await books.getByRole('button', { name: /Friends/ }).click();
    const members = section.getByRole('list', { name: 'Members of Friends' });
    await members.waitFor();
    expect(await members.textContent()).toContain('Alice');
    expect(await members.textContent()).toContain('Team');
    await section.scrollIntoViewIfNeeded();
    await shoot(page, 'server-address-books', { fullPage: true });
    await section.getByRole('button', { name: 'Refresh' }).click();
    await section.getByRole('button', { name: 'Refresh' }).waitFor();
    await books.getByRole('button', { name: /Friends/ }).waitFor();
    expect(errors).toEqual([]);
  });
});
