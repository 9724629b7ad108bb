// Issue 27: the Inbox search finds sends. A campaign to numbers that never wrote keeps them in the
// journal's lean table (no Inbox conversation, no message hit); the search shows the send itself,
// once, in its "Sends" section, reached by keyboard, and opens it in History's campaign view. A send
// to one number opens its History entry. Web shell + Chromium on the local sandbox; no serious axe
// violation in light or dark. Screenshots: test-results/search-sends-*.png (1280×800 and 720×480).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, shoot, startApp, type E2eApp } from './support.ts';
import { violationsBothSchemes } from './axe.ts';

describe.skipIf(!HAS_CHROMIUM)('searching sends (issue 27)', { timeout: 180_000 }, () => {
  let app: E2eApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp('messenger-e2e-search-sends-', { viewport: { width: 1280, height: 800 } });
    page = app.page;
    await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
  }, 180_000);
  afterAll(() => app?.close());

  const sendAndWait = async (recipients: string[], text: string): Promise<number> => {
    const sent = await page.evaluate(
      ({ r, t }) => window.messenger!.send.submit({ recipients: r, content: { kind: 'text', text: t } }),
      { r: recipients, t: text },
    );
    await expect
      .poll(
        async () =>
          (await page.evaluate((id) => window.messenger!.outbox.job(id), sent.job.id))?.counts.delivered,
        { timeout: 30_000 },
      )
      .toBe(recipients.length);
    return sent.job.id;
  };

  it('shows a campaign to new numbers as one send hit that opens its campaign view', async () => {
    await sendAndWait(['447700900511', '447700900512'], 'Lantern parade on the harbour this Saturday');
    // Neither number wrote: no conversation, so no message can be a hit.
    expect((await page.evaluate(() => window.messenger!.inbox.conversations())).items).toEqual([]);

    await page.getByRole('button', { name: /^Inbox/ }).click();
    const search = page.getByRole('searchbox', { name: 'Search messages and contacts' });
    await search.fill('lantern harb');
    const results = page.getByTestId('search-results');
    await expect
      .poll(() => results.getByRole('status').textContent())
      .toMatch(/0 messages, 0 contacts, 1 send/);
    const sends = page.getByRole('region', { name: 'Sends' });
    const hit = sends.getByRole('button');
    expect(await hit.count()).toBe(1);
    expect(await hit.textContent()).toMatch(/Sent to 2 recipients.*Lantern parade on the harbour/);
    expect(await hit.locator('mark').allTextContents()).toEqual(['Lantern', 'harbour']);

    const found = await violationsBothSchemes(page);
    expect(found, found.join('\n')).toEqual([]);
    await shoot(page, 'search-sends-1280');
    await page.setViewportSize({ width: 720, height: 480 });
    await shoot(page, 'search-sends-720');
    await page.setViewportSize({ width: 1280, height: 800 });

    // By keyboard: down from the box to the send, Enter opens its campaign view.
    await search.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/Sent to 2 recipients/);
    await page.keyboard.press('Enter');
    const campaign = page.getByRole('region', { name: /Lantern parade on the harbour/ });
    await campaign.waitFor();
    await campaign.getByText('+447700900511').first().waitFor();
    await campaign.getByText('+447700900512').first().waitFor();
    await shoot(page, 'search-sends-campaign-1280');
    expect(app.pageErrors).toEqual([]);
  });

  it('opens a send to one number at its History entry, beside its message hit', async () => {
    const id = await sendAndWait(['447700900521'], 'Parcel locker code 7311');
    await page.getByRole('button', { name: /^Inbox/ }).click();
    await page.getByRole('searchbox', { name: 'Search messages and contacts' }).fill('locker');
    const results = page.getByTestId('search-results');
    await expect
      .poll(() => results.getByRole('status').textContent())
      .toMatch(/1 message, 0 contacts, 1 send/);
    await page.getByRole('region', { name: 'Messages' }).getByRole('button').waitFor();
    await shoot(page, 'search-sends-both-1280');
    await page.getByRole('region', { name: 'Sends' }).getByRole('button').click();
    await page.getByRole('heading', { name: 'History' }).waitFor();
    const entry = page.locator(`#job-${id}`);
    expect(await entry.locator('button.job-head').getAttribute('aria-expanded')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.className)).toContain('job-head');
    expect(app.pageErrors).toEqual([]);
  });
});
