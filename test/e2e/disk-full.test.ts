// Issue 25, in Chromium over the web shell: the app's data folder is a small tmpfs (mounted here:
// CI runs as root; skipped only where mounting is not permitted). Filled up, "Check now" collects
// nothing and a banner says why, what is kept and what happens next; freed, the banner goes.
// Screenshots: test-results/disk-full-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  HAS_CHROMIUM,
  openBrowser,
  shoot,
  startShell,
  stopShell,
  type AppBrowser,
  type Shell,
} from './support.ts';

const tmp = mkdtempSync(join(tmpdir(), 'messenger-e2e-full-'));
const mountPoint = join(tmp, 'disk');
let mounted = false;
try {
  execFileSync('mkdir', ['-p', mountPoint]);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m,mode=0700', 'tmpfs', mountPoint], {
    stdio: 'ignore',
  });
  mounted = true;
} catch {
  // not permitted here (not root): the only reason to skip
}

/** Fills the disk with `file`, then frees `leave` bytes of it. */
function fill(file: string, leave: number): void {
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(256 * 1024, 1);
  let written = 0;
  try {
    for (;;) written += writeSync(fd, block);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  execFileSync('truncate', ['-s', String(Math.max(0, written - leave)), file]);
}

describe.skipIf(!HAS_CHROMIUM || !mounted)('a full disk in the browser', { timeout: 120_000 }, () => {
  let shell: Shell;
  let browser: AppBrowser;

  beforeAll(async () => {
    shell = await startShell(join(mountPoint, 'data'));
    browser = await openBrowser(join(tmp, 'profile'), { viewport: { width: 1280, height: 800 } });
    await browser.page.goto(shell.url);
  }, 180_000);

  afterAll(async () => {
    await browser?.context.close();
    if (shell) await stopShell(shell);
    if (mounted) execFileSync('umount', [mountPoint]);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('says the disk is full, that the gateway keeps the messages, and clears when space returns', async () => {
    const { page } = browser;
    await page.getByTestId('credit-amount').waitFor({ timeout: 60_000 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Inbox' }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    const filler = join(mountPoint, 'filler');
    fill(filler, 2 * 1024 * 1024);
    await page.getByRole('button', { name: 'Check now' }).click();
    const banner = page.getByTestId('replies-held');
    await banner.waitFor({ timeout: 30_000 });
    const text = (await banner.textContent()) ?? '';
    expect(text).toMatch(/Replies cannot be stored: the disk is full \(\d+ KiB free\)/);
    expect(text).toContain('No new messages are collected until then: the gateway keeps them.');
    await shoot(page, 'disk-full-1280');
    await page.setViewportSize({ width: 720, height: 480 });
    await shoot(page, 'disk-full-720');
    await page.setViewportSize({ width: 1280, height: 800 });

    rmSync(filler);
    await page.getByRole('button', { name: 'Check now' }).click();
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    expect(browser.pageErrors).toEqual([]);
  });
});
