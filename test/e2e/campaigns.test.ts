// End to end (issue 12 item 6, issue 17 item 19, issue 12 item 5): campaigns in the web shell with the
// local sandbox and Debian's Chromium. A send to many opens from History as one campaign: progress,
// counts that are the table's rows, contact names beside numbers, Resend to failed asked through
// the Dialog with the count and the estimate, never to an opted-out number, rows following the
// resend live. An interrupted send (journaled before the shell starts: one batch unknown, the rest
// never requested) shows why its unknown rows are unknown, pending looks different from unknown,
// and Continue sending leaves out a number that opted out since and says so. The virtual phone shows
// a contact's name. Screenshots of the campaign view at 720×480, light and dark.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openAppStore } from '../../main/store/app-store.ts';
import { OutboxJournal } from '../../main/store/outbox-journal.ts';
import {
  HAS_CHROMIUM,
  openBrowser,
  shoot,
  startShell,
  stopShell,
  type AppBrowser,
  type Shell,
} from './support.ts';

/** Numbers of the interrupted send: batches of 2, the first left "unknown", the rest pending. */
const INTERRUPTED = ['447700900601', '447700900602', '447700900603', '447700900604', '447700900605'];

/** Journal an interrupted send in the app's database before the shell opens it. */
function journalInterrupted(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const store = openAppStore(join(dataDir, 'messenger.sqlite'));
  try {
    // Batches of 2 (the app's are the spec's 350): a journal on the same database with that size.
    const journal = new OutboxJournal(store.app, { batchSize: 2 });
    const job = journal.createJob(INTERRUPTED, { kind: 'text', text: 'Interrupted campaign' });
    const first = journal.claimNext(job.id);
    if (!first) throw new Error('no batch');
    journal.markUnknown(first.id, 'connection reset while waiting for the answer');
  } finally {
    store.close();
  }
}

