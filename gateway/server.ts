// The reference gateway's HTTP server: Node's http module, keep-alive with an idle timeout, a body
// limit per route, one structured log line per request, and HTTP 200 with a report body for every
// protocol-level error on the form paths (the routes' onError/onTooLarge make sure of that).
import type { SoapProfile } from '../protocol/soap/namespaces.ts';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SENDSMS5_PROFILE } from '../protocol/soap/namespaces.ts';
import { openGatewayDb, stmt, transaction } from './store/db.ts';
import { authenticate } from './accounts.ts';
import { LoginGuard, withClientAddress } from './login-guard.ts';
import { createLogger } from './log.ts';
import type { Logger } from './log.ts';
import { Router, FORM_BODY_LIMIT } from './http.ts';
import type { RouteRequest, RouteResponse } from './http.ts';
import type { GatewayConfig, GatewayContext, NetworkLike, ReleaseInfo } from './context.ts';
import { createNetwork, registerRichRoutes } from './rich.ts';
import { Scheduler } from './scheduler.ts';
import { NumberChecker } from './numbers.ts';
import { registerFormRoutes } from './routes/form-routes.ts';
import { closeAdaptPool } from './library/adapt-pool.ts';

export interface StartGatewayOptions {
  dataDir: string;
  /** 0 = ephemeral. Default 8080. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  sandbox?: boolean;
  receiptDelayMs?: number;
  release?: Partial<ReleaseInfo>;
  /** Instance name for logs and scheduler claims; default "primary". */
  instance?: string;
  /** Milliseconds an idle keep-alive connection stays open (spec 8: the server ends idle connections). */
  keepAliveTimeoutMs?: number;
  log?: Logger;
  /** No info-level log lines (tests). */
  quiet?: boolean;
  /** Scheduler poll interval, ms (default 1000). */
  schedulerIntervalMs?: number;
  /** Namespaces /sendsms5 serves and accepts; default the provider's (protocol/soap SENDSMS5_PROFILE). */
  soapProfile?: SoapProfile;
}

export interface RunningGateway {
  url: string;
  port: number;
  ctx: GatewayContext;
  close(): Promise<void>;
}

export const DEFAULT_RELEASE: ReleaseInfo = {
  version: '0.1.0',
  releaseNotice: 'First release of Messenger.',
  downloadUrl: 'https://example.invalid/messenger/download',
  releaseDate: '2026-01-01T00:00:00Z',
};

/** Stands in for the network until gateway-rich's simulator (which needs the context) is created. */
const NETWORK_NOT_READY: NetworkLike = {
  partsFor() {
    throw new Error('network not ready');
  },
  dispatch() {
    throw new Error('network not ready');
  },
  close() {},
};

