// Issue 25, in Chromium over the web shell: a backup that fails is said in the window, not only in
// the log. The database is one migration behind and a file stands where the backups folder would be
// made, so the backup before the migration fails at start: the banner names that backup, the
// problem in words, the data folder and that no good backup exists, and offers "Back up now"; it
// says its failure, then (the folder made) its success, and Settings shows where the backups are
// and the newest one. Screenshots: test-results/backup-failed-*.png (light and dark, 1280×800 and 720×480).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openAppDb } from '../../main/store/db.ts';
import {
  HAS_CHROMIUM,
  openBrowser,
  shoot,
  startShell,
  stopShell,
  type AppBrowser,
  type Shell,
} from './support.ts';

describe.skipIf(!HAS_CHROMIUM)('a failed backup in the browser', { timeout: 120_000 }, () => {
  let tmp: string;
  let data: string;
  let shell: Shell;
  let browser: AppBrowser;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'messenger-e2e-backup-'));
    data = join(tmp, 'data');
    mkdirSync(data);
    const all = fileURLToPath(new URL('../../main/store/migrations/', import.meta.url));
    const older = join(tmp, 'migrations-015');
    cpSync(all, older, { recursive: true });
    for (const f of readdirSync(older)) if (Number(f.slice(0, 3)) > 15) rmSync(join(older, f));
    openAppDb(join(data, 'messenger.sqlite'), { migrationsDir: older }).close();
    writeFileSync(join(data, 'backups'), 'not a folder');
    shell = await startShell(data);
    browser = await openBrowser(join(tmp, 'profile'), { viewport: { width: 1280, height: 800 } });
    await browser.page.goto(shell.url);
  }, 180_000);

  afterAll(async () => {
    await browser?.context.close();
    if (shell) await stopShell(shell);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('says what failed, where, and since when; Back up now says its outcome', async () => {
    const { page } = browser;
    const banner = page.getByTestId('backup-failed');
    await banner.waitFor({ timeout: 60_000 });
    await page.getByTestId('credit-amount').waitFor({ timeout: 60_000 });
    const text = (await banner.textContent()) ?? '';
    expect(text).toContain('The backup before updating the database failed');
    expect(text).toContain('the backups folder cannot be made (a file of that name is in its place)');
    expect(text).toContain(`Data folder: ${data}`);
    expect(text).toContain('No backup has been written yet.');
    await shoot(page, 'backup-failed-1280x800');
    await page.setViewportSize({ width: 720, height: 480 });
    await shoot(page, 'backup-failed-720x480');

    await banner.getByRole('button', { name: 'Back up now' }).click();
    await page.getByTestId('backup-now-error').waitFor();
    expect(await page.getByTestId('backup-now-error').textContent()).toMatch(
      /^Back up now: the backup failed: the backups folder cannot be made/,
    );
    expect(await banner.textContent()).toContain('The backup asked for failed');
    await shoot(page, 'backup-failed-again-720x480');

    rmSync(join(data, 'backups'));
    mkdirSync(join(data, 'backups'));
    await banner.getByRole('button', { name: 'Back up now' }).click();
    const written = page.getByTestId('backup-written');
    await written.waitFor();
    expect(await written.textContent()).toContain(join(data, 'backups', 'messenger-'));
    expect(await banner.count()).toBe(0);
    await shoot(page, 'backup-written-720x480');
    await written.getByRole('button', { name: 'OK' }).click();

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Account', exact: true }).click();
    const card = page.getByTestId('backups-card');
    await card.scrollIntoViewIfNeeded();
    expect(await card.textContent()).toContain(join(data, 'backups'));
    expect(await card.getByTestId('newest-backup').textContent()).toMatch(/\(manual, \d+ KB\)/);
    await shoot(page, 'backup-settings-1280x800');
    expect(browser.pageErrors).toEqual([]);
  });
});
