// End to end (issue 27 item 5): an open conversation keeps up the renderer's one way (useLiveRead):
// a message that arrives makes it read the conversation again as far back as the user had asked, so
// the older pages loaded with "Load older messages" stay (the thread used to read its first page
// alone again and drop them). Web shell with the local sandbox and Debian's Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_NUMBER } from '../../gateway/demo.ts';
import { HAS_CHROMIUM, startApp, type E2eApp } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)(
  'an open conversation follows new messages (web shell + Chromium)',
  { timeout: 120_000 },
  () => {
    let app: E2eApp;
    let page: Page;
    let gateway: string;

    beforeAll(async () => {
      app = await startApp('messenger-e2e-thread-live-', { viewport: { width: 1280, height: 800 } });
      page = app.page;
      await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
      gateway = await page.evaluate(async () => (await window.messenger!.accounts.current())!.primaryUrl);
    }, 180_000);
    afterAll(() => app?.close());

    /** A reply from a phone, at the sandbox gateway (stored by the next poll). */
    const inbound = async (from: string, text: string) => {
      const res = await fetch(new URL('/sandbox/inbound', gateway), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body: new URLSearchParams({ SendTo: DEMO_NUMBER, ReplyTo: from, Message: text }).toString(),
      });
      expect(res.status, await res.clone().text()).toBe(200);
    };

    it('a message that arrives keeps the older messages loaded', async () => {
      const peer = '447700900651';
      for (let i = 1; i <= 130; i++) await inbound(peer, `Message ${i}`);
      await page.evaluate(() => window.messenger!.inbox.pollNow());
      await page.getByRole('button', { name: /^Inbox/ }).click();
      await page
        .getByRole('list', { name: 'Conversations' })
        .getByText(/900651/)
        .first()
        .click();
      const thread = page.getByRole('region', { name: /Conversation with/ });
      const bubbles = thread.getByTestId('bubble');
      await expect.poll(() => bubbles.count(), { timeout: 20_000 }).toBe(100);
      await thread.getByRole('button', { name: 'Load older messages' }).click();
      await expect.poll(() => bubbles.count()).toBe(130);
      await thread.getByText('Message 1', { exact: true }).waitFor();

      await inbound(peer, 'Message 131');
      await page.evaluate(() => window.messenger!.inbox.pollNow());
      await thread.getByText('Message 131', { exact: true }).waitFor({ timeout: 20_000 });
      await expect.poll(() => bubbles.count()).toBe(131);
      expect(await thread.getByText('Message 1', { exact: true }).count()).toBe(1);
      expect(app.pageErrors).toEqual([]);
    });
  },
);
