// The web shell over real HTTP and WebSocket on loopback: the API needs the one-time URL token,
// exchanged once for a per-tab session in the WebSocket handshake (no cookie; issue 17), Host and
// Origin are checked, a call round trip, a bad argument answered with code bad-argument, and events
// pushed to the socket.
import { copyFile, mkdtemp, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildRenderer, rendererStale, startWebShell } from '../../../main/web.ts';
import type { WebShell } from '../../../main/web.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function shell(withPage = true): Promise<WebShell> {
  const dir = await mkdtemp(join(tmpdir(), 'messenger-web-'));
  const staticDir = join(dir, 'renderer');
  await mkdir(join(staticDir, 'assets'), { recursive: true });
  if (withPage) {
    await writeFile(
      join(staticDir, 'index.html'),
      '<!doctype html><title>Messenger</title><script src="assets/app.js"></script>',
    );
    await writeFile(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  }
  const s = await startWebShell({ dataDir: join(dir, 'data'), port: 0, staticDir, log: () => {}, env: {} });
  cleanups.push(async () => {
    await s.close();
    await rm(dir, { recursive: true, force: true });
  });
  return s;
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const sessions = new WeakMap<WebSocket, Promise<Record<string, unknown>>>();
const firstMessage = (ws: WebSocket): Promise<Record<string, unknown>> => sessions.get(ws)!;

/** The handshake's secret as the page's bridge offers it (renderer/bridge/web.ts). */
const byToken = (t: string): string[] => ['messenger', `messenger.token.${t}`];
const bySession = (s: string): string[] => ['messenger', `messenger.session.${s}`];

function connect(
  url: string,
  headers: Record<string, string> = {},
  protocols: string[] = [],
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    // The session the app gives for a token comes right after the handshake: caught from the start.
    sessions.set(
      ws,
      new Promise((r) => ws.once('message', (d) => r(JSON.parse(d.toString()) as Record<string, unknown>))),
    );
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function rpc(ws: WebSocket, id: number, channel: string, arg?: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const msg = JSON.parse(data.toString()) as Record<string, unknown>;
      if (msg.id === id) {
        ws.off('message', onMessage);
        resolve(msg);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify(arg === undefined ? { id, channel } : { id, channel, arg }));
  });
}

