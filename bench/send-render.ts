// Renderer benchmark (issue 27 item 5): a 100,000-recipient send from Compose in the real app (web
// shell, local sandbox) in Debian's Chromium, its results shown while it goes. The page's WebSocket
// is routed through the bench (Playwright's routeWebSocket), which counts the events the page receives
// ('outbox:progress' per batch, 'inbox:receipt' per delivery receipt) and the reads Compose's results
// make (outbox.recipients, outbox.job): the results keep up by a throttled read (hooks/useLiveRead),
// so the reads stay a few per second however many events come. Baseline, same run: the events
// themselves, which a view reading (or merging and drawing) once per event would follow one by one.
// Also: the page's main thread busy in long tasks (over 50 ms) while the send goes.
// BENCH_SEND_RENDER_RECIPIENTS changes the size (--quick: 20,000).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { openGatewayDb } from '../gateway/store/db.ts';
import { ARGS, CHROMIUM, startShell, stopShell } from '../test/e2e/support.ts';

const RECIPIENTS = Number(
  process.env.BENCH_SEND_RENDER_RECIPIENTS ?? (process.env.BENCH_QUICK ? 20_000 : 100_000),
);
/** After the send finished: receipts still coming are followed until none came for this long. */
const QUIET_MS = 3_000;
const RECEIPTS_MAX_MS = 120_000;
const n = (x: number): string => x.toLocaleString('en-GB');

interface Seen {
  calls: { channel: string; at: number }[];
  events: { event: string; at: number }[];
}

/** The most of `times` that fall in any one second. */
function peakPerSecond(times: number[]): number {
  let best = 0;
  let from = 0;
  for (let i = 0; i < times.length; i++) {
    while ((times[i] ?? 0) - (times[from] ?? 0) >= 1_000) from++;
    best = Math.max(best, i - from + 1);
  }
  return best;
}

async function routeAndCount(page: Page): Promise<Seen> {
  const seen: Seen = { calls: [], events: [] };
  await page.routeWebSocket(/.*/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      const channel = typeof m === 'string' ? /"channel":"([^"]+)"/.exec(m)?.[1] : undefined;
      if (channel) seen.calls.push({ channel, at: Date.now() });
      server.send(m);
    });
    server.onMessage((m) => {
      const event = typeof m === 'string' ? /^\{"event":"([^"]+)"/.exec(m)?.[1] : undefined;
      if (event) seen.events.push({ event, at: Date.now() });
      ws.send(m);
    });
  });
  return seen;
}

export async function run(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'messenger-bench-send-render-'));
  const shell = await startShell(dataDir);
  try {
    // The sandbox's demo account has 10.00 of credit: topped up for the campaign (a second connection).
    const db = openGatewayDb(join(dataDir, 'sandbox-gateway'));
    db.prepare('UPDATE accounts SET credit = ?').run(1_000_000_000 * 10_000);
    db.close();
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(shell.url);
      await page.waitForFunction(() => sessionStorage.getItem('messenger.session') !== null, null, {
        timeout: 60_000,
      });
      const seen = await routeAndCount(page);
      await page.reload();
      await page.getByTestId('credit-amount').waitFor({ timeout: 60_000 });
      await page.evaluate(() => window.messenger!.credit.refresh());

      await page.keyboard.press('Control+n');
      await page.getByRole('combobox', { name: 'To', exact: true }).focus();
      const numbers = Array.from({ length: RECIPIENTS }, (_, i) => `+44 7400 ${String(100000 + i)}`);
      await page.evaluate((text) => {
        const data = new DataTransfer();
        data.setData('text/plain', text);
        document.activeElement!.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
        );
      }, numbers.join('\n'));
      await page
        .getByText(`${n(RECIPIENTS)} recipients`, { exact: true })
        .first()
        .waitFor({ timeout: 300_000 });
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Bench: results while sending');
      // Long tasks of the page's main thread from here on.
      await page.evaluate(() => {
        const w = window as unknown as { longTaskMs: number };
        w.longTaskMs = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.longTaskMs += e.duration;
        }).observe({ type: 'longtask', buffered: false });
      });
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const ask = page.getByRole('dialog');
      const outcome = page.getByTestId('send-outcome');
      await ask.or(outcome).first().waitFor({ timeout: 300_000 });
      const from = { calls: seen.calls.length, events: seen.events.length };
      const t0 = Date.now();
      if (await ask.isVisible()) await ask.getByRole('button', { name: /^Send to \d/ }).click();
      await page.waitForFunction(
        () => {
          const tone = document.querySelector('[data-testid="send-outcome"]')?.getAttribute('data-tone');
          return tone !== undefined && tone !== null && tone !== 'progress';
        },
        null,
        { timeout: 600_000, polling: 200 },
      );
      const sentMs = Date.now() - t0;
      const sendLong = await page.evaluate(() => (window as unknown as { longTaskMs: number }).longTaskMs);
      // Then the receipts, until none came for QUIET_MS (or RECEIPTS_MAX_MS).
      while (Date.now() - t0 - sentMs < RECEIPTS_MAX_MS) {
        const last = seen.events.at(-1)?.at ?? 0;
        if (Date.now() - last > QUIET_MS) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const totalMs = Date.now() - t0;
      const allLong = await page.evaluate(() => (window as unknown as { longTaskMs: number }).longTaskMs);
      const calls = seen.calls.slice(from.calls);
      const events = seen.events.slice(from.events);
      const rows = calls.filter((c) => c.channel === 'outbox.recipients').map((c) => c.at);
      const jobs = calls.filter((c) => c.channel === 'outbox.job').map((c) => c.at);
      const progress = events.filter((e) => e.event === 'outbox:progress').map((e) => e.at);
      const receipts = events.filter((e) => e.event === 'inbox:receipt').map((e) => e.at);
      const headline = await outcome.textContent();
      console.log(
        `Compose's results during a ${n(RECIPIENTS)}-recipient send through the local sandbox (Chromium): ` +
          `sent in ${(sentMs / 1000).toFixed(1)} s ("${headline}"), followed ${(totalMs / 1000).toFixed(1)} s with its receipts`,
      );
      console.log(
        `  events the page received: ${n(progress.length)} outbox:progress + ${n(receipts.length)} inbox:receipt, ` +
          `peak ${n(peakPerSecond([...progress, ...receipts].sort((a, b) => a - b)))} per second (baseline: a read per event)`,
      );
      console.log(
        `  reads Compose's results made: ${n(rows.length)} of the rows (outbox.recipients), ${n(jobs.length)} of the job, ` +
          `peak ${peakPerSecond(rows)} per second; ratio events / row reads ${((progress.length + receipts.length) / Math.max(1, rows.length)).toFixed(0)}×`,
      );
      console.log(
        `  the page's main thread in long tasks (> 50 ms): ${(sendLong / 1000).toFixed(1)} s while sending ` +
          `(${Math.round((100 * sendLong) / sentMs)} %), ${(allLong / 1000).toFixed(1)} s in all (${Math.round((100 * allLong) / totalMs)} %)`,
      );
    } finally {
      await browser.close();
    }
  } finally {
    await stopShell(shell);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
