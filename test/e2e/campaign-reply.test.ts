// Issue 27 item 6 end to end: a campaign's recipients whose number never wrote are kept in the
// journal's lean table (no Inbox conversation); when one of them replies, its conversation is listed
// and its thread shows the campaign message, with its delivery status, above the reply. The number
// that did not reply stays out of the Inbox and in History. Web shell + Chromium on the local sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_NUMBER } from '../../gateway/demo.ts';
import { HAS_CHROMIUM, shoot, startApp, type E2eApp } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)('a reply to a campaign (issue 27 item 6)', { timeout: 120_000 }, () => {
  let app: E2eApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp('messenger-e2e-campaign-reply-', { viewport: { width: 1280, height: 800 } });
    page = app.page;
    await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
  }, 180_000);
  afterAll(() => app?.close());

  it('lists the number that replied, its thread showing the campaign message above the reply', async () => {
    const numbers = ['447700900411', '447700900412'];
    const sent = await page.evaluate(
      (r) =>
        window.messenger!.send.submit({
          recipients: r,
          content: { kind: 'text', text: 'Tasting evening on Friday' },
        }),
      numbers,
    );
    await expect
      .poll(
        async () =>
          (await page.evaluate((id) => window.messenger!.outbox.job(id), sent.job.id))?.counts.delivered,
        { timeout: 30_000 },
      )
      .toBe(2);
    // Neither number wrote: no conversation is listed.
    expect((await page.evaluate(() => window.messenger!.inbox.conversations())).items).toEqual([]);

    const gateway = await page.evaluate(async () => (await window.messenger!.accounts.current())!.primaryUrl);
    const res = await fetch(new URL('/sandbox/inbound', gateway), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: new URLSearchParams({
        SendTo: DEMO_NUMBER,
        ReplyTo: numbers[0]!,
        Message: 'Count me in',
      }).toString(),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await page.evaluate(() => window.messenger!.inbox.pollNow());

    await page.getByRole('button', { name: /^Inbox/ }).click();
    const list = page.getByRole('list', { name: 'Conversations' });
    await list.getByText('+447700900411').click();
    const thread = page.getByRole('region', { name: /Conversation with 447700900411/ });
    await thread.getByText('Count me in').waitFor();
    const bubbles = thread.getByTestId('bubble');
    await expect.poll(() => bubbles.count()).toBe(2);
    expect(await bubbles.nth(0).getAttribute('class')).toContain('out');
    expect(await bubbles.nth(0).textContent()).toMatch(/Tasting evening on Friday.*delivered/i);
    expect(await bubbles.nth(1).textContent()).toContain('Count me in');
    expect(await list.locator('.conv-name').allTextContents()).not.toContain('+447700900412');
    // History still has both recipients of the send.
    const history = await page.evaluate(
      (id) => window.messenger!.history.messages({ filter: { jobId: id } }),
      sent.job.id,
    );
    expect(history.items.map((m) => m.peer).sort()).toEqual(numbers);

    await shoot(page, 'campaign-reply-thread-1280');
    await page.setViewportSize({ width: 720, height: 480 });
    await shoot(page, 'campaign-reply-thread-720');
    expect(app.pageErrors).toEqual([]);
  });
});
