// The inbox's windowing list keeps 100,000 rows scrollable: only the visible rows are in the DOM,
// scrolling to any offset shows the right rows, and scroll frames stay short. The harness page
// (test/e2e/harness) is bundled with vite's build API and served from 127.0.0.1.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = resolve(import.meta.dirname, '..', '..');

describe.skipIf(!existsSync(CHROMIUM))(
  'VirtualList with 100,000 rows (Chromium)',
  { timeout: 60_000 },
  () => {
    let out: string;
    let server: Server;
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      out = mkdtempSync(join(tmpdir(), 'vlist-'));
      const vite = await import('vite');
      const react = (await import('@vitejs/plugin-react')).default;
      await vite.build({
        configFile: false,
        logLevel: 'warn',
        root: join(ROOT, 'test/e2e/harness'),
        base: './',
        plugins: [react()],
        build: { outDir: out, emptyOutDir: true },
      });
      const types: Record<string, string> = {
        '.html': 'text/html',
        '.js': 'text/javascript',
        '.css': 'text/css',
      };
      server = createServer((req, res) => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        const file = resolve(out, `.${path === '/' ? '/index.html' : path}`);
        if (!file.startsWith(out) || !existsSync(file)) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
        res.end(readFileSync(file));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      });
      page = await browser.newPage({ viewport: { width: 800, height: 700 } });
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await page.getByRole('list', { name: 'Conversations' }).waitFor();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((r) => (server ? server.close(r) : r(undefined)));
      if (out) rmSync(out, { recursive: true, force: true });
    });

    it('renders only a window of rows and reaches the last row', async () => {
      const list = page.getByRole('list', { name: 'Conversations' });
      const rows = list.getByRole('listitem');
      expect(await rows.count()).toBeLessThan(60);
      expect(await list.evaluate((el) => el.scrollHeight)).toBe(100_000 * 64);
      await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
      await list.getByText('Conversation 99999', { exact: true }).waitFor();
      expect(await rows.count()).toBeLessThan(60);
      await list.evaluate((el) => (el.scrollTop = 50_000 * 64));
      await list.getByText('Conversation 50000', { exact: true }).waitFor();
    });

    it('scrolls smoothly: 200 scroll steps through the list keep frames short', async () => {
      const worst = await page.evaluate(async () => {
        const el = document.querySelector('[aria-label="Conversations"]') as HTMLElement;
        el.scrollTop = 0;
        let worstMs = 0;
        for (let i = 0; i < 200; i++) {
          const t0 = performance.now();
          el.scrollTop += 3_000;
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          worstMs = Math.max(worstMs, performance.now() - t0);
        }
        return worstMs;
      });
      // Two animation frames are ~33 ms; a list that rendered every row would take seconds. The
      // bound is loose for a loaded 2-core CI machine.
      expect(worst).toBeLessThan(250);
    });
  },
);
