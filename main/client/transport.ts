// HTTP transport of the gateway client: one undici Pool per origin (primary, secondary), keep-alive,
// POST only, and the failover rule of spec 1 / 7.3.2 with the "never a blind retry" rule of 7.3.1.
//
// The one question this file answers for every request: could the request have reached a server?
//  - No TCP connection could be made (refused, unreachable, DNS failure, connect timeout): nothing was
//    sent, so the same request may go to the other server. A dead primary is remembered for a short
//    back-off and tried again after it.
//  - A connection was made and then anything went wrong (reset, response timeout, truncated body,
//    HTTP status other than 200): the request may have been processed. The result is "unknown" and the
//    request is NOT sent again, neither to the same server nor to the other one.
//  - A TLS certificate problem is an error (never ignored) and is reported as "not sent": the HTTP
//    request is only written after a verified handshake. It is not failed over: a TCP connection was
//    made, and a bad certificate is something the user must see, not route around.
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import type { ConnectionOptions } from 'node:tls';

export type ServerRole = 'primary' | 'secondary';

export interface TransportOptions {
  /** {base_url}: http(s)://host[:port][/prefix] */
  primaryUrl: string;
  /** {secondary_url}; without it there is no failover. */
  secondaryUrl?: string | undefined;
  /** Time allowed to establish a TCP (and TLS) connection. Default 30 s. */
  connectTimeoutMs?: number | undefined;
  /** Time allowed for the response headers, and between body chunks. Default 30 s. */
  responseTimeoutMs?: number | undefined;
  /** How long a primary that refused a connection is skipped. Default 30 s. */
  primaryBackoffMs?: number | undefined;
  /** Extra trusted CA certificates (PEM) for HTTPS, e.g. a company CA. Verification is never turned off. */
  ca?: ConnectionOptions['ca'];
  /** Keep-alive connections per origin. Default 4. */
  connections?: number | undefined;
  /** Largest response body accepted by post(), bytes. Default 16 MiB. postStream() has none (its reader bounds what it keeps). */
  maxResponseBytes?: number | undefined;
  /**
   * A kept-alive connection idle for longer than this is not reused: a new pool (new connections)
   * takes over. The server ends idle connections (spec 8) and a request written on a connection the
   * server is closing fails after it may have been sent, which would make it "unknown" for nothing.
   * That also covers an event loop that was busy (e.g. normalising 100,000 numbers) while the
   * server's close was pending. Default 1 s.
   */
  idleReuseMs?: number | undefined;
  /** Clock, for tests of the back-off. */
  now?: (() => number) | undefined;
}

export interface PostRequest {
  /** Path below the base URL, e.g. /webservices/http/sendsms */
  path: string;
  body: string;
  contentType: string;
  /** Extra headers (SOAPAction). */
  headers?: Record<string, string> | undefined;
  /** Aborting before a connection is made means "not sent"; after, "unknown". */
  signal?: AbortSignal | undefined;
}

/** What happened on one server for one request. */
export interface Attempt {
  server: ServerRole;
  url: string;
  /** connect-failed: nothing sent; sent: request written or may have been written. */
  stage: 'connect-failed' | 'sent';
  error?: string;
}

export type TransportResult<B = string> =
  | { kind: 'response'; status: number; body: B; server: ServerRole; attempts: Attempt[] }
  | { kind: 'unsent'; reason: string; attempts: Attempt[] }
  | {
      kind: 'unknown';
      reason: string;
      cause: UnknownTransportCause;
      server: ServerRole;
      attempts: Attempt[];
    };

