// End to end (issue 24, item 1): signed in to a gateway that never removes collected messages (a raw
// server in the test answering every CollectMessages with the same page), "Check now" stores each
// message once and the Inbox says plainly that the gateway keeps returning the same messages.
// Screenshots: test-results/inbox-repeats-<size>-<scheme>.png (1280x800 and 720x480, light and dark).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { foreignCollectAnswer, foreignServer } from '../support/foreign-server.ts';
import type { ForeignServer } from '../support/foreign-server.ts';
import { HAS_CHROMIUM, SHOTS, startApp, type E2eApp } from './support.ts';

const PAGE = [
  { from: '447700900301', text: 'Same again', at: '2026-11-27T08:00:00Z' },
  { from: '447700900302', text: 'And again', at: '2026-11-27T08:01:00Z' },
];

describe.skipIf(!HAS_CHROMIUM)(
  'a gateway that keeps collected messages (issue 24)',
  { timeout: 90_000 },
  () => {
    let app: E2eApp;
    let page: Page;
    let server: ForeignServer;
    const collects = () =>
      server.requests.filter((r) => r.body.toString('utf8').includes('CollectMessages')).length;

    beforeAll(async () => {
      server = await foreignServer((r) => {
        if (r.method === 'POST' && r.body.toString('utf8').includes('CollectMessages'))
          return { body: foreignCollectAnswer(PAGE) };
        if (r.path.includes('queryaccount'))
          return { contentType: 'text/plain', body: 'Currency=GBP&AvailableCredit=5.0000' };
        return { status: 404, contentType: 'text/plain', body: 'not here' };
      });
      app = await startApp('messenger-e2e-repeats-', { viewport: { width: 1280, height: 800 } });
      page = app.page;
      await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
      await page.evaluate(
        (url) =>
          window.messenger!.accounts.signIn({
            username: 'acme.1',
            pin: 'Secret9',
            primaryUrl: url,
            rememberPin: false,
          }),
        server.url,
      );
    }, 180_000);
    afterAll(async () => {
      await app?.close();
      await server?.close();
    });

    it('"Check now" stores each message once and shows the warning', async () => {
      await page.getByRole('button', { name: /^Inbox/ }).click();
      const before = collects();
      await page.getByRole('button', { name: 'Check now' }).click();
      const warning = page.getByTestId('poll-warning');
      await warning.waitFor();
      expect(await warning.textContent()).toMatch(/keeps returning the same messages/);
      expect(collects() - before).toBeLessThanOrEqual(2);
      await page.getByRole('button', { name: 'Check now' }).click();
      await page.waitForTimeout(500);
      const list = page.getByRole('list', { name: 'Conversations' });
      expect(await list.getByText('Same again').count()).toBeLessThanOrEqual(1);
      expect(await page.evaluate(() => window.messenger!.inbox.unreadTotal())).toBe(2);
      mkdirSync(SHOTS, { recursive: true });
      for (const size of [
        { width: 1280, height: 800 },
        { width: 720, height: 480 },
      ]) {
        await page.setViewportSize(size);
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.screenshot({
            path: join(SHOTS, `inbox-repeats-${size.width}x${size.height}-${scheme}.png`),
          });
        }
      }
      await page.emulateMedia({ colorScheme: 'light' });
      expect(app.pageErrors).toEqual([]);
    });
  },
);
