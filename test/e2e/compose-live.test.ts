// End to end (issue 27 item 5): Compose's results are kept up the renderer's one way, a throttled
// read of the journal when an event says the job changed, never a merge of event payloads. In the
// web shell with the local sandbox and Debian's Chromium; the page's WebSocket is routed through the
// test (Playwright's routeWebSocket) so that events can be held back or lost and the page's reads
// counted:
//  - a delivery receipt that arrives after the send finished changes the headline and the bar, not
//    only its row (merged snapshots kept "All 2 recipients accepted" beside a failed row);
//  - a send of three batches whose progress events the window never received (a connection that
//    lost them) still ends with every row answered, once another event of the job (its receipts)
//    comes: the read says what the lost events would have (merged snapshots stayed "Sending…");
//  - its reads are throttled: at most one per 300 ms while events come, fewer than the events.
// Screenshots (light/dark, 720×480 and 1280×800) of Results during and after a send: compose-live-*.png.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openGatewayDb } from '../../gateway/store/db.ts';
import { HAS_CHROMIUM, pasteChecked, shoot, startApp, type E2eApp } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)(
  'Compose results follow the journal (web shell + Chromium)',
  { timeout: 120_000 },
  () => {
    let app: E2eApp;
    let page: Page;
    /** Server→page frames of an event held back while this is set (released in order). */
    let holding: { event: string; frames: string[] } | null = null;
    /** Server→page frames of an event dropped while this is set (counted). */
    let dropping: { event: string; dropped: number } | null = null;
    /** Page→server calls by channel, and server→page events by name, with when they passed. */
    const calls: { channel: string; at: number }[] = [];
    const events: { event: string; at: number }[] = [];
    let toPage: (m: string) => void = () => undefined;

    beforeAll(async () => {
      app = await startApp('messenger-e2e-compose-live-', { viewport: { width: 1280, height: 800 } });
      ({ page } = app);
      await page.routeWebSocket(/.*/, (ws) => {
        const server = ws.connectToServer();
        toPage = (m) => ws.send(m);
        ws.onMessage((m) => {
          if (typeof m === 'string') {
            const channel = /"channel":"([^"]+)"/.exec(m)?.[1];
            if (channel) calls.push({ channel, at: Date.now() });
          }
          server.send(m);
        });
        server.onMessage((m) => {
          const event = typeof m === 'string' ? /^\{"event":"([^"]+)"/.exec(m)?.[1] : undefined;
          if (event && typeof m === 'string') {
            if (dropping && dropping.event === event) {
              dropping.dropped += 1;
              return;
            }
            if (holding && holding.event === event) {
              holding.frames.push(m);
              return;
            }
            events.push({ event, at: Date.now() });
          }
          ws.send(m);
        });
      });
      // The page loaded before the route: load it again through it, with this tab's session.
      await page.waitForFunction(() => window.sessionStorage.getItem('messenger.session') !== null, null, {
        timeout: 30_000,
      });
      await page.reload();
      await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
      // The sandbox's demo account gets the credit for the sends below (10.00 covers 250 messages).
      const db = openGatewayDb(join(app.tmp, 'data', 'sandbox-gateway'));
      db.prepare('UPDATE accounts SET credit = credit + ?').run(1_000 * 10_000);
      db.close();
      await page.evaluate(() => window.messenger!.credit.refresh());
    }, 180_000);

    afterAll(() => app?.close());

    const outcome = () => page.getByTestId('send-outcome');
    const tone = () => outcome().getAttribute('data-tone');
    const barParts = () =>
      page
        .locator('.results .outcome-bar .part')
        .evaluateAll((ps) => ps.map((p) => p.getAttribute('data-part')));

    async function send(numbers: string, text: string): Promise<void> {
      await page.getByRole('button', { name: 'Compose', exact: true }).click();
      await page.keyboard.press('Control+n');
      await page.getByRole('combobox', { name: 'To', exact: true }).focus();
      await pasteChecked(page, numbers);
      // (send once all are chips: Send is refused while a long paste is checked, pasteChecked)
      const count = numbers.split(/[\n,]/).filter((n) => n.trim() !== '').length;
      await expect
        .poll(() => page.getByTestId('recipient-count').textContent(), { timeout: 60_000 })
        .toBe(`${count} recipients`);
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const many = page.getByRole('dialog', { name: 'Send to many recipients?' });
      // Above the confirm threshold the send asks first.
      await many.or(outcome()).first().waitFor({ timeout: 30_000 });
      if (await many.isVisible()) await many.getByRole('button', { name: /^Send to \d/ }).click();
      await outcome().waitFor();
    }

    async function shots(name: string): Promise<void> {
      for (const [w, h] of [
        [720, 480],
        [1280, 800],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        await outcome().scrollIntoViewIfNeeded();
        await shoot(page, `compose-live-${name}-${w}x${h}`);
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    it('a delivery receipt that arrives while the results are shown changes the headline and the bar', async () => {
      // The sandbox's network fails numbers ending 0000 with a failed receipt; the others are delivered.
      holding = { event: 'inbox:receipt', frames: [] };
      await send('+447700900301, +447700900000', 'Receipts while shown');
      await expect.poll(tone, { timeout: 30_000 }).not.toMatch(/^(progress|null)$/);
      await expect.poll(() => page.getByTestId('send-results').locator('tbody tr').count()).toBe(2);
      // The receipts (held until now) reach the page while the result is on screen.
      const held = holding;
      await expect.poll(() => held.frames.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
      holding = null;
      for (const frame of held.frames) toPage(frame);
      await expect
        .poll(() => outcome().textContent(), { timeout: 20_000 })
        .toMatch(/^1 accepted, 1 failed: /);
      expect(await barParts()).toEqual(['accepted', 'failed']);
      expect(await page.getByTestId('row-summary').textContent()).toBe(
        '2 recipients: 1 delivered · 1 failed',
      );
      await page.getByRole('button', { name: 'Resend to failed (1)' }).waitFor();
      await shots('after');
      expect(app.pageErrors).toEqual([]);
    });

    it('a send whose progress events the window missed ends with every row answered, read at most every 300 ms', async () => {
      const count = 800; // three batches of at most 350
      const numbers = Array.from({ length: count }, (_, i) => `+447400${String(300001 + i)}`).join('\n');
      dropping = { event: 'outbox:progress', dropped: 0 };
      const from = calls.length;
      const eventsFrom = events.length;
      await send(numbers, 'Three batches');
      const started = Date.now();
      if ((await tone()) === 'progress') await shots('during');
      await expect.poll(tone, { timeout: 60_000 }).not.toMatch(/^(progress|null)$/);
      const finished = Date.now();
      expect(dropping.dropped).toBeGreaterThan(0); // progress events were lost on the way
      dropping = null;
      // Every row answered, as the journal has them: none left "pending" by the lost events (the
      // summary counts every row; the first 500 are drawn).
      const summary = () => page.getByTestId('row-summary').textContent();
      await expect.poll(summary, { timeout: 20_000 }).toMatch(/^800 recipients: /);
      await expect.poll(summary, { timeout: 20_000 }).not.toMatch(/pending|sending/);
      expect(await page.getByTestId('send-results').locator('tbody tr').count()).toBe(500);
      expect(await page.getByTestId('results-shown').textContent()).toMatch(
        /^Showing the first 500 of 800: /,
      );
      expect(await outcome().textContent()).toMatch(/^All 800 recipients /);

      // Then the 800 delivery receipts, each an event: the page's reads of the job's rows stay the
      // first and at most one per 300 ms, far fewer than the events.
      const receipts = () => events.slice(eventsFrom).filter((e) => e.event === 'inbox:receipt');
      await expect
        .poll(
          () => Date.now() - (receipts().at(-1)?.at ?? Date.now()) > 1_500 && receipts().length > count / 2,
          {
            timeout: 60_000,
          },
        )
        .toBe(true);
      // The rows shown are the journal's, receipts and all.
      const journal = await page.evaluate(async () => {
        const job = (await window.messenger!.outbox.jobs({ limit: 1 }))[0]!;
        return job.counts;
      });
      expect(journal.delivered).toBeGreaterThan(count / 2);
      await expect.poll(summary, { timeout: 10_000 }).toMatch(new RegExp(`: ${journal.delivered} delivered`));
      const ended = Date.now();
      const reads = calls.slice(from).filter((c) => c.channel === 'outbox.recipients');
      const heard = events.slice(eventsFrom).filter((e) => /^(outbox:progress|inbox:receipt)$/.test(e.event));
      console.log(
        `compose-live: ${reads.length} reads of the rows for ${heard.length} events in ${((ended - started) / 1000).toFixed(1)} s ` +
          `(sending ${((finished - started) / 1000).toFixed(1)} s)`,
      );
      expect(heard.length).toBeGreaterThan(count / 2);
      expect(reads.filter((r) => r.at >= started).length).toBeLessThanOrEqual(
        Math.ceil((ended - started) / 300) + 1,
      );
      expect(reads.length).toBeLessThan(heard.length / 10);
      await shots('three-batches');
      expect(app.pageErrors).toEqual([]);
    });
  },
);
