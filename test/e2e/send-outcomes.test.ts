// End to end (issue 25 item 4): Compose's result headline says what happened, in the real web shell
// with Debian's Chromium against the reference gateway (behind a front that can drop requests or go
// away): a send to a server book alone finishes; a scheduled send says "Scheduled for …"; answers
// that never came are "unknown"; an account with credit for 2 of 4 gets "2 accepted, 2 failed: out of
// credit" with "Resend to failed" right there, and History and the campaign view say the same words;
// with the gateway down every recipient failed. Never "Sent." or a full bar when anything failed.
// Screenshots (light/dark, 720×480 and 1280×800) go to test-results/ as outcome-*.png.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { startFrontGateway, type FrontControl, type FrontGateway } from '../support/front-gateway.ts';
import { HAS_CHROMIUM, openBrowser, pasteText, shoot, startShell, stopShell, type Shell } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)(
  'the outcome of a send, in words (web shell + Chromium)',
  { timeout: 120_000 },
  () => {
    let tmp: string;
    let gateway: TestGateway;
    let front: FrontGateway;
    const control: FrontControl = { answer: null, probes: 0 };
    let shell: Shell;
    let context: BrowserContext;
    let page: Page;
    let errors: string[];

    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'messenger-e2e-outcomes-'));
      gateway = await startTestGateway();
      front = await startFrontGateway(gateway.url, control);
      shell = await startShell(join(tmp, 'data'), { sandbox: false });
      ({ context, page, pageErrors: errors } = await openBrowser(join(tmp, 'profile')));
      await page.goto(shell.url);
    }, 180_000);

    afterAll(async () => {
      if (errors?.length) console.error('page errors:', errors);
      await context?.close();
      if (shell) await stopShell(shell);
      await front?.close().catch(() => undefined);
      await gateway?.close();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    const signIn = async (username: string, pin: string): Promise<void> => {
      await page.evaluate(
        (r) => window.messenger!.accounts.signIn({ ...r, rememberPin: false, acceptInsecureGateway: true }),
        { username, pin, primaryUrl: front.url },
      );
      await page.getByRole('button', { name: 'Compose', exact: true }).waitFor({ timeout: 20_000 });
    };
    const outcome = () => page.getByTestId('send-outcome');
    /** Compose emptied, the chips and the text, Send, "Send to all anyway" when the credit is short. */
    async function send(recipients: string, text: string, before?: () => Promise<void>): Promise<string> {
      await page.getByRole('button', { name: 'Compose', exact: true }).click();
      await page.keyboard.press('Control+n');
      const entry = page.getByRole('combobox', { name: 'To', exact: true });
      if (recipients.includes('::')) {
        // A server book is picked as a token, typed and entered, once the account's books are read.
        await page
          .locator(`#recipient-suggestions option[value="${recipients}"]`)
          .waitFor({ state: 'attached', timeout: 15_000 });
        await entry.fill(recipients);
        await entry.press('Enter');
      } else {
        await entry.focus();
        await pasteText(page, recipients);
      }
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
      await before?.();
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const anyway = page.getByRole('button', { name: 'Send to all anyway' });
      await Promise.race([
        anyway.waitFor({ timeout: 20_000 }).then(() => anyway.click()),
        outcome().waitFor(),
      ]);
      // Finished: the headline is no longer "Sending…".
      await expect
        .poll(() => outcome().getAttribute('data-tone'), { timeout: 30_000 })
        .not.toMatch(/^(progress|null)$/);
      return (await outcome().textContent()) ?? '';
    }
    const barParts = () =>
      page
        .locator('.results .outcome-bar .part')
        .evaluateAll((ps) => ps.map((p) => p.getAttribute('data-part')));
    async function shots(name: string): Promise<void> {
      for (const [w, h] of [
        [720, 480],
        [1280, 800],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        // Compose scrolls its result into view when a send finishes, at the size it had then.
        const result = page.locator('.send-outcome').first();
        if ((await result.count()) > 0) await result.scrollIntoViewIfNeeded();
        await shoot(page, `outcome-${name}-${w}x${h}`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    it('a send to a server book alone finishes like any other', async () => {
      await signIn(gateway.username, gateway.pin);
      // Friends::Team reaches two members (gateway/demo.ts); no number of its own.
      await page
        .locator('#recipient-suggestions option[value="Friends::Team"]')
        .waitFor({ state: 'attached', timeout: 15_000 });
      const headline = await send('Friends::Team', 'Book only');
      expect(headline).toBe('All 2 recipients accepted');
      expect(await page.getByText(/Sending to/).count()).toBe(0);
      // No numbers of its own: no empty "0 recipients" table under the book's line.
      expect(await page.getByTestId('row-summary').count()).toBe(0);
      expect(await page.getByTestId('send-results').count()).toBe(0);
      await shots('book');
    });

    it('a scheduled send says "Scheduled for …"', async () => {
      const headline = await send('+447700900501, +447700900502', 'Later', async () => {
        await page.locator('.options label', { hasText: /^Send/ }).locator('select').selectOption('delay');
        await page.getByLabel('Minutes').fill('90');
      });
      expect(headline).toMatch(/^Scheduled for .+: all 2 recipients were accepted by the gateway$/);
      expect(await outcome().getAttribute('data-tone')).toBe('scheduled');
      await shots('scheduled');
      // History says the same.
      await page.getByRole('button', { name: 'History' }).click();
      const job = page.getByRole('listitem').filter({ hasText: 'Later' }).first();
      await expect.poll(() => job.getByTestId('job-outcome').textContent()).toBe(headline);
      await shots('history-scheduled');
    });

    it('answers that never came are unknown, not sent', async () => {
      control.intercept = (path) => (path.includes('sendsms') ? 'drop' : 'pass');
      const headline = await send('+447700900511, +447700900512', 'Dropped');
      control.intercept = undefined;
      expect(headline).toMatch(/^Outcome unknown for all 2: /);
      // The cause the journal recorded: the connection dropped, not "the app stopped".
      expect(headline).toContain('the connection to the gateway dropped after the request was sent');
      expect(await barParts()).toEqual(['unknown']);
      expect(await page.getByRole('button', { name: /Resend to failed/ }).count()).toBe(0);
      expect(await page.getByTestId('sent-lock').textContent()).not.toContain('Sent.');
      await shots('unknown');
      // History's banner and the send's line give the same cause.
      await page.getByRole('button', { name: 'History' }).click();
      const banner = page.getByTestId('unknown-banner');
      await banner.waitFor();
      expect(await banner.textContent()).toMatch(
        /^1 batch: the connection to the gateway dropped after the request was sent; the outcome is unknown\./,
      );
      expect(await banner.textContent()).not.toContain('app stopped');
      const job = page.getByRole('listitem').filter({ hasText: 'Dropped' }).first();
      await expect.poll(() => job.getByTestId('job-outcome').textContent()).toBe(headline);
      await shots('history-unknown');
    });

    it('out of credit: how many went and why the rest failed, Resend to failed right there, the same words in History and the campaign', async () => {
      const low = gateway.addAccount({ credit: '0.08' }); // two messages at the Default price
      await signIn(low.username, low.pin);
      const headline = await send('+447700900521, +447700900522, +447700900523, +447700900524', 'Four');
      expect(headline).toBe('2 accepted, 2 failed: out of credit');
      expect(await barParts()).toEqual(['accepted', 'failed']);
      const resend = page.getByRole('button', { name: 'Resend to failed (2)' });
      await resend.waitFor();
      await shots('partial');

      await page.getByRole('button', { name: 'History' }).click();
      const job = page.getByRole('listitem').filter({ hasText: 'Four' }).first();
      expect(await job.getByTestId('job-outcome').textContent()).toMatch(/^2 accepted, 2 failed/);
      await job.getByRole('button', { expanded: false }).first().click();
      await expect.poll(() => job.getByTestId('send-outcome').textContent()).toBe(headline);
      await shots('history-partial');
      await job.getByRole('button', { name: 'Open campaign' }).click();
      await expect.poll(() => page.getByTestId('campaign-outcome').textContent()).toBe(headline);
      await shots('campaign-partial');
    });

    it('with the gateway down every recipient failed, said so', async () => {
      await front.close();
      const headline = await send('+447700900531, +447700900532', 'Down');
      expect(headline).toMatch(/^Not sent: all 2 failed/);
      expect(await barParts()).toEqual(['failed']);
      await page.getByRole('button', { name: 'Resend to failed (2)' }).waitFor();
      await shots('all-failed');
      expect(errors).toEqual([]);
    });
  },
);