export async function startGateway(opts: StartGatewayOptions): Promise<RunningGateway> {
  const log = opts.log ?? createLogger({ quiet: opts.quiet ?? false });
  const db = openGatewayDb(opts.dataDir);
  const config: GatewayConfig = {
    defaultReplyTo: 'Messenger',
    receiptDelayMs: opts.receiptDelayMs ?? 2000,
    release: { ...DEFAULT_RELEASE, ...opts.release },
    instance: opts.instance ?? 'primary',
    defaultCountry: 'GB',
    soapProfile: opts.soapProfile ?? SENDSMS5_PROFILE,
  };
  // Back-off after failed logins, per username and client address (./login-guard.ts).
  const loginGuard = new LoginGuard();
  const ctx: GatewayContext = {
    db,
    dataDir: opts.dataDir,
    config,
    log,
    network: NETWORK_NOT_READY,
    scheduler: { poke: () => {}, close: () => {} },
    profile: SENDSMS5_PROFILE,
    sandbox: opts.sandbox ?? false,
    numbers: new NumberChecker(),
    authenticate: (username, pin) =>
      username === undefined || pin === undefined
        ? Promise.resolve(null)
        : authenticate(db, username, pin, loginGuard),
  };
  // The request log is for operators, not an archive: keep 30 days.
  stmt(db, "DELETE FROM request_log WHERE at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-30 days')").run();
  const router = new Router();
  registerFormRoutes(router, ctx);
  ctx.network = createNetwork(ctx);
  registerRichRoutes(router, ctx);
  const requestLog = new RequestLog(ctx);
  const scheduler = new Scheduler(ctx, { intervalMs: opts.schedulerIntervalMs ?? 1000 });
  ctx.scheduler = scheduler;
  scheduler.start();

  // Requests being handled: close() lets them finish (their sockets are gone: nobody reads the answer)
  // before the database closes under them, at most IDLE_WAIT_MS (a handler that awaited a PIN check
  // used a closed database: "statement has been finalized", logged as a gateway failure).
  let inFlight = 0;
  let whenIdle: (() => void) | null = null;
  const server = createServer(
    {
      keepAliveTimeout: opts.keepAliveTimeoutMs ?? 5000,
      requestTimeout: 60_000,
      // Issue 17: a GET form's query string is read like a POST body (refused with a report when
      // a field is too long), not cut off at Node's 16 KiB header limit with a bare 431.
      maxHeaderSize: MAX_HEADER_BYTES,
    },
    (req, res) => {
      inFlight++;
      // The client address for the login guard's back-off (./login-guard.ts).
      withClientAddress(req.socket.remoteAddress ?? '', () => handle(router, ctx, requestLog, req, res))
        .catch((err: unknown) => {
          ctx.log.error('response failed', { path: req.url?.split('?')[0], error: String(err) });
          res.destroy();
        })
        .finally(() => {
          if (--inFlight === 0) whenIdle?.();
        });
    },
  );
  server.headersTimeout = 20_000;
  // Issue 17: CONNECT (a proxy request) is answered, not left hanging.
  server.on('connect', (_req, socket) => {
    socket.end(
      'HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, POST\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8080, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = opts.host ?? '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info('listening', { instance: config.instance, url, dataDir: opts.dataDir, sandbox: ctx.sandbox });

  let closed: Promise<void> | null = null;
  return {
    url,
    port,
    ctx,
    close() {
      closed ??= (async () => {
        scheduler.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        if (inFlight > 0)
          await new Promise<void>((resolve) => {
            whenIdle = resolve;
            setTimeout(resolve, IDLE_WAIT_MS).unref();
          });
        requestLog.flush();
        await ctx.network.close();
        await ctx.numbers.close();
        // issue 23: the image workers too, whatever they were doing
        await closeAdaptPool();
        db.close();
      })();
      return closed;
    },
  };
}

const DRAIN_MAX = 64 * 1024 * 1024;
/** The longest close() waits for the requests being handled. */
const IDLE_WAIT_MS = 5_000;
/** The request line and headers together (a GET form's fields ride in the request line). */
const MAX_HEADER_BYTES = 256 * 1024;

/** The client stopped sending its body (its connection closed early): its fault, not the gateway's. */
class BodyAborted extends Error {
  constructor() {
    super('request aborted: the body was cut short by the client');
  }
}

/** Reads at most `limit` bytes; beyond that the rest is drained and dropped (tooLarge, body = head). */
function readBody(req: IncomingMessage, limit: number): Promise<{ body: Uint8Array; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (tooLarge) {
        // Drained (so the error answer reaches a client still sending), but not forever.
        if (size > DRAIN_MAX) req.destroy();
        return;
      }
      if (size > limit) {
        // Keep only the head (64 KiB) so an error answer can still honour ResponseFormat.
        tooLarge = true;
        const head = Buffer.concat(chunks).subarray(0, 64 * 1024);
        chunks.length = 0;
        chunks.push(head);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve({ body: Buffer.concat(chunks), tooLarge }));
    // An error before the body's end ("aborted", a reset) is the client's connection going away.
    req.on('error', (err) => reject(req.complete ? err : new BodyAborted()));
    req.on('close', () => {
      if (!req.complete) reject(new BodyAborted());
    });
  });
}

/**
 * The request_log table, written in batches: rows are kept in memory for at most FLUSH_MS (or
 * FLUSH_ROWS rows) and inserted in one transaction, so a request does not pay a second commit for
 * its log row. The table is for operators; the stderr line is written at once. Flushed on close.
 */
const REQUEST_LOG_FLUSH_MS = 250;
const REQUEST_LOG_FLUSH_ROWS = 200;
export class RequestLog {
  private rows: Array<[string, string, string, string | null, string | null, number, number]> = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly ctx: GatewayContext;

  constructor(ctx: GatewayContext) {
    this.ctx = ctx;
  }

  add(...row: [string, string, string, string | null, string | null, number, number]): void {
    this.rows.push(row);
    if (this.rows.length >= REQUEST_LOG_FLUSH_ROWS) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), REQUEST_LOG_FLUSH_MS);
      this.timer.unref();
    }
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = this.rows;
    this.rows = [];
    if (rows.length === 0) return;
    try {
      const { db } = this.ctx;
      transaction(db, () => {
        const insert = stmt(
          db,
          'INSERT INTO request_log (instance, method, path, username, report, status, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
        );
        for (const r of rows) insert.run(...r);
      });
    } catch (err) {
      this.ctx.log.warn('request log not written', { error: String(err), rows: rows.length });
    }
  }
}

