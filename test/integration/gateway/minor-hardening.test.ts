// Issue 17, item 20: a truncated request body is the client's fault (logged at info, not error),
// CONNECT gets an answer, and SendTimeAbsolute far in the future is refused (report 12) instead of
// being charged at once for a send that never comes.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT } from '../../../protocol/reports.ts';
import { createLogger } from '../../../gateway/log.ts';
import { postForm, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

const lines: string[] = [];
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ gateway: { log: createLogger({ write: (l) => lines.push(l) }) } });
});
afterAll(async () => {
  await gw.close();
});

function raw(text: string, closeAfterWrite = false): Promise<string> {
  const { port } = new URL(gw.url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), '127.0.0.1', () => {
      s.write(text);
      if (closeAfterWrite) s.end();
    });
    let got = '';
    s.on('data', (d) => (got += d.toString('latin1')));
    s.on('close', () => resolve(got));
    s.on('error', reject);
    s.setTimeout(3000, () => s.destroy());
  });
}

describe('gateway odds and ends', () => {
  it('answers CONNECT', async () => {
    const answer = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 405/);
  });

  it('logs a truncated body at info level', async () => {
    await raw(
      'POST /webservices/http/sendsms HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nUsername=demo',
      true,
    );
    await new Promise((r) => setTimeout(r, 200));
    const logged = lines.map((l) => JSON.parse(l) as { level: string; event: string });
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 'info', event: 'request body cut short' }),
    );
    expect(logged.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('refuses SendTimeAbsolute more than a year ahead and charges nothing', async () => {
    const credit = () =>
      postForm(gw.url, '/webservices/http/queryaccount', {
        Username: gw.username,
        PIN: gw.pin,
        AvailableCredit: '',
      });
    const before = (await credit()).body;
    const res = await postForm(gw.url, '/webservices/http/sendsms', {
      Username: gw.username,
      PIN: gw.pin,
      SendTo: '447700900801',
      Message: 'far future',
      SendTimeAbsolute: '9999-12-31T23:59:59',
      ResponseFormat: '3',
    });
    const p = new URLSearchParams(res.body);
    expect(p.get('Report')).toBe(REPORT.invalidSchedule);
    expect(p.get('Text')).toMatch(/a year ahead/);
    expect((await credit()).body).toBe(before);
    // Within the horizon it is scheduled.
    const soon = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 19);
    const ok = await postForm(gw.url, '/webservices/http/sendsms', {
      Username: gw.username,
      PIN: gw.pin,
      SendTo: '447700900802',
      Message: 'next month',
      SendTimeAbsolute: soon,
      ResponseFormat: '3',
    });
    expect(new URLSearchParams(ok.body).get('Report')).toBe(REPORT.queued);
  });
});

describe('GET forms', () => {
  it('answer a query string over 16 KiB with a report, not a bare 431', async () => {
    const q = new URLSearchParams({
      Username: gw.username,
      PIN: gw.pin,
      SendTo: '447700900803',
      Message: 'hello',
      // A field the gateway does not know, long: the request is read and answered with a report.
      Padding: 'x'.repeat(20 * 1024),
      ResponseFormat: '3',
    });
    expect(q.toString().length).toBeGreaterThan(16 * 1024);
    const res = await fetch(`${gw.url}/webservices/http/sendsms?${q}`);
    expect(res.status).toBe(200);
    const p = new URLSearchParams(await res.text());
    expect(p.get('Report')).toMatch(/^-?\d+$/);
  });
});
