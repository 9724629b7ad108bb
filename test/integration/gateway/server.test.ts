// The HTTP server itself: every form path on GET and POST, keep-alive with an idle timeout, body
// limits, malformed encodings, structured log lines without PINs, never a 5xx.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../gateway/log.ts';
import { messageCount, parseTags, postForm, startTestGateway, storedCredit } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

let gw: TestGateway;
const lines: string[] = [];

beforeAll(async () => {
  gw = await startTestGateway({
    gateway: { log: createLogger({ write: (l) => lines.push(l) }), keepAliveTimeoutMs: 300 },
  });
});
afterAll(async () => {
  await gw.close();
});

/** Sends raw HTTP/1.1 on one socket; resolves with everything received until the server closes it. */
function rawExchange(
  port: number,
  requests: string[],
  gapMs = 0,
): Promise<{ data: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const start = Date.now();
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', reject);
    socket.on('close', () => resolve({ data, closedAfterMs: Date.now() - start }));
    socket.on('connect', async () => {
      for (const r of requests) {
        socket.write(r);
        if (gapMs) await new Promise((res) => setTimeout(res, gapMs));
      }
    });
  });
}

function httpPost(path: string, body: string, keepAlive = true): string {
  return (
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: ${keepAlive ? 'keep-alive' : 'close'}\r\n\r\n${body}`
  );
}

describe('gateway HTTP server', () => {
  it('serves GET and POST on every form path with HTTP 200', async () => {
    for (const path of [
      '/webservices/http/sendsms',
      '/webservices/http/queryaccount',
      '/webservices/http/manageaccount',
      '/sendsms',
    ]) {
      for (const method of ['GET', 'POST']) {
        const res = await fetch(`${gw.url}${path}${method === 'GET' ? '?Username=x&PIN=y' : ''}`, {
          method,
          ...(method === 'POST'
            ? { body: 'Username=x&PIN=y', headers: { 'content-type': 'application/x-www-form-urlencoded' } }
            : {}),
        });
        expect(res.status, `${method} ${path}`).toBe(200);
        expect((await res.text()).length).toBeGreaterThan(0);
      }
    }
  });

  it('unknown paths are 404, wrong methods 405', async () => {
    expect((await fetch(`${gw.url}/nope`)).status).toBe(404);
    expect((await fetch(`${gw.url}/webservices/http/sendsms`, { method: 'PUT', body: 'x' })).status).toBe(
      405,
    );
  });

  it('keeps a connection alive for requests in quick succession, ends it when idle', async () => {
    const body = `Username=${gw.username}&PIN=${gw.pin}&AvailableCredit=`;
    const { data, closedAfterMs } = await rawExchange(
      gw.primary.port,
      [httpPost('/webservices/http/queryaccount', body), httpPost('/webservices/http/queryaccount', body)],
      50,
    );
    expect(data.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    expect(data.match(/AvailableCredit=/g)).toHaveLength(2);
    // closed by the server once idle (keepAliveTimeoutMs = 300 in this test)
    expect(closedAfterMs).toBeGreaterThanOrEqual(250);
    expect(closedAfterMs).toBeLessThan(5000);
  });

  it('an oversize form body gets HTTP 200 and a report; nothing is charged or stored', async () => {
    const before = storedCredit(gw.ctx, gw.username);
    const stored = messageCount(gw.ctx, gw.username);
    const big = `Username=${gw.username}&PIN=${gw.pin}&SendTo=447700900123&ResponseFormat=1&Message=${'a'.repeat(3 * 1024 * 1024)}`;
    const res = await postForm(gw.url, '/webservices/http/sendsms', big);
    expect(res.status).toBe(200);
    const report = parseTags(res.body).Report?.[0];
    expect(report).toBeDefined();
    expect(report).not.toBe('-3');
    expect(parseTags(res.body).Text?.[0]).toMatch(/too large/i);
    expect(storedCredit(gw.ctx, gw.username)).toBe(before);
    expect(messageCount(gw.ctx, gw.username)).toBe(stored);
  });

  it('malformed percent-encoding and non-UTF-8 bodies get a clear report, never 5xx', async () => {
    lines.length = 0;
    const before = storedCredit(gw.ctx, gw.username);
    for (const body of [
      `Username=${gw.username}&PIN=${gw.pin}&SendTo=447700900123&Message=100%&ResponseFormat=1`,
      `Username=${gw.username}&PIN=${gw.pin}&SendTo=447700900123&Message=%ZZ&ResponseFormat=1`,
      `Username=${gw.username}&PIN=${gw.pin}&SendTo=447700900123&Message=%C3%28&ResponseFormat=1`,
    ]) {
      const res = await postForm(gw.url, '/webservices/http/sendsms', body);
      expect(res.status).toBe(200);
      const tags = parseTags(res.body);
      expect(tags.Report?.[0]).not.toBe('-3');
      expect(tags.Text?.[0]).toMatch(/encod/i);
    }
    const raw = await fetch(`${gw.url}/webservices/http/sendsms`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.concat([
        Buffer.from(`Username=${gw.username}&PIN=${gw.pin}&SendTo=447700900123&Message=`),
        Buffer.from([0xff, 0xfe]),
      ]),
    });
    expect(raw.status).toBe(200);
    expect(await raw.text()).toMatch(/^\d+ - .*encod/i);
    expect(storedCredit(gw.ctx, gw.username)).toBe(before);
    // Expected bad input: one info line with the reason each, never an error-level 'handler failed'.
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged.filter((l) => l['level'] === 'error')).toEqual([]);
    const rejected = logged.filter((l) => l['event'] === 'request rejected');
    expect(rejected).toHaveLength(4);
    for (const r of rejected) {
      expect(r['level']).toBe('info');
      expect(String(r['reason'])).toMatch(/percent|UTF-8|encod/i);
    }
  });

  it('writes each request to request_log (in batches, never the PIN)', async () => {
    const count = (): number =>
      (
        gw.ctx.db.prepare('SELECT count(*) AS n FROM request_log WHERE username = ?').get(gw.username) as {
          n: number;
        }
      ).n;
    const before = count();
    for (let i = 0; i < 3; i++) {
      await postForm(gw.url, '/webservices/http/queryaccount', {
        Username: gw.username,
        PIN: gw.pin,
        AvailableCredit: '',
      });
    }
    await expect.poll(count, { timeout: 3000 }).toBe(before + 3);
    const rows = gw.ctx.db.prepare('SELECT * FROM request_log').all();
    expect(JSON.stringify(rows)).not.toContain(gw.pin);
  });

  it('logs one structured line per request, never the PIN', async () => {
    lines.length = 0;
    await postForm(gw.url, '/webservices/http/queryaccount', {
      Username: gw.username,
      PIN: gw.pin,
      AvailableCredit: '',
    });
    await fetch(
      `${gw.url}/webservices/http/sendsms?Username=${gw.username}&PIN=${gw.pin}&SendTo=447700900123&Message=hi`,
    );
    const requests = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.event === 'request');
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/webservices/http/queryaccount',
      status: 200,
      username: gw.username,
    });
    expect(requests[1]).toMatchObject({ method: 'GET', path: '/webservices/http/sendsms', status: 200 });
    for (const l of lines) expect(l).not.toContain(gw.pin);
  });
});
