// The web shell: `npm run web -- [--port P] [--data DIR] [--sandbox]`. The same services as the
// Electron app (createMessengerApp) behind a loopback-only HTTP + WebSocket bridge, serving the
// built renderer so the app runs in any browser. Wire protocol (the renderer's side is
// renderer/bridge/web.ts): JSON messages { id, channel, arg? } → { id, ...ApiEnvelope } — the
// { ok: true, result } | { ok: false, error: { code, message, problems? } } of
// preload/ipc-contract.ts, as Electron's IPC answers — and events { event, payload }.
//
// Security: 127.0.0.1 only; Host and Origin must name this loopback server (DNS-rebinding guard);
// strict CSP. The API (the WebSocket) needs a secret, never a cookie (issue 17: a cookie for
// 127.0.0.1 goes to every port of the host): the printed URL carries a random one-time token
// (32 bytes, base64url) that the page offers once in the WebSocket handshake (subprotocol
// "messenger.token.<t>") and exchanges for a per-tab session ("messenger.session.<s>", kept in the
// tab's sessionStorage); the URL token is then spent, so the copy in the browser history is
// worthless. The static files (the renderer bundle, no user data) need no secret.
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { createMessengerApp } from './services/app.ts';
import type { MessengerApp } from './services/app.ts';
import { ApiError, EVENT_CHANNELS, errorEnvelope, okEnvelope } from '../preload/ipc-contract.ts';
import type { ApiEnvelope } from '../preload/ipc-contract.ts';
import { STATIC_TYPES } from './web-types.ts';
import { RENDERER_OUT, RENDERER_SOURCE, buildRenderer, rendererStale } from './web-renderer.ts';

export { RENDERER_OUT, RENDERER_SOURCE, buildRenderer, rendererStale } from './web-renderer.ts';

/** The WebSocket subprotocol the bridge speaks; the secret rides as a second one (see above). */
const WS_PROTOCOL = 'messenger';
/** A CSV or vCard import travels in one message. */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export interface WebShellOptions {
  dataDir: string;
  /** 0 = ephemeral (default). */
  port?: number;
  sandbox?: boolean;
  /** Directory of the built renderer (default out/renderer). */
  staticDir?: string;
  /** Build the renderer when it is missing or older than its sources (default true). */
  build?: boolean;
  log?: (message: string) => void;
  /** Passed to createMessengerApp (tests). */
  sandboxReceiptDelayMs?: number;
  env?: Record<string, string | undefined>;
  /** Where update downloads go (default ~/Downloads); the page shows the saved path. */
  downloadsDir?: string;
  /** Issue 28: office mode on this PostgreSQL database (--office URL; docs/OFFICE.md). */
  office?: string;
}

