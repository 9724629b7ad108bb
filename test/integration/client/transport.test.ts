// Failover rules of the transport with real sockets on 127.0.0.1 (spec 1, 7.3).
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransport, classifyTransportError } from '../../../main/client/transport.ts';
import { closedPortUrl, rawServer, recordedServer } from './sockets.ts';
import type { TestServer } from './sockets.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});
function track<T extends TestServer | HttpTransport>(thing: T): T {
  cleanups.push(() => ('destroy' in thing ? thing.destroy() : thing.close()));
  return thing;
}

const post = { path: '/webservices/http/sendsms', body: 'a=1', contentType: 'text/plain' };

describe('HttpTransport failover', () => {
  it('sends to the secondary when the primary port is closed', async () => {
    const primary = await closedPortUrl();
    const secondary = track(await recordedServer(() => 'ok'));
    const t = track(new HttpTransport({ primaryUrl: primary, secondaryUrl: secondary.url }));
    const result = await t.post(post);
    expect(result.kind).toBe('response');
    if (result.kind !== 'response') return;
    expect(result.server).toBe('secondary');
    expect(result.body).toBe('ok');
    expect(result.attempts.map((a) => [a.server, a.stage])).toEqual([
      ['primary', 'connect-failed'],
      ['secondary', 'sent'],
    ]);
    expect(secondary.count()).toBe(1);
  });

  it('fails over on a DNS failure of the primary', async () => {
    const secondary = track(await recordedServer(() => 'ok'));
    const t = track(
      new HttpTransport({ primaryUrl: 'http://no-such-host.invalid:8080', secondaryUrl: secondary.url }),
    );
    const result = await t.post(post);
    expect(result.kind).toBe('response');
    expect(secondary.count()).toBe(1);
  });

  it('primary accepts then stalls past the timeout: unknown, secondary never called, one request', async () => {
    const primary = track(await rawServer('stall'));
    const secondary = track(await recordedServer(() => 'ok'));
    const t = track(
      new HttpTransport({ primaryUrl: primary.url, secondaryUrl: secondary.url, responseTimeoutMs: 300 }),
    );
    const started = Date.now();
    const result = await t.post(post);
    expect(result.kind).toBe('unknown');
    if (result.kind !== 'unknown') return;
    expect(result.reason).toMatch(/may have been sent/);
    // Issue 25: the cause is kept, for words by cause ("no answer came back in time").
    expect(result.cause).toBe('timed-out');
    expect(result.server).toBe('primary');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(primary.count()).toBe(1);
    expect(secondary.count()).toBe(0);
  });

  it('primary accepts then resets: unknown, not sent again', async () => {
    const primary = track(await rawServer('reset'));
    const secondary = track(await recordedServer(() => 'ok'));
    const t = track(new HttpTransport({ primaryUrl: primary.url, secondaryUrl: secondary.url }));
    const result = await t.post(post);
    expect(result.kind).toBe('unknown');
    expect(result.kind === 'unknown' && result.cause).toBe('connection-lost');
    expect(primary.count()).toBe(1);
    expect(secondary.count()).toBe(0);
  });

  it('both servers closed: not sent, with both reasons', async () => {
    const t = track(
      new HttpTransport({ primaryUrl: await closedPortUrl(), secondaryUrl: await closedPortUrl() }),
    );
    const result = await t.post(post);
    expect(result.kind).toBe('unsent');
    if (result.kind !== 'unsent') return;
    expect(result.reason).toMatch(/ECONNREFUSED/);
    expect(result.attempts).toHaveLength(2);
  });

  it('remembers a dead primary for the back-off, then tries it again', async () => {
    let clock = 1_000_000;
    const primaryUrl = await closedPortUrl();
    const secondary = track(await recordedServer(() => 'ok'));
    const t = track(
      new HttpTransport({
        primaryUrl,
        secondaryUrl: secondary.url,
        primaryBackoffMs: 10_000,
        now: () => clock,
      }),
    );
    const first = await t.post(post);
    expect(first.attempts.map((a) => a.server)).toEqual(['primary', 'secondary']);
    expect(t.primaryInBackoff).toBe(true);
    const second = await t.post(post);
    expect(second.attempts.map((a) => a.server)).toEqual(['secondary']);
    clock += 10_001;
    expect(t.primaryInBackoff).toBe(false);
    const third = await t.post(post);
    expect(third.attempts.map((a) => a.server)).toEqual(['primary', 'secondary']);
    expect(secondary.count()).toBe(3);
  });

  it('sends the spec headers and the body unchanged', async () => {
    const server = track(await recordedServer(() => 'ok'));
    const t = track(new HttpTransport({ primaryUrl: server.url + '/prefix/' }));
    await t.post({
      path: '/webservices/http/sendsms',
      body: 'Message=caf%C3%A9',
      contentType: 'application/x-www-form-urlencoded; charset=utf-8',
    });
    const [req] = server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe('/prefix/webservices/http/sendsms');
    expect(req?.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=utf-8');
    expect(req?.headers['content-length']).toBe('17');
    expect(req?.headers.host).toBe(new URL(server.url).host);
    expect(req?.body).toBe('Message=caf%C3%A9');
  });

  it('a cancelled request is not sent', async () => {
    const server = track(await recordedServer(() => 'ok'));
    const t = track(new HttpTransport({ primaryUrl: server.url }));
    const result = await t.post({ ...post, signal: AbortSignal.abort() });
    expect(result.kind).toBe('unsent');
    expect(server.count()).toBe(0);
  });
});

describe('classifyTransportError', () => {
  it('separates connect failures from errors after the request may have been sent', () => {
    expect(classifyTransportError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(
      'connect-failed',
    );
    expect(classifyTransportError(Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' }))).toBe(
      'connect-failed',
    );
    const aggregate = new AggregateError(
      [
        Object.assign(new Error('a'), { code: 'ECONNREFUSED' }),
        Object.assign(new Error('b'), { code: 'ETIMEDOUT' }),
      ],
      'all failed',
    );
    expect(classifyTransportError(aggregate)).toBe('connect-failed');
    expect(classifyTransportError(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe('maybe-sent');
    expect(classifyTransportError(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }))).toBe(
      'maybe-sent',
    );
    expect(
      classifyTransportError(Object.assign(new Error('x'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })),
    ).toBe('tls');
    expect(classifyTransportError(new Error('no code'))).toBe('maybe-sent');
  });
});

describe('HttpTransport over HTTPS', () => {
  it('a certificate it cannot verify is an error (not sent, no failover); with the CA it works', async () => {
    const { execFileSync } = await import('node:child_process');
    const { mkdtempSync, readFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { createServer } = await import('node:https');
    const dir = mkdtempSync(join(tmpdir(), 'client-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    let hits = 0;
    const server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (_req, res) => {
      hits++;
      res.end('secure');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
    const secondary = track(await recordedServer(() => 'plain'));

    const untrusting = track(new HttpTransport({ primaryUrl: url, secondaryUrl: secondary.url }));
    const refused = await untrusting.post(post);
    expect(refused.kind).toBe('unsent');
    if (refused.kind === 'unsent') expect(refused.reason).toMatch(/certificate/i);
    expect(hits).toBe(0);
    expect(secondary.count()).toBe(0);

    const trusting = track(new HttpTransport({ primaryUrl: url, ca: cert }));
    const ok = await trusting.post(post);
    expect(ok.kind === 'response' && ok.body).toBe('secure');
    expect(hits).toBe(1);
  });
});

describe('HttpTransport keep-alive', () => {
  /** Keep-alive server that ends a connection idle for 300 ms (advertising a longer timeout). */
  async function keepAliveServer(): Promise<{
    url: string;
    connections: () => number;
    close(): Promise<void>;
  }> {
    const { createServer } = await import('node:http');
    let connections = 0;
    const idle = new WeakMap<object, NodeJS.Timeout>();
    const server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => {
      clearTimeout(idle.get(req.socket));
      req.resume();
      req.on('end', () => res.end('ok'));
      res.on('finish', () =>
        idle.set(
          req.socket,
          setTimeout(() => req.socket.destroy(), 300),
        ),
      );
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      connections: () => connections,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }
  const busy = (ms: number): void => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      /* a busy event loop: e.g. normalising 100,000 numbers */
    }
  };

  it('after an idle spell (here a busy event loop) a fresh connection is used, not the stale one', async () => {
    const server = await keepAliveServer();
    cleanups.push(() => server.close());
    const t = track(new HttpTransport({ primaryUrl: server.url, idleReuseMs: 100, connections: 1 }));
    expect((await t.post(post)).kind).toBe('response');
    busy(600);
    const second = await t.post(post);
    expect(second.kind).toBe('response');
    expect(server.connections()).toBe(2);
  });

  it('reuses the connection for requests in quick succession', async () => {
    const server = await keepAliveServer();
    cleanups.push(() => server.close());
    const t = track(new HttpTransport({ primaryUrl: server.url, connections: 1 }));
    for (let i = 0; i < 5; i++) expect((await t.post(post)).kind).toBe('response');
    expect(server.connections()).toBe(1);
  });
});
