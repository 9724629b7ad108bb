// Issue 25, item 3, in Chromium over the web shell: a database with 16 KiB of garbage in its middle
// is not served. Before any sign-in the page shows the recovery screen (what SQLite found, the file,
// the latest backup) and its three choices; "Export what can still be read" says where the CSV files
// went; "Restore the latest backup" (confirmed in the app's dialog) opens the app on the backup,
// which says where the damaged file was kept. Screenshots: test-results/db-recovery-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAppStore } from '../../main/store/app-store.ts';
import { backupNowSync } from '../../main/store/backups.ts';
import {
  HAS_CHROMIUM,
  openBrowser,
  shoot,
  startShell,
  stopShell,
  type AppBrowser,
  type Shell,
} from './support.ts';

describe.skipIf(!HAS_CHROMIUM)('a damaged database in the browser', { timeout: 120_000 }, () => {
  let tmp: string;
  let file: string;
  let shell: Shell;
  let browser: AppBrowser;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'messenger-e2e-db-'));
    file = join(tmp, 'data', 'messenger.sqlite');
    const store = openAppStore(file, { defaultCountry: 'GB' });
    store.app.transaction(() => {
      for (let i = 0; i < 20_000; i++)
        store.conversations.storeInbound(
          '',
          {
            from: String(447700100000 + (i % 300)),
            to: '447700900999',
            text: `reply ${i} ${'x'.repeat(80)}`,
            timestamp: 't',
          },
          `e2e:${i}`,
        );
    });
    backupNowSync(store.app.db, file, 'manual');
    store.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, randomBytes(16 * 1024), 0, 16 * 1024, Math.floor(statSync(file).size / 2));
    closeSync(fd);
    shell = await startShell(join(tmp, 'data'), { sandbox: false });
    browser = await openBrowser(join(tmp, 'profile'), { viewport: { width: 1280, height: 800 } });
    await browser.page.goto(shell.url);
  }, 180_000);

  afterAll(async () => {
    await browser?.context.close();
    if (shell) await stopShell(shell);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('shows the recovery screen before sign-in, exports what can be read, restores the backup', async () => {
    const { page } = browser;
    const screen = page.getByTestId('database-recovery');
    await page.getByRole('heading', { name: 'The message database is damaged' }).waitFor({ timeout: 60_000 });
    expect(await screen.textContent()).toContain(file);
    expect(await page.getByRole('heading', { name: 'Welcome to Messenger' }).count()).toBe(0);
    await shoot(page, 'db-recovery-1280');
    await page.setViewportSize({ width: 720, height: 480 });
    await shoot(page, 'db-recovery-720', { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Export what can still be read' }).click();
    const exported = page.getByTestId('database-exported');
    await exported.waitFor({ timeout: 60_000 });
    const text = (await exported.textContent()) ?? '';
    expect(text).toMatch(/Exported [\d,]+ messages and 0 contacts to/);
    const folder = /to (\S+readable-\S+?)(?: \(|\.$)/.exec(text)?.[1] ?? '';
    expect(existsSync(join(folder, 'messages.csv'))).toBe(true);
    await shoot(page, 'db-recovery-exported');

    await page.getByRole('button', { name: 'Restore the latest backup' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore the latest backup?' });
    await dialog.waitFor();
    await shoot(page, 'db-recovery-confirm');
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await page.getByRole('heading', { name: 'Welcome to Messenger' }).waitFor({ timeout: 60_000 });
    const kept = page.getByTestId('database-kept');
    expect(await kept.textContent()).toMatch(/messenger\.sqlite\.damaged-/);
    await shoot(page, 'db-recovery-restored');
    expect(browser.pageErrors).toEqual([]);
  });
});
