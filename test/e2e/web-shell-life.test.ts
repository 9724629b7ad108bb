// End to end (issue 13): the web shell's life as a browser tab sees it. The start-up output names
// the sandbox gateway (where replies are played); a tab whose shell stopped explains what happened
// and how to reopen; after a restart on the same port, a reload with the earlier run's cookie gets
// a page that says to open the new URL (not a bare "Forbidden").
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_NUMBER } from '../../gateway/demo.ts';
import { HAS_CHROMIUM, openBrowser, ROOT, shoot, type AppBrowser } from './support.ts';

interface Run {
  child: ChildProcess;
  url: string;
  lines: string[];
}

/** The web shell on `port` (0: any), with every line of its output kept. */
async function run(dataDir: string, port: number): Promise<Run> {
  const child = spawn(
    join(ROOT, 'node_modules/.bin/node'),
    ['main/web.ts', '--port', String(port), '--data', dataDir, '--sandbox'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  const err: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (d: string) => err.push(d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL line:\n${err.join('')}`)), 150_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const m = /^URL: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/.exec(line);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${err.join('')}`)));
  });
  return { child, url, lines };
}

async function stop(r: Run): Promise<void> {
  if (r.child.exitCode !== null || r.child.signalCode !== null) return;
  const exited = new Promise((res) => r.child.once('exit', res));
  r.child.kill('SIGTERM');
  await exited;
}

describe.skipIf(!HAS_CHROMIUM)('web shell life (issue 13)', { timeout: 120_000 }, () => {
  const tmp = mkdtempSync(join(tmpdir(), 'messenger-e2e-life-'));
  const runs: Run[] = [];
  let browser: AppBrowser | undefined;
  afterAll(async () => {
    await browser?.context.close();
    for (const r of runs) await stop(r);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('names the sandbox gateway, explains a lost shell, and sends a stale tab to the new URL', async () => {
    const first = await run(join(tmp, 'data'), 0);
    runs.push(first);
    // The sandbox line follows the URL line.
    await expect
      .poll(() => first.lines.find((l) => l.startsWith('Sandbox gateway: ')), { timeout: 10_000 })
      .toBeTruthy();
    const line = first.lines.find((l) => l.startsWith('Sandbox gateway: '))!;
    const gateway =
      /^Sandbox gateway: (http:\/\/127\.0\.0\.1:\d+) \(play a reply: POST \1\/sandbox\/inbound\)$/.exec(
        line,
      )?.[1];
    expect(gateway, line).toBeDefined();
    const res = await fetch(`${gateway}/sandbox/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: new URLSearchParams({ SendTo: DEMO_NUMBER, ReplyTo: '447700900501', Message: 'hi' }).toString(),
    });
    expect(res.status).toBe(200);

    browser = await openBrowser(join(tmp, 'profile'), { viewport: { width: 720, height: 480 } });
    const { page } = browser;
    await page.goto(first.url);
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });

    // The shell stops: first "reconnecting", then what happened and how to reopen.
    const port = Number(new URL(first.url).port);
    await stop(first);
    const banner = page.getByTestId('connection-lost');
    await banner.getByText('Connection to the app lost — reconnecting…').waitFor({ timeout: 10_000 });
    await banner.getByText('The Messenger web shell has stopped or restarted.').waitFor({ timeout: 10_000 });
    expect(await banner.textContent()).toContain('npm run web');
    await shoot(page, 'web-shell-lost');

    // A new run on the same port: this tab's session (issue 17: no cookie) is the earlier run's, so
    // the page loads and says what happened and how to get in.
    const second = await run(join(tmp, 'data'), port);
    runs.push(second);
    expect(second.url).not.toBe(first.url);
    await page.goto(`http://127.0.0.1:${port}/`);
    const stale = page.getByTestId('connection-lost');
    await stale.getByText('The Messenger web shell has stopped or restarted.').waitFor({ timeout: 15_000 });
    expect(await stale.textContent()).toContain('open the new URL');
    await shoot(page, 'web-shell-stale-tab');
    // The new URL opens the app.
    await page.goto(second.url);
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
  });
});