export interface WebShell {
  url: string;
  port: number;
  token: string;
  app: MessengerApp;
  close(): Promise<void>;
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The secret offered in Sec-WebSocket-Protocol: `messenger.token.<t>` or `messenger.session.<s>`. */
function offeredSecret(header: string | undefined): { kind: 'token' | 'session'; value: string } | null {
  for (const p of (header ?? '').split(',')) {
    const m = /^messenger\.(token|session)\.([A-Za-z0-9_-]{1,100})$/.exec(p.trim());
    if (m) return { kind: m[1] as 'token' | 'session', value: m[2] ?? '' };
  }
  return null;
}

function unavailablePage(reason: string): string {
  const esc = reason.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Messenger — not available yet</title></head>
<body><h1>The Messenger user interface is not available</h1><p>${esc}</p>
<p>The services are running; this page works once the renderer is built (restart <code>npm run web</code>).</p></body></html>\n`;
}

export async function startWebShell(opts: WebShellOptions): Promise<WebShell> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const staticDir = resolve(opts.staticDir ?? RENDERER_OUT);
  let unavailable: string | null = null;
  if (opts.staticDir === undefined && (opts.build ?? true)) {
    if (!existsSync(join(RENDERER_SOURCE, 'index.html'))) {
      unavailable = 'renderer/index.html does not exist yet, so there is nothing to build.';
    } else if (rendererStale()) {
      try {
        await buildRenderer(log);
      } catch (err) {
        unavailable = `the renderer build failed: ${err instanceof Error ? err.message : String(err)}`;
        log(unavailable);
      }
    }
  }
  if (unavailable === null && !existsSync(join(staticDir, 'index.html'))) {
    unavailable = `${staticDir}/index.html does not exist.`;
  }

  const app = await createMessengerApp({
    dataDir: opts.dataDir,
    log,
    ...(opts.sandbox ? { sandbox: true } : {}),
    ...(opts.sandboxReceiptDelayMs !== undefined
      ? { sandboxReceiptDelayMs: opts.sandboxReceiptDelayMs }
      : {}),
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.downloadsDir !== undefined ? { downloadsDir: opts.downloadsDir } : {}),
    ...(opts.office !== undefined ? { office: opts.office } : {}),
  });
  const token = randomBytes(32).toString('base64url');
  let tokenSpent = false;
  /** SHA-256 of each tab session given out (this run only: a restart prints a new URL). */
  const sessions = new Set<string>();
  const sessionKey = (s: string): string => createHash('sha256').update(s).digest('base64url');
  let port = 0;

  const allowedHosts = (): Set<string> => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = (): Set<string> => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const csp = (): string =>
    [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data: blob:",
      "font-src 'self'",
      `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
      "manifest-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
      "object-src 'none'",
    ].join('; ');

