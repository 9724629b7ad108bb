// End to end: a long pasted list of numbers in Compose is checked in a Web Worker (issue 15): the
// page shows "Checking N numbers…" at once, a Worker is started from the bundled normalize-worker
// script, and the chips arrive in the pasted order with the same results normalizeMsisdn gives on
// the main thread (valid numbers international, invalid ones with their reason). No timing is
// asserted here: `npm run bench -- --only compose-paste` measures the long tasks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { normalizeMsisdn } from '../../protocol/msisdn.ts';
import { HAS_CHROMIUM, startApp, type E2eApp } from './support.ts';

// Under the expanded list's 1,000 chips (issue 12) and still a paste the worker checks (> 2,000 characters).
const COUNT = 900;

describe.skipIf(!HAS_CHROMIUM)('pasting many numbers into Compose', { timeout: 90_000 }, () => {
  let app: E2eApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp('messenger-e2e-paste-');
    // Note every Worker the page starts (the page's own constructor still does the work).
    await app.context.addInitScript(() => {
      const started: string[] = [];
      (window as unknown as { workersStarted: string[] }).workersStarted = started;
      const Original = window.Worker;
      window.Worker = class extends Original {
        constructor(url: string | URL, options?: WorkerOptions) {
          super(url, options);
          started.push(String(url));
        }
      };
    });
    page = app.page;
    // The URL's token is spent once (issue 17): reload once this tab holds its session.
    await page.waitForFunction(() => window.sessionStorage.getItem('messenger.session') !== null);
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
  }, 180_000);

  afterAll(() => app?.close());

  it('checks the numbers in a worker and adds every chip in order', async () => {
    const inputs = Array.from({ length: COUNT }, (_, i) => {
      const sub = String(100000 + i);
      return i % 100 === 99 ? `07400 ${sub.slice(0, 3)}x` : i % 2 ? `07400 ${sub}` : `+44 7400 ${sub}`;
    });
    await page.keyboard.press('Control+n');
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    await entry.focus();
    // The status is watched from before the paste (a fast worker may answer within a frame).
    const statuses = await page.evaluateHandle((text) => {
      const seen: string[] = [];
      new MutationObserver(() => {
        const status = document.querySelector('[role="status"]')?.textContent;
        if (status && seen[seen.length - 1] !== status) seen.push(status);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
      const data = new DataTransfer();
      data.setData('text/plain', text);
      document.activeElement!.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
      return seen;
    }, inputs.join('\n'));
    // Past a screenful the chips collapse into "+N more" (issue 12): open the whole list.
    const more = page.getByRole('button', { name: `+${(COUNT - 12).toLocaleString('en-GB')} more` });
    await more.waitFor({ timeout: 60_000 });
    await more.click();
    const chips = page.getByRole('list', { name: 'Recipients' }).getByRole('listitem');
    await expect.poll(() => chips.count(), { timeout: 60_000 }).toBe(COUNT);
    await page.getByRole('status').filter({ hasText: 'Checking' }).waitFor({ state: 'detached' });
    expect(await statuses.evaluate((seen) => seen)).toContain(
      `Checking ${COUNT.toLocaleString('en-GB')} numbers…`,
    );

    const workers = await page.evaluate(
      () => (window as unknown as { workersStarted: string[] }).workersStarted,
    );
    expect(workers.some((url) => url.includes('normalize-worker'))).toBe(true);

    // Every chip as the main thread's normalizeMsisdn reads its number (GB is the sandbox's default).
    const shown = await chips.evaluateAll((items) =>
      items.map((li) => [li.className, li.getAttribute('title') ?? ''] as const),
    );
    const expected = inputs.map((input) => {
      const r = normalizeMsisdn(input, 'GB');
      return r.ok ? (['chip number', `+${r.msisdn}`] as const) : (['chip invalid', r.reason] as const);
    });
    expect(shown).toEqual(expected);
    await page
      .getByRole('alert')
      .filter({ hasText: `${COUNT / 100} invalid numbers` })
      .waitFor();
    expect(app.pageErrors).toEqual([]);
  });
});