describe('web shell', () => {
  it('prints a loopback URL with a token; the API refuses every connection without a secret', async () => {
    const s = await shell();
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    const host = { host: `127.0.0.1:${s.port}` };
    // The page and its assets are the public renderer bundle: served, but no cookie is ever set.
    const page = await get(s.port, `/?token=${s.token}`, host);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Messenger</title>');
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'.*script-src 'self'/);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['set-cookie']).toBeUndefined();
    const asset = await get(s.port, '/assets/app.js', host);
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['set-cookie']).toBeUndefined();
    const api = `ws://127.0.0.1:${s.port}/api`;
    await expect(connect(api)).rejects.toThrow(/403/);
    await expect(connect(`${api}?token=${s.token}`)).rejects.toThrow(/403/); // not in the query
    await expect(connect(api, { cookie: `messenger_token=${s.token}` })).rejects.toThrow(/403/);
    await expect(connect(api, {}, byToken('nope'))).rejects.toThrow(/403/);
    const escape = await get(s.port, '/..%2f..%2f..%2fetc%2fpasswd', host);
    expect(escape.status).toBe(404);
    expect(escape.body).not.toMatch(/root:/);
    // Issue 23: a malformed escape is the request's fault: 400, and the shell keeps serving.
    expect((await get(s.port, '/%E0%A4%A', host)).status).toBe(400);
    expect((await get(s.port, '/assets/app.js', host)).status).toBe(200);
  });

  it('issue 13 with issue 17: a page load of an earlier run is served (no secret, no cookie); its stale session is refused at the API, where the renderer explains it', async () => {
    const s = await shell();
    const host = { host: `127.0.0.1:${s.port}` };
    const stale = await get(s.port, '/', { ...host, cookie: 'messenger_token=of-an-earlier-run' });
    expect(stale.status).toBe(200);
    expect(stale.headers['set-cookie']).toBeUndefined();
    expect(stale.body).not.toContain(s.token);
    const ws = `ws://127.0.0.1:${s.port}/api`;
    await expect(connect(ws, {}, bySession('of-an-earlier-run'))).rejects.toThrow(/403/);
    await expect(connect(ws, {}, byToken('wrong'))).rejects.toThrow(/403/);
  });

  it('refuses a foreign Host or Origin (DNS rebinding) even with the token', async () => {
    const s = await shell();
    expect((await get(s.port, `/?token=${s.token}`, { host: `evil.example:${s.port}` })).status).toBe(403);
    expect(
      (
        await get(s.port, `/?token=${s.token}`, {
          host: `localhost:${s.port}`,
          origin: 'http://evil.example',
        })
      ).status,
    ).toBe(403);
    const ws = `ws://127.0.0.1:${s.port}/api`;
    await expect(connect(ws, { origin: 'http://evil.example' }, byToken(s.token))).rejects.toThrow(/403/);
    await expect(connect(ws)).rejects.toThrow(/403/);
    // The refused attempt did not spend the token.
    (await connect(ws, {}, byToken(s.token))).close();
  });

  it('exchanges the URL token once for a per-tab session; the token is worthless afterwards', async () => {
    const s = await shell();
    const api = `ws://127.0.0.1:${s.port}/api`;
    const first = await connect(api, { origin: `http://127.0.0.1:${s.port}` }, byToken(s.token));
    const given = await firstMessage(first);
    expect(given.session).toMatch(/^[\w-]{43}$/);
    expect(first.protocol).toBe('messenger');
    first.close();
    // The token from the browser history (or a port-scanning neighbour that saw it): refused.
    await expect(connect(api, {}, byToken(s.token))).rejects.toThrow(/403/);
    // The tab's session reconnects (a dropped connection, a reload).
    const again = await connect(api, {}, bySession(String(given.session)));
    expect(await rpc(again, 1, 'accounts.current')).toEqual({ id: 1, ok: true, result: null });
    again.close();
    await expect(connect(api, {}, bySession('A'.repeat(43)))).rejects.toThrow(/403/);
  });

  it('answers calls over the WebSocket, refuses bad arguments and pushes events', async () => {
    const s = await shell();
    const ws = await connect(
      `ws://127.0.0.1:${s.port}/api`,
      { origin: `http://127.0.0.1:${s.port}` },
      byToken(s.token),
    );
    expect(await firstMessage(ws)).toHaveProperty('session');
    cleanups.push(async () => {
      ws.close();
    });
    const added = await rpc(ws, 1, 'contacts.add', { name: 'Alice', number: '+44 7700 900123' });
    expect(added.result).toMatchObject({ name: 'Alice', number: '447700900123' });
    const list = await rpc(ws, 2, 'contacts.list');
    expect((list.result as unknown[]).length).toBe(1);
    expect(await rpc(ws, 3, 'accounts.current')).toEqual({ id: 3, ok: true, result: null });

    const bad = await rpc(ws, 4, 'contacts.add', { name: 'Bob' });
    expect(bad.error).toMatchObject({ code: 'bad-argument', message: expect.stringMatching(/number/) });
    const unknown = await rpc(ws, 5, 'contacts.explode', 1);
    expect(unknown.error).toMatchObject({ code: 'unknown-channel' });
    const dup = await rpc(ws, 6, 'contacts.add', { name: 'Again', number: '07700 900123' });
    expect(dup.error).toMatchObject({ code: 'duplicate' });
    const notSignedIn = await rpc(ws, 7, 'credit.refresh');
    expect(notSignedIn.error).toMatchObject({ code: 'not-signed-in' });

    const event = new Promise<Record<string, unknown>>((resolve) => {
      ws.on('message', (data) => {
        const msg = JSON.parse(data.toString()) as Record<string, unknown>;
        if (msg.event !== undefined) resolve(msg);
      });
    });
    await rpc(ws, 8, 'settings.update', { pollIntervalSeconds: 60 });
    expect(await event).toMatchObject({ event: 'settings:changed', payload: { pollIntervalSeconds: 60 } });

    ws.send('not json');
    const garbage = await new Promise<Record<string, unknown>>((resolve) => {
      ws.once('message', (data) => resolve(JSON.parse(data.toString()) as Record<string, unknown>));
    });
    expect(garbage.error).toMatchObject({ code: 'bad-message' });
  });

  it('serves a clear 503 page while there is no built renderer', async () => {
    const s = await shell(false);
    const page = await get(s.port, `/?token=${s.token}`, { host: `localhost:${s.port}` });
    expect(page.status).toBe(503);
    expect(page.body).toMatch(/not available/);
  });
});