  /** Host and Origin name this server (every request). */
  function authorise(req: IncomingMessage): { ok: true } | { ok: false; status: number; reason: string } {
    if (!allowedHosts().has(req.headers.host ?? '')) return { ok: false, status: 403, reason: 'wrong Host' };
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin))
      return { ok: false, status: 403, reason: 'wrong Origin' };
    return { ok: true };
  }

  /**
   * The WebSocket's secret: a session given to a tab, or the unspent URL token (spent now: the
   * caller gets a new session). null when neither.
   */
  function admit(req: IncomingMessage): { newSession: string | null } | null {
    const offered = offeredSecret(req.headers['sec-websocket-protocol']);
    if (offered?.kind === 'session')
      return sessions.has(sessionKey(offered.value)) ? { newSession: null } : null;
    if (offered?.kind === 'token' && !tokenSpent && sameSecret(offered.value, token)) {
      tokenSpent = true;
      const session = randomBytes(32).toString('base64url');
      sessions.add(sessionKey(session));
      return { newSession: session };
    }
    return null;
  }

  const securityHeaders = (): Record<string, string> => ({
    'content-security-policy': csp(),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const auth = authorise(req);
    if (!auth.ok) {
      res.writeHead(auth.status, { 'content-type': 'text/plain; charset=utf-8', ...securityHeaders() });
      res.end(`Forbidden: ${auth.reason}.\n`);
      return;
    }
    const headers: Record<string, string> = { ...securityHeaders(), 'cache-control': 'no-store' };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res
        .writeHead(405, { ...headers, allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' })
        .end('GET only\n');
      return;
    }
    if (unavailable !== null) {
      res.writeHead(503, { ...headers, 'content-type': 'text/html; charset=utf-8', 'retry-after': '30' });
      res.end(req.method === 'HEAD' ? undefined : unavailablePage(unavailable));
      return;
    }
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      // issue 23: a malformed escape (/%E0%A4%A) is the request's fault, not a server error
      res.writeHead(400, { ...headers, 'content-type': 'text/plain; charset=utf-8' }).end('bad path\n');
      return;
    }
    if (path.endsWith('/')) path += 'index.html';
    let file = resolve(staticDir, `.${path}`);
    if (file !== staticDir && !file.startsWith(staticDir + sep)) {
      res.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    // Client-side routes (no extension) get the app page.
    if (!existsSync(file) && extname(path) === '') file = join(staticDir, 'index.html');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      res.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    res.writeHead(200, {
      ...headers,
      'content-type': STATIC_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': String(body.byteLength),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`request failed: ${String(err)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('internal error\n');
    });
  });
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    handleProtocols: (offered) => (offered.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });
  const sockets = new Set<WebSocket>();

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const refuse = (status: number): void => {
      socket.end(
        `HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Forbidden'}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`,
      );
    };
    if (url.pathname !== '/api') return refuse(404);
    if (!authorise(req).ok) return refuse(403);
    const admitted = admit(req);
    if (!admitted) return refuse(403);
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (admitted.newSession !== null) send(ws, { session: admitted.newSession });
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('error', (err) => log(`websocket error: ${err.message}`));
      ws.on('message', (data, isBinary) => {
        void answer(ws, isBinary ? null : data.toString());
      });
    });
  });

  function send(ws: WebSocket, message: unknown): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  }

  async function answer(ws: WebSocket, text: string | null): Promise<void> {
    let msg: unknown;
    try {
      msg = text === null ? null : JSON.parse(text);
    } catch {
      msg = null;
    }
    const m = msg as { id?: unknown; channel?: unknown; arg?: unknown } | null;
    const id = typeof m?.id === 'number' && Number.isFinite(m.id) ? m.id : null;
    if (m === null || typeof m !== 'object' || id === null) {
      const refused = new ApiError('bad-message', 'a message is JSON { id: number, channel, arg? }');
      send(ws, { id: id ?? -1, ...errorEnvelope(refused) });
      return;
    }
    // app.call checks the argument (validate-args.ts) and throws only ApiErrors.
    let reply: ApiEnvelope;
    try {
      reply = okEnvelope(await app.call(m.channel, m.arg));
    } catch (err) {
      reply = errorEnvelope(err);
    }
    send(ws, { id, ...reply });
  }

  const unsubscribe = EVENT_CHANNELS.map((event) =>
    app.events.on(event, (payload) => {
      for (const ws of sockets) send(ws, { event, payload });
    }),
  );

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/?token=${token}`;
  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    token,
    app,
    close() {
      closing ??= (async () => {
        for (const u of unsubscribe) u();
        for (const ws of sockets) ws.terminate();
        wss.close();
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
        await app.close();
      })();
      return closing;
    },
  };
}

function defaultDataDir(): string {
  const base =
    process.platform === 'win32'
      ? (process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
      : process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Application Support')
        : (process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'));
  return join(base, 'Messenger');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      data: { type: 'string' },
      sandbox: { type: 'boolean', default: false },
      downloads: { type: 'string' },
      office: { type: 'string' }, // issue 28: postgres://USER@HOST:PORT/DB (docs/OFFICE.md)
      // --no-build: serve out/renderer as it is (tests, or a machine without the build tools).
      build: { type: 'boolean', default: true },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowNegative: true,
  });
  if (values.help) {
    process.stderr.write(
      'usage: npm run web -- [--port P] [--data DIR] [--sandbox] [--downloads DIR] [--office URL] [--no-build]\n',
    );
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0 to 65535, not ${values.port}`);
  const shell = await startWebShell({
    dataDir: resolve(values.data ?? defaultDataDir()),
    port,
    sandbox: values.sandbox,
    ...(values.downloads !== undefined ? { downloadsDir: resolve(values.downloads) } : {}),
    ...(values.office !== undefined ? { office: values.office } : {}),
  });
  process.stdout.write(`URL: ${shell.url}\n`);
  // issue 13: the local sandbox gateway's address (replies are played to it: POST /sandbox/inbound).
  const printSandbox = (account: { sandbox: boolean; primaryUrl: string } | null): void => {
    if (account?.sandbox)
      process.stdout.write(
        `Sandbox gateway: ${account.primaryUrl} (play a reply: POST ${account.primaryUrl}/sandbox/inbound)\n`,
      );
  };
  printSandbox(await shell.app.api.accounts.current().catch(() => null));
  shell.app.events.on('accounts:changed', ({ current }) => printSandbox(current));
  const stop = (): void => {
    shell.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