async function handle(
  router: Router,
  ctx: GatewayContext,
  requestLog: RequestLog,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const started = performance.now();
  const method = req.method ?? 'GET';
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const rawQuery = q < 0 ? '' : rawUrl.slice(q + 1);
  let out: RouteResponse;
  const route = router.find(path);
  const request: RouteRequest = {
    method,
    path,
    rawQuery,
    headers: req.headers,
    body: new Uint8Array(),
    remoteAddress: req.socket.remoteAddress ?? '',
  };
  try {
    if (!route) {
      req.resume();
      out = { status: 404, body: 'Not found\n' };
    } else if (!router.allows(route, method)) {
      req.resume();
      out = {
        status: 405,
        headers: { allow: route.methods === '*' ? '*' : route.methods.join(', ') },
        body: 'Method not allowed\n',
      };
    } else {
      const { body, tooLarge } = await readBody(req, route.options.maxBodyBytes ?? FORM_BODY_LIMIT);
      request.body = body;
      if (tooLarge) {
        out = route.options.onTooLarge?.(request, ctx) ?? { status: 413, body: 'Request body too large\n' };
        out.log = { ...out.log, tooLarge: true };
      } else {
        try {
          out = await route.handler(request, ctx);
        } catch (err) {
          if (route.options.expectedError?.(err)) {
            // bad input from the client (answered with a report below): not a gateway failure
            ctx.log.info('request rejected', {
              path,
              reason: err instanceof Error ? err.message : String(err),
            });
          } else {
            ctx.log.error('handler failed', {
              path,
              error: err instanceof Error ? (err.stack ?? err.message) : String(err),
            });
          }
          out = route.options.onError?.(request, ctx, err) ?? { status: 500, body: 'Internal error\n' };
        }
      }
    }
  } catch (err) {
    // Issue 17: a truncated body is the client's doing: info, not error.
    if (err instanceof BodyAborted) ctx.log.info('request body cut short', { path });
    else ctx.log.error('request failed', { path, error: String(err) });
    out = { status: 400, body: 'Bad request\n' };
  }
  if (res.destroyed) return;
  const body = typeof out.body === 'string' ? Buffer.from(out.body, 'utf8') : out.body;
  res.writeHead(out.status ?? 200, {
    'content-type': out.contentType ?? 'text/plain; charset=utf-8',
    'content-length': String(body.byteLength),
    ...out.headers,
  });
  res.end(body);
  const ms = Math.round((performance.now() - started) * 100) / 100;
  if (route) {
    requestLog.add(
      ctx.config.instance,
      method,
      path,
      typeof out.log?.username === 'string' ? out.log.username : null,
      typeof out.log?.report === 'string' ? out.log.report : null,
      out.status ?? 200,
      ms,
    );
  }
  ctx.log.info('request', {
    instance: ctx.config.instance,
    method,
    path,
    status: out.status ?? 200,
    ms,
    remote: request.remoteAddress,
    ...out.log,
  });
}