describe('npm run web -- --sandbox', () => {
  it('prints exactly one URL line, starts signed in to the local sandbox and stops on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'messenger-web-cli-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const child = spawn(
      process.execPath,
      [
        join(import.meta.dirname, '../../../main/web.ts'),
        '--sandbox',
        '--port',
        '0',
        '--data',
        dir,
        '--no-build',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MESSENGER_PIN: '' } },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    const firstLine = new Promise<string>((resolve) => {
      child.stdout.on('data', (c: string) => {
        stdout += c;
        if (stdout.includes('\n')) resolve(stdout.split('\n')[0] ?? '');
      });
    });
    const line = await firstLine;
    const m = /^URL: (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]{43}))$/.exec(line);
    expect(m).not.toBeNull();
    const ws = await connect(`ws://127.0.0.1:${m?.[2]}/api`, {}, byToken(m?.[3] ?? ''));
    expect(await firstMessage(ws)).toHaveProperty('session');
    const current = await rpc(ws, 1, 'accounts.current');
    expect(current.result).toMatchObject({ sandbox: true });
    const credit = await rpc(ws, 2, 'credit.refresh');
    expect(credit.result).toMatchObject({ currency: 'GBP' });
    ws.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // One URL line, then (issue 13) the sandbox gateway where replies are played.
    const lines = stdout.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('URL: '))).toEqual([line]);
    const gateway = (current.result as { primaryUrl: string }).primaryUrl;
    expect(lines.slice(1)).toEqual([
      `Sandbox gateway: ${gateway} (play a reply: POST ${gateway}/sandbox/inbound)`,
    ]);
  });
});

describe('renderer build', () => {
  it('builds a renderer with vite from electron.vite.config.ts and serves it under the CSP', async () => {
    const root = await mkdtemp(join(tmpdir(), 'messenger-build-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const repo = join(import.meta.dirname, '../../..');
    await copyFile(join(repo, 'electron.vite.config.ts'), join(root, 'electron.vite.config.ts'));
    await symlink(join(repo, 'node_modules'), join(root, 'node_modules'));
    await mkdir(join(root, 'renderer'));
    await writeFile(
      join(root, 'renderer', 'index.html'),
      '<!doctype html><html><head><title>Built</title></head><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>',
    );
    await writeFile(
      join(root, 'renderer', 'main.tsx'),
      "import { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')!).render(<p>hello</p>);\n",
    );
    const out = join(root, 'out', 'renderer');
    expect(rendererStale(join(root, 'renderer'), out)).toBe(true);
    await buildRenderer(() => {}, root);
    expect(rendererStale(join(root, 'renderer'), out)).toBe(false);
    // A production build even under this test runner's NODE_ENV=test: React without its
    // development build (jsxDEV, its warnings), as users run it.
    expect(process.env.NODE_ENV).toBe('test');
    const assets = await readdir(join(out, 'assets'));
    const code = (await Promise.all(assets.map((f) => readFile(join(out, 'assets', f), 'utf8')))).join('');
    expect(code).toContain('createRoot');
    expect(code).not.toMatch(/jsxDEV|react-dom\.development/);

    const s = await startWebShell({
      dataDir: join(root, 'data'),
      port: 0,
      staticDir: out,
      log: () => {},
      env: {},
    });
    cleanups.push(() => s.close());
    const host = { host: `127.0.0.1:${s.port}` };
    const page = await get(s.port, `/?token=${s.token}`, host);
    expect(page.status).toBe(200);
    const script = /src="\.?\/?(assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const js = await get(s.port, `/${script}`, host);
    expect(js.status).toBe(200);
    expect(js.body).toContain('hello');
  }, 60_000);
});
