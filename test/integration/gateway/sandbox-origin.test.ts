// Issue 17, items 9 and 10: the sandbox routes answer only a loopback Host and no Origin (a
// cross-site form post and DNS rebinding both put messages in the inbox before), and
// /content/<token> never serves what a sender declared as a page.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ sandbox: true });
});
afterAll(async () => {
  await gw.close();
});

function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body = '',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const port = Number(new URL(gw.url).port);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('latin1');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const inbound = (headers: Record<string, string>) =>
  raw(
    'POST',
    '/sandbox/inbound',
    { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    `SendTo=${gw.account.number ?? '447700900001'}&ReplyTo=447700900999&Message=planted`,
  );

describe('sandbox routes', () => {
  it('refuse a request with an Origin (a cross-site form post)', async () => {
    const port = new URL(gw.url).port;
    const r = await inbound({ host: `127.0.0.1:${port}`, origin: 'https://evil.example' });
    expect(r.status).toBe(403);
    expect(r.body).toMatch(/Origin/);
    expect(
      (await raw('GET', '/sandbox/outbound', { host: `localhost:${port}`, origin: 'null' })).status,
    ).toBe(403);
  });

  it('refuse a foreign Host (DNS rebinding)', async () => {
    const r = await inbound({ host: 'rebind.evil.example' });
    expect(r.status).toBe(403);
    expect(r.body).toMatch(/loopback Host/);
    expect((await raw('GET', '/sandbox/library', { host: 'evil.example:80' })).status).toBe(403);
  });

  it('answer a local client', async () => {
    const port = new URL(gw.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])
      expect((await raw('GET', '/sandbox/library', { host })).status, host).toBe(200);
  });
});

describe('/content/<token>', () => {
  const put = (token: string, type: string, body: string) =>
    gw.ctx.db
      .prepare(
        'INSERT INTO delivered_content (token, message_identifier, content_type, bytes) VALUES (?, ?, ?, ?)',
      )
      .run(token, 'test', type, new TextEncoder().encode(body));

  it('serves a declared text/html as an attachment of no type, sandboxed and not sniffed', async () => {
    put('0123456789abcdef01234567', 'text/html', '<script>alert(1)</script>');
    const r = await fetch(`${gw.url}/content/0123456789abcdef01234567`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/octet-stream');
    expect(r.headers.get('content-security-policy')).toBe('sandbox');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-disposition')).toBe('attachment');
  });

  it('keeps WAP and MMS media types', async () => {
    put('89abcdef0123456789abcdef', 'image/vnd.wap.wbmp', '\u0000\u0000\u0001\u0001\u0000');
    const r = await fetch(`${gw.url}/content/89abcdef0123456789abcdef`);
    expect(r.headers.get('content-type')).toBe('image/vnd.wap.wbmp');
    expect(r.headers.get('content-security-policy')).toBe('sandbox');
  });
});