/** Issue 25: why a request's outcome is unknown: no answer in time, or the connection dropped. */
export type UnknownTransportCause = 'timed-out' | 'connection-lost';

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** An error after the request may have been sent: a time-out (undici's, or an AbortSignal.timeout) or a drop. */
export function unknownCauseOf(err: unknown): UnknownTransportCause {
  const name = typeof err === 'object' && err !== null ? (err as { name?: unknown }).name : undefined;
  const timedOut = name === 'TimeoutError' || codesOf(err).some((c) => TIMEOUT_CODES.has(c));
  return timedOut ? 'timed-out' : 'connection-lost';
}

/**
 * Reads a response body as it arrives; an error it throws is a body cut off (the result is "unknown").
 * `contentType`: the answer's Content-Type (its charset says how an XML body is encoded; issue 24).
 */
export type BodyReader<B> = (
  body: AsyncIterable<Uint8Array>,
  status: number,
  contentType: string | undefined,
) => Promise<B>;

/** A whole answer as bytes, with its Content-Type (a SOAP answer: XML decodes itself). */
export interface BinaryBody {
  bytes: Uint8Array;
  contentType: string | undefined;
}

/** The whole body, refused past `max` bytes. */
async function readAll(body: AsyncIterable<Uint8Array>, max: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (bytes > max) throw new Error(`the response is larger than the limit of ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The whole body as text (UTF-8, lenient as fetch's text()), refused past `max` bytes. */
function textReader(max: number): BodyReader<string> {
  return async (body) => (await readAll(body, max)).toString('utf8');
}

/** The whole body as bytes, refused past `max` bytes. */
function binaryReader(max: number): BodyReader<BinaryBody> {
  return async (body, _status, contentType) => ({ bytes: await readAll(body, max), contentType });
}

/** Error codes that mean no TCP connection was made: safe to send the same request elsewhere. */
const CONNECT_FAILURE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** TLS verification failures (OpenSSL / Node codes). The request was never written. */
const TLS_CODE_PATTERN = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL|UNABLE_TO_GET_ISSUER/;

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  name?: unknown;
  errors?: unknown;
  cause?: unknown;
}

function codesOf(err: unknown): string[] {
  if (typeof err !== 'object' || err === null) return [];
  const e = err as ErrorLike;
  const out: string[] = [];
  if (typeof e.code === 'string') out.push(e.code);
  // Happy-eyeballs (autoSelectFamily) reports an AggregateError with one error per address.
  if (Array.isArray(e.errors)) for (const inner of e.errors) out.push(...codesOf(inner));
  if (e.cause !== undefined && e.cause !== err) out.push(...codesOf(e.cause));
  return out;
}

export function describeError(err: unknown): string {
  if (typeof err !== 'object' || err === null) return String(err);
  const e = err as ErrorLike;
  const code = codesOf(err)[0];
  const message = typeof e.message === 'string' && e.message !== '' ? e.message : String(e.name ?? 'error');
  return code !== undefined && !message.includes(code) ? `${code}: ${message}` : message;
}

/** Classification of a failed dispatch. Exported for the unit tests of the rules. */
export function classifyTransportError(err: unknown): 'connect-failed' | 'tls' | 'maybe-sent' {
  const codes = codesOf(err);
  if (codes.length > 0 && codes.every((c) => CONNECT_FAILURE_CODES.has(c) || c === 'ETIMEDOUT')) {
    // ETIMEDOUT alone only appears here from the connect phase of autoSelectFamily; together with
    // the connect codes it means no address answered.
    if (codes.some((c) => CONNECT_FAILURE_CODES.has(c)) || isAggregate(err)) return 'connect-failed';
  }
  if (codes.some((c) => TLS_CODE_PATTERN.test(c))) return 'tls';
  return 'maybe-sent';
}

function isAggregate(err: unknown): boolean {
  return typeof err === 'object' && err !== null && Array.isArray((err as ErrorLike).errors);
}

interface Origin {
  role: ServerRole;
  base: URL;
  pool: Pool;
  newPool: () => Pool;
  /** When the last request on this origin ended (ms, this.#now clock); 0 = never. */
  lastUsed: number;
  inFlight: number;
}

export class HttpTransport {
  readonly #origins: Origin[];
  readonly #backoffMs: number;
  readonly #idleReuseMs: number;
  readonly #maxResponseBytes: number;
  readonly #now: () => number;
  #primaryDeadUntil = 0;
  /** Requests handed to a server (stage "sent"), per role: tests and the bench read it. */
  readonly sent: Record<ServerRole, number> = { primary: 0, secondary: 0 };

  constructor(options: TransportOptions) {
    const connectTimeout = options.connectTimeoutMs ?? 30_000;
    const responseTimeout = options.responseTimeoutMs ?? 30_000;
    this.#backoffMs = options.primaryBackoffMs ?? 30_000;
    this.#idleReuseMs = options.idleReuseMs ?? 1_000;
    this.#maxResponseBytes = options.maxResponseBytes ?? 16 * 1024 * 1024;
    this.#now = options.now ?? Date.now;
    const make = (role: ServerRole, url: string): Origin => {
      const base = parseBaseUrl(url, role);
      const newPool = (): Pool =>
        new Pool(base.origin, {
          connections: options.connections ?? 4,
          connectTimeout,
          headersTimeout: responseTimeout,
          bodyTimeout: responseTimeout,
          keepAliveTimeout: 4_000,
          // the limit is per call: post() reads at most maxResponseBytes, postStream() streams
          maxResponseSize: -1,
          // HTTP/1.1 only: the spec's headers (Content-Length, Connection) are HTTP/1.1 headers.
          allowH2: false,
          connect: {
            timeout: connectTimeout,
            rejectUnauthorized: true,
            ...(options.ca !== undefined ? { ca: options.ca } : {}),
          },
        });
      return { role, base, pool: newPool(), newPool, lastUsed: 0, inFlight: 0 };
    };
    this.#origins = [make('primary', options.primaryUrl)];
    if (options.secondaryUrl !== undefined && options.secondaryUrl !== '') {
      this.#origins.push(make('secondary', options.secondaryUrl));
    }
  }

  get hasSecondary(): boolean {
    return this.#origins.length > 1;
  }

  /** True while a primary that could not be reached is being skipped. */
  get primaryInBackoff(): boolean {
    return this.#now() < this.#primaryDeadUntil;
  }

  /** Order in which the servers are tried for the next request. */
  #order(): Origin[] {
    const [primary, secondary] = this.#origins;
    if (primary === undefined) return [];
    if (secondary === undefined) return [primary];
    return this.primaryInBackoff ? [secondary, primary] : [primary, secondary];
  }

  /** POST and read the whole answer as text (at most maxResponseBytes). */
  async post(req: PostRequest): Promise<TransportResult> {
    return this.postStream(req, textReader(this.#maxResponseBytes));
  }

  /** POST and read the whole answer as bytes, with its Content-Type (at most maxResponseBytes). */
  async postBinary(req: PostRequest): Promise<TransportResult<BinaryBody>> {
    return this.postStream(req, binaryReader(this.#maxResponseBytes));
  }

  /**
   * POST and hand the answer's body to `read` as it arrives (any size: the reader decides what it
   * keeps). The failover rules are post()'s; a body that breaks off while `read` consumes it makes the
   * result "unknown", like a cut-off answer.
   */
  async postStream<B>(req: PostRequest, read: BodyReader<B>): Promise<TransportResult<B>> {
    const attempts: Attempt[] = [];
    for (const origin of this.#order()) {
      if (req.signal?.aborted) {
        return { kind: 'unsent', reason: 'cancelled before sending', attempts };
      }
      this.#freshIfIdle(origin);
      origin.inFlight++;
      try {
        const result = await this.#attempt(origin, req, attempts, read);
        if (result !== 'connect-failed') return result;
      } finally {
        origin.inFlight--;
        origin.lastUsed = Date.now();
      }
    }
    const tried = attempts.map((a) => `${a.url}: ${a.error ?? 'failed'}`).join('; ');
    return { kind: 'unsent', reason: `no server could be reached (${tried})`, attempts };
  }

  /** One request on one origin; 'connect-failed' means nothing was sent and the next origin may be tried. */
  async #attempt<B>(
    origin: Origin,
    req: PostRequest,
    attempts: Attempt[],
    read: BodyReader<B>,
  ): Promise<TransportResult<B> | 'connect-failed'> {
    const url = joinPath(origin.base, req.path);
    const body = new TextEncoder().encode(req.body);
    let response: Dispatcher.ResponseData;
    try {
      response = await origin.pool.request({
        method: 'POST',
        path: url.pathname + url.search,
        headers: {
          'content-type': req.contentType,
          'content-length': String(body.byteLength),
          ...req.headers,
        },
        body,
        signal: req.signal,
      });
    } catch (err) {
      const kind = classifyTransportError(err);
      const message = describeError(err);
      if (kind === 'connect-failed') {
        attempts.push({ server: origin.role, url: url.href, stage: 'connect-failed', error: message });
        if (origin.role === 'primary') this.#primaryDeadUntil = this.#now() + this.#backoffMs;
        return 'connect-failed';
      }
      if (kind === 'tls') {
        attempts.push({ server: origin.role, url: url.href, stage: 'connect-failed', error: message });
        return { kind: 'unsent', reason: `TLS certificate error from ${url.origin}: ${message}`, attempts };
      }
      this.sent[origin.role]++;
      attempts.push({ server: origin.role, url: url.href, stage: 'sent', error: message });
      return {
        kind: 'unknown',
        reason: `connection to ${url.origin} failed after the request may have been sent (${message}); it was not sent again`,
        cause: unknownCauseOf(err),
        server: origin.role,
        attempts,
      };
    }
    this.sent[origin.role]++;
    if (origin.role === 'primary') this.#primaryDeadUntil = 0;
    attempts.push({ server: origin.role, url: url.href, stage: 'sent' });
    let value: B;
    try {
      const type = response.headers['content-type'];
      value = await read(response.body, response.statusCode, Array.isArray(type) ? type[0] : type);
    } catch (err) {
      response.body.destroy();
      return {
        kind: 'unknown',
        reason: `the response from ${url.origin} was cut off (${describeError(err)}); the request was not sent again`,
        cause: unknownCauseOf(err),
        server: origin.role,
        attempts,
      };
    }
    return { kind: 'response', status: response.statusCode, body: value, server: origin.role, attempts };
  }

  /**
   * GET `path` (e.g. a WSDL) from the first server that answers. Reading is safe to repeat, so a
   * server that fails in any way gives way to the next; `unknown` is never returned.
   */
  async get(path: string, signal?: AbortSignal): Promise<TransportResult> {
    const attempts: Attempt[] = [];
    for (const origin of this.#order()) {
      const url = joinPath(origin.base, path);
      try {
        const response = await origin.pool.request({
          method: 'GET',
          path: url.pathname + url.search,
          signal,
        });
        const body = await response.body.text();
        attempts.push({ server: origin.role, url: url.href, stage: 'sent' });
        return { kind: 'response', status: response.statusCode, body, server: origin.role, attempts };
      } catch (err) {
        attempts.push({
          server: origin.role,
          url: url.href,
          stage: 'connect-failed',
          error: describeError(err),
        });
      }
    }
    const tried = attempts.map((a) => `${a.url}: ${a.error ?? 'failed'}`).join('; ');
    return { kind: 'unsent', reason: `no server answered (${tried})`, attempts };
  }

  /** Replace the pool of an origin whose connections sat idle too long (see idleReuseMs). */
  #freshIfIdle(origin: Origin): void {
    if (origin.inFlight > 0 || origin.lastUsed === 0) return;
    if (Date.now() - origin.lastUsed <= this.#idleReuseMs) return;
    const old = origin.pool;
    origin.pool = origin.newPool();
    old.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    await Promise.all(this.#origins.map((o) => o.pool.close()));
  }

  async destroy(): Promise<void> {
    await Promise.all(this.#origins.map((o) => o.pool.destroy()));
  }
}

function parseBaseUrl(url: string, role: ServerRole): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`${role} gateway URL is not a valid URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(`${role} gateway URL must be http: or https:, got ${parsed.protocol}`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new TypeError(`${role} gateway URL must not carry credentials; the PIN goes in the request body`);
  }
  return parsed;
}

function joinPath(base: URL, path: string): URL {
  const prefix = base.pathname.replace(/\/+$/, '');
  return new URL(prefix + path, base.origin);
}
