// End to end, the update flow as a user meets it: the operator stores a newer release in the
// sandbox gateway (`gateway/cli.ts release set`), the web shell (a child process trusting the test
// CA through NODE_EXTRA_CA_CERTS) checks MobileMessengerVersion at start, the banner shows the
// version, the release date in local time and the notice; Download shows a progress bar, Cancel
// leaves nothing behind, a second Download finishes and the saved path is shown. The download
// comes from a local HTTPS server on 127.0.0.1 (the sandbox gateway's host, so it is allowed). When
// the gateway later offers nothing newer, a check makes the banner leave. Issue 23: the release is
// signed (a key made here, pinned by a deploy policy file) and the banner says "signature verified";
// the same file offered again as a newer version is refused with the reason.
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  HAS_CHROMIUM,
  openBrowser,
  ROOT,
  shoot as shootPage,
  startShell,
  stopShell,
  type Shell,
} from './support.ts';
import {
  makeTestCert,
  payload,
  serveSlowly,
  startHttpsServer,
  type TestHttpsServer,
} from '../support/https-server.ts';
import { rawPublicKey, signedStatement } from '../../main/services/update-signature.ts';

const BODY = payload(3 * 1024 * 1024);

describe.skipIf(!HAS_CHROMIUM)(
  'update banner and download (web shell + Chromium)',
  { timeout: 60_000 },
  () => {
    let tmp: string;
    let downloads: string;
    let server: TestHttpsServer;
    let shell: Shell;
    let context: BrowserContext;
    let page: Page;
    let pageErrors: string[] = [];
    let data: string;

    /** What an operator does: store the release the sandbox gateway serves (gateway/cli.ts release set). */
    const setRelease = (version: string, url: string): void => {
      execFileSync(join(ROOT, 'node_modules/.bin/node'), [
        join(ROOT, 'gateway/cli.ts'),
        'release',
        'set',
        '--data',
        join(data, 'sandbox-gateway'),
        '--release-version',
        version,
        '--release-url',
        url,
        '--release-notice',
        'Scheduled sends and a new inbox.',
        '--release-date',
        '2026-11-20T09:30:00Z',
      ]);
    };

    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'messenger-e2e-updates-'));
      downloads = join(tmp, 'Downloads');
      mkdirSync(downloads);
      const cert = makeTestCert(tmp);
      // About 4 s per download: long enough to see the bar and to cancel.
      // The publisher: a key of this test, pinned by the deploy policy as an administrator would.
      const publisher = generateKeyPairSync('ed25519');
      const sig = sign(
        null,
        signedStatement({
          sha512: createHash('sha512').update(BODY).digest(),
          version: '9.1.0',
          name: 'Messenger-9.1.0.AppImage',
        }),
        publisher.privateKey,
      ).toString('base64');
      const policy = join(tmp, 'policy.json');
      writeFileSync(policy, JSON.stringify({ updates: { publicKeys: [rawPublicKey(publisher.publicKey)] } }));
      server = await startHttpsServer(cert, (req, res) => {
        if (req.url === '/releases/Messenger-9.1.0.AppImage') serveSlowly(res, BODY, 40, 100);
        else if (req.url === '/releases/Messenger-9.1.0.AppImage.sig') res.writeHead(200).end(sig);
        else res.writeHead(404).end();
      });
      data = join(tmp, 'data');
      setRelease('9.1.0', `${server.origin}/releases/Messenger-9.1.0.AppImage`);
      shell = await startShell(data, {
        args: ['--downloads', downloads],
        env: { NODE_EXTRA_CA_CERTS: cert.certFile, MESSENGER_POLICY: policy },
      });
      ({ context, page, pageErrors } = await openBrowser(join(tmp, 'profile'), {
        viewport: { width: 1280, height: 720 },
        locale: 'en-GB',
        timezoneId: 'Europe/Berlin',
      }));
      await page.goto(shell.url);
    }, 180_000);

    afterAll(async () => {
      if (pageErrors.length) console.error('page errors:', pageErrors);
      await context?.close();
      if (shell) await stopShell(shell);
      await server?.close();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    const shoot = (name: string) => shootPage(page, name);
    const banner = () => page.getByRole('region', { name: 'Update available' });

    it('shows the newer version with its release date in local time and its notice', async () => {
      await banner().waitFor({ timeout: 20_000 });
      const text = (await banner().textContent()) ?? '';
      expect(text).toContain('Version 9.1.0 is available');
      // 09:30 UTC is 10:30 in Berlin (the browser's time zone).
      expect(text).toContain('20 Nov 2026, 10:30');
      expect(text).toContain('Scheduled sends and a new inbox.');
      await shoot('update-banner');
    });

    it('downloads with a progress bar; Cancel (by keyboard) leaves nothing in Downloads', async () => {
      await banner().getByRole('button', { name: 'Download' }).focus();
      await page.keyboard.press('Enter');
      const bar = banner().getByRole('progressbar', { name: 'Download progress' });
      await bar.waitFor();
      await expect
        .poll(async () => Number((await bar.getAttribute('value')) ?? 0), { timeout: 10_000 })
        .toBeGreaterThan(0);
      expect(await bar.getAttribute('max')).toBe(String(BODY.length));
      await expect.poll(() => page.getByTestId('download-percent').textContent()).toMatch(/^\d+ % \(/);
      await shoot('update-progress');
      expect(readdirSync(downloads)).toEqual(['Messenger-9.1.0.AppImage.part']);
      // Focus moved from the vanished Download button to Cancel.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel download');
      await page.keyboard.press('Enter');
      await banner().getByText('Download cancelled; nothing was kept.').waitFor();
      await banner().getByRole('button', { name: 'Try again' }).waitFor();
      expect(readdirSync(downloads)).toEqual([]);
    });

    it('a second Download finishes and shows where the file was saved', async () => {
      await banner().getByRole('button', { name: 'Try again' }).click();
      await banner().getByRole('progressbar', { name: 'Download progress' }).waitFor();
      const path = page.getByTestId('download-path');
      await path.waitFor({ timeout: 30_000 });
      const saved = join(downloads, 'Messenger-9.1.0.AppImage');
      expect(await path.textContent()).toBe(saved);
      expect(await banner().textContent()).toContain('Version 9.1.0 downloaded');
      expect(await banner().textContent()).toContain('signature verified');
      expect(readdirSync(downloads)).toEqual(['Messenger-9.1.0.AppImage']);
      expect(readFileSync(saved).equals(BODY)).toBe(true);
      // The web shell cannot open files: no Open button, the path is the way to the file.
      expect(await banner().getByRole('button', { name: 'Open' }).count()).toBe(0);
      await shoot('update-done');
      expect(pageErrors).toEqual([]);
    });

    it('a newer release with an http URL is refused with a clear error, nothing downloaded', async () => {
      setRelease('9.2.0', `http://127.0.0.1:${server.port}/releases/Messenger-9.1.0.AppImage`);
      // "Check for updates" (the Account view; the Electron menu does the same): the banner follows.
      await page.getByRole('button', { name: 'Account', exact: true }).click();
      await page.getByRole('button', { name: 'Check for updates' }).click();
      await page.getByText('Version 9.2.0 is available.').waitFor();
      await banner().getByText('Version 9.2.0 is available').waitFor();
      await banner().getByRole('button', { name: 'Download' }).click();
      const alert = banner().getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(
        /^Download failed: .*only https downloads are allowed, not http/,
      );
      await banner().getByRole('button', { name: 'Try again' }).waitFor();
      await shoot('update-refused');
      expect(readdirSync(downloads)).toEqual(['Messenger-9.1.0.AppImage']);
    });

    it('the signed 9.1.0 offered again as 9.3.0 is refused: its signature names 9.1.0', async () => {
      setRelease('9.3.0', `${server.origin}/releases/Messenger-9.1.0.AppImage`);
      await page.getByRole('button', { name: 'Check for updates' }).click();
      await banner().getByText('Version 9.3.0 is available').waitFor();
      await banner().getByRole('button', { name: 'Download' }).click();
      const alert = banner().getByRole('alert');
      await alert.waitFor({ timeout: 30_000 });
      expect(await alert.textContent()).toMatch(/does not match the file, its version 9\.3\.0/);
      await shoot('update-replay-refused');
      // the one file there is the 9.1.0 kept before; nothing of the replay
      expect(readdirSync(downloads)).toEqual(['Messenger-9.1.0.AppImage']);
    });

    it('the banner leaves when a later check finds nothing newer (the offer was withdrawn)', async () => {
      await banner().waitFor();
      setRelease('0.0.1', `${server.origin}/releases/Messenger-9.1.0.AppImage`);
      await page.getByRole('button', { name: 'Check for updates' }).click();
      await page.getByText('Up to date (0.0.1).').waitFor();
      await banner().waitFor({ state: 'detached' });
      await shoot('update-withdrawn');
      expect(pageErrors).toEqual([]);
    });
  },
);