describe.skipIf(!HAS_CHROMIUM)('campaigns (web shell + Chromium)', { timeout: 120_000 }, () => {
  let tmp: string;
  let shell: Shell;
  let browser: AppBrowser;
  let page: Page;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'messenger-e2e-campaign-'));
    journalInterrupted(join(tmp, 'data'));
    shell = await startShell(join(tmp, 'data'));
    browser = await openBrowser(join(tmp, 'profile'), { viewport: { width: 1024, height: 720 } });
    ({ page } = browser);
    await page.goto(shell.url);
    await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
  }, 180_000);

  afterAll(async () => {
    if (browser?.pageErrors.length) console.error('page errors:', browser.pageErrors);
    await browser?.context.close();
    if (shell) await stopShell(shell);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  // Each test starts at 1024×720 (the sidebar open), whatever the one before left.
  beforeEach(() => page.setViewportSize({ width: 1024, height: 720 }));

  const history = async () => {
    const back = page.getByRole('button', { name: '← History' });
    if (await back.count()) await back.click();
    await page.getByRole('button', { name: 'History', exact: true }).click();
    await page.getByRole('heading', { name: 'History' }).waitFor();
  };
  const campaignRows = () => page.getByTestId('campaign-recipients').locator('tbody tr');

  it('a campaign opens from History with names, counts of its rows, and resends to failed only', async () => {
    await page.evaluate(async () => {
      await window.messenger!.contacts.add({ name: 'Ada Lovelace', number: '+447700900301' });
      await window.messenger!.contacts.add({ name: 'Zed Failing', number: '+447700900000' });
    });
    // The sandbox network fails numbers ending 0000 (a failed receipt).
    const numbers = ['447700900301', '447700900302', '447700900303', '447700900000', '447911200000'];
    const sent = await page.evaluate(
      (r) => window.messenger!.send.submit({ recipients: r, content: { kind: 'text', text: 'Spring sale' } }),
      numbers,
    );
    await expect
      .poll(
        async () =>
          (await page.evaluate((id) => window.messenger!.outbox.job(id), sent.job.id))?.counts.failed,
        {
          timeout: 20_000,
        },
      )
      .toBe(2);

    await history();
    const item = page.getByRole('listitem').filter({ hasText: 'Spring sale' });
    await item.getByRole('button', { name: /Spring sale/ }).click();
    // History's own table: the name beside the number, its summary the rows' counts.
    await item.locator('tbody tr').filter({ hasText: 'Ada Lovelace' }).waitFor();
    await expect
      .poll(() => item.getByTestId('row-summary').textContent(), { timeout: 20_000 })
      .toBe('5 recipients: 3 delivered · 2 failed');
    await page.setViewportSize({ width: 720, height: 480 });
    await shoot(page, 'history-campaign-detail');
    await page.setViewportSize({ width: 1024, height: 720 });
    await item.getByRole('button', { name: 'Open campaign' }).click();
    await page.getByRole('heading', { name: 'Campaign: Spring sale' }).waitFor();
    await expect.poll(() => campaignRows().count()).toBe(5);
    // Names beside numbers.
    const ada = campaignRows().filter({ hasText: '+447700900301' });
    expect(await ada.textContent()).toContain('Ada Lovelace');
    // The counts are the rows': 2 failed buttons-as-filter show exactly those 2 rows.
    await page.getByRole('button', { name: '2 failed' }).click();
    await expect.poll(() => campaignRows().count()).toBe(2);
    expect(await campaignRows().first().textContent()).toMatch(/receipt: .*\(code \d+\)/);
    await page.getByRole('button', { name: 'All 5' }).click();
    expect(await page.getByTestId('campaign-progress').textContent()).toBe('5 of 5 recipients answered');

    // One failing number opts out (a STOP) while the view is open: the resend still leaves it out.
    await page.evaluate(() => window.messenger!.optouts.add(['447911200000']));
    await page.getByRole('button', { name: 'Resend to failed (2)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Resend to failed recipients?' });
    await dialog.waitFor();
    const text = (await dialog.textContent()) ?? '';
    expect(text).toContain('Send the message again to 2 failed recipients?');
    expect(text).toContain('1 message (1 part each)'); // the estimate: the opted-out one not counted
    expect(text).toContain('1 number on the opt-out list will be left out');
    await dialog.getByRole('button', { name: 'Resend' }).click();
    await page.getByText(/Resent as send #\d+ \(1 opted-out number left out\)/).waitFor();
    // The resent row follows live: a second send to it (it fails again: the sandbox fails 0000).
    const zed = campaignRows().filter({ hasText: 'Zed Failing' });
    await expect
      .poll(async () => (await zed.locator('td').last().textContent())?.trim(), { timeout: 20_000 })
      .toBe('2');
    await expect.poll(() => zed.getAttribute('data-group'), { timeout: 20_000 }).toBe('failed');
    // The opted-out row says so and is no longer counted for a resend: only Zed is.
    const stopped = campaignRows().filter({ hasText: '+447911200000' });
    expect(await stopped.textContent()).toContain('On the opt-out list: never sent to again.');
    await page.getByRole('button', { name: 'Resend to failed (1)' }).waitFor();
    // Search by name; the CSV has every row with its name, reason and number of sends.
    await page.getByRole('searchbox', { name: 'Find a recipient' }).fill('ada');
    await expect.poll(() => campaignRows().count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Find a recipient' }).fill('');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`campaign-${sent.job.id}.csv`);
    const csv = readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(csv[0]).toBe('number,status,report,report text,receipt,message id,name,why,attempts,opted out');
    expect(
      csv.filter((l) => l.startsWith('447700900301,delivered,') && l.includes('Ada Lovelace')),
    ).toHaveLength(1);
    expect(csv.find((l) => l.startsWith('447700900000,'))).toMatch(/,Zed Failing,.*,2,$/);
    expect(csv.find((l) => l.startsWith('447911200000,'))).toMatch(/,1,yes$/);
    const gateway = await page.evaluate(() => window.messenger!.outbox.jobs());
    // One resend, to the one failed number that did not opt out; no conversation per recipient.
    const resends = gateway.filter((j) => j.resendOf === sent.job.id);
    expect(resends.map((j) => j.recipientCount)).toEqual([1]);
    const peers = await page.evaluate(async () =>
      (await window.messenger!.inbox.conversations({ limit: 500 })).items.map((c) => c.peer),
    );
    expect(peers.filter((p) => numbers.includes(p))).toEqual([]);

    await page.setViewportSize({ width: 720, height: 480 });
    // Nothing spills sideways at 720 px: the page and the table fit (once the sidebar has collapsed).
    await expect
      .poll(() =>
        page.evaluate(() => {
          const t = document.querySelector('[data-testid="campaign-recipients"]')!;
          const view = document.querySelector('.view.campaign')!;
          return [
            document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1,
            t.scrollWidth <= view.clientWidth + 1,
          ];
        }),
      )
      .toEqual([true, true]);
    await shoot(page, 'campaign');
    await page.getByRole('button', { name: '2 failed' }).click();
    await shoot(page, 'campaign-failed');
    await page.getByRole('button', { name: 'All 5' }).click();
    await page.setViewportSize({ width: 1024, height: 720 });
    await page.getByRole('button', { name: '← History' }).click();
    await page.getByRole('heading', { name: 'History' }).waitFor();
    expect(browser.pageErrors).toEqual([]);
  });

  it('an interrupted send: unknown rows say why, pending looks different, Continue sending skips an opt-out', async () => {
    await history();
    const item = page.getByRole('listitem').filter({ hasText: 'Interrupted campaign' });
    await item.getByRole('button', { name: /Interrupted campaign/ }).click();
    // History's own table says why too.
    const detail = item.locator('tbody tr').filter({ hasText: '+447700900601' });
    expect(await detail.textContent()).toMatch(
      /may have reached the gateway.*connection reset.*can't go twice/,
    );
    await item.getByRole('button', { name: 'Open campaign' }).click();
    await page.getByRole('heading', { name: 'Campaign: Interrupted campaign' }).waitFor();
    await expect.poll(() => campaignRows().count()).toBe(5);
    const unknown = campaignRows().filter({ hasText: '+447700900601' });
    const pending = campaignRows().filter({ hasText: '+447700900603' });
    expect(await unknown.textContent()).toContain("Not re-sent, so it can't go twice");
    expect(await pending.textContent()).toContain('Never requested');
    // Not colour alone: the words differ and so does the shape (dashed outline vs filled with "?").
    const look = (row: typeof unknown) =>
      row
        .locator('.pill')
        .first()
        .evaluate((el) => {
          const s = getComputedStyle(el);
          return {
            text: el.textContent,
            border: s.borderTopStyle,
            fill: s.backgroundColor,
            mark: getComputedStyle(el, '::after').content,
          };
        });
    const u = await look(unknown);
    const p = await look(pending);
    expect(u.text).toBe('unknown');
    expect(p.text).toBe('pending');
    expect(u.border).toBe('solid');
    expect(p.border).toBe('dashed');
    expect(u.mark).toBe('" ?"');
    expect(u.fill).not.toBe(p.fill);
    expect(await page.getByTestId('campaign-progress').textContent()).toBe('2 of 5 recipients answered');
    await page.setViewportSize({ width: 720, height: 480 });
    await shoot(page, 'campaign-interrupted');
    await page.setViewportSize({ width: 1024, height: 720 });

    // A never-requested number opts out after the send was journaled: Continue sending skips it.
    await page.evaluate(() => window.messenger!.optouts.add(['447700900605']));
    await page.getByRole('button', { name: 'Continue sending (3)' }).click();
    await page
      .getByText(
        'Continuing: 2 recipients never requested; 1 number left out (opted out since the send was made)',
      )
      .waitFor();
    // The progress follows the journal, live.
    await expect
      .poll(() => page.getByTestId('campaign-progress').textContent(), { timeout: 20_000 })
      .toBe('5 of 5 recipients answered');
    expect(await campaignRows().filter({ hasText: '+447700900605' }).textContent()).toContain('opted out');
    // The unknown ones were not sent again.
    expect(await unknown.getAttribute('data-group')).toBe('unknown');
    const handsets = await page.evaluate(async () =>
      (await window.messenger!.sandbox.outbound({ limit: 1000 })).items.map((p) => p.recipient),
    );
    expect(handsets.filter((n) => n === '447700900601' || n === '447700900605')).toEqual([]);
    expect(handsets).toContain('447700900603');
    expect(browser.pageErrors).toEqual([]);
  });

  it('Compose’s results show a contact’s name beside the number; the summary counts those rows', async () => {
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    await page.keyboard.press('Control+n');
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    await entry.fill('+447700900301');
    await entry.press('Enter');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Hello Ada');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const row = page.getByTestId('send-results').locator('tbody tr').first();
    await row.locator('[data-status="accepted"], [data-status="delivered"]').waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toContain('Ada Lovelace');
    await page
      .getByTestId('row-summary')
      .filter({ hasText: /^1 recipient: 1 (accepted|delivered)$/ })
      .waitFor();
    expect(await page.getByTestId('send-outcome').textContent()).toMatch(
      /^All 1 recipient (accepted|delivered)/,
    );
    expect(browser.pageErrors).toEqual([]);
  });

  it('the virtual phone shows a contact’s name beside the handset number', async () => {
    await page.getByRole('button', { name: 'Virtual phone' }).click();
    const handset = page.getByRole('button', { name: /Ada Lovelace/ });
    await handset.waitFor({ timeout: 20_000 });
    expect(await handset.textContent()).toContain('+447700900301');
    await handset.click();
    await page.getByRole('region', { name: 'Handset +447700900301' }).getByText('Ada Lovelace').waitFor();
    expect(browser.pageErrors).toEqual([]);
  });
});
