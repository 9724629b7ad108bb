// Issue 24, item 2: XML says what its encoding is. A server that answers CollectMessages in
// ISO-8859-1 (declared in the XML, or only in the HTTP charset) or UTF-16 is read by our client and
// CLI; our gateway reads requests a client writes in ISO-8859-1 or windows-1252. The bodies here are
// raw bytes written by the test, not by this project's protocol/ code.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli as cli } from '../../support/cli-run.ts';
import { setPushUrl } from '../../../gateway/sandbox.ts';
import { postForm, startTestGateway } from '../../support/gateway.ts';
import {
  foreignCollectAnswer,
  foreignEnvelope,
  foreignServer,
  FOREIGN_TYPES_NS,
} from '../../support/foreign-server.ts';
import type { ForeignAnswer } from '../../support/foreign-server.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const GREETING = [{ from: '447700900301', text: 'Grüße aus Köln', at: '2026-11-27T08:00:00Z' }];

/** `inbox` against a server that answers CollectMessages once with `answer`, then with an empty list. */
async function inboxFrom(answer: ForeignAnswer) {
  let calls = 0;
  const server = await foreignServer((r) => {
    if (r.method !== 'POST') return { status: 404, contentType: 'text/plain', body: '' };
    return calls++ === 0 ? answer : { body: foreignCollectAnswer([]) };
  });
  cleanups.push(() => server.close());
  return cli(['inbox'], {
    MESSENGER_URL: server.url,
    MESSENGER_USERNAME: 'acme.1',
    MESSENGER_PIN: 'Secret9',
  });
}

describe('answers in the encoding they declare', () => {
  it('ISO-8859-1 in the XML declaration (HTTP says text/xml alone)', async () => {
    const body = Buffer.from(foreignCollectAnswer(GREETING, 'ISO-8859-1'), 'latin1');
    expect(body.includes(Buffer.from([0xfc]))).toBe(true); // ü as one byte
    const r = await inboxFrom({ contentType: 'text/xml', body });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Grüße aus Köln');
  });

  it('ISO-8859-1 in the HTTP charset only', async () => {
    const xml = foreignCollectAnswer(GREETING).replace('<?xml version="1.0" encoding="utf-8"?>\n', '');
    const r = await inboxFrom({
      contentType: 'text/xml; charset=ISO-8859-1',
      body: Buffer.from(xml, 'latin1'),
    });
    expect(r.code).toBe(0);
    expect(r.out).toContain('Grüße aus Köln');
  });

  it('UTF-16 with a byte order mark, and windows-1252', async () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(foreignCollectAnswer(GREETING, 'UTF-16'), 'utf16le'),
    ]);
    const a = await inboxFrom({ contentType: 'text/xml; charset=utf-16', body: utf16 });
    expect(a.out).toContain('Grüße aus Köln');
    const euro = [{ from: '447700900302', text: 'Preis: 5 €', at: '2026-11-27T08:00:00Z' }];
    const cp1252 = Buffer.from(foreignCollectAnswer(euro, 'windows-1252'), 'latin1');
    cp1252[cp1252.indexOf('5 ') + 2] = 0x80; // € in windows-1252
    const b = await inboxFrom({ contentType: 'text/xml', body: cp1252 });
    expect(b.out).toContain('Preis: 5 €');
  });

  it('an encoding not read is refused by name, not read as something else', async () => {
    const body = Buffer.from(foreignCollectAnswer(GREETING, 'EBCDIC-CP-US'), 'latin1');
    const r = await inboxFrom({ contentType: 'text/xml', body });
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/EBCDIC-CP-US/);
  });
});

describe('our gateway reads requests in the encoding they declare', () => {
  it('DeliverMessage in ISO-8859-1 and windows-1252, collected as the same text', async () => {
    const gw = await startTestGateway({ credit: '1.00' });
    cleanups.push(() => gw.close());
    const own = gw.addAccount({ credit: '1.00', number: '447700900998' });
    const deliver = (
      text: string,
      encoding: string,
      contentType: string,
      bytes: (s: string) => Uint8Array<ArrayBuffer>,
    ) =>
      fetch(`${gw.url}/sendsms5`, {
        method: 'POST',
        headers: { 'content-type': contentType, soapaction: '""' },
        body: new Blob([
          bytes(
            `<?xml version="1.0" encoding="${encoding}"?>` +
              '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>' +
              `<ns1:DeliverMessage xmlns:ns1="${FOREIGN_TYPES_NS}"><Username>${own.username}</Username>` +
              `<PIN>${own.pin}</PIN><Recipient><SendTo>447700900998</SendTo></Recipient>` +
              `<Message><TextMessage>${text}</TextMessage></Message><ReplyTo>447700900999</ReplyTo>` +
              '</ns1:DeliverMessage></SOAP-ENV:Body></SOAP-ENV:Envelope>',
          ),
        ]),
      }).then(async (res) => ({ status: res.status, body: await res.text() }));
    const latin = await deliver('Grüße', 'ISO-8859-1', 'text/xml', (s) => Buffer.from(s, 'latin1'));
    expect(latin.body).toMatch(/<Report>0<\/Report>/);
    const win = await deliver('5 €', 'windows-1252', 'text/xml', (s) =>
      Buffer.from(s.replace('€', '\u0080'), 'latin1'),
    );
    expect(win.body).toMatch(/<Report>0<\/Report>/);
    // the charset of HTTP names it too, with no declaration's help
    const charset = await deliver('Ça va', 'ISO-8859-1', 'text/xml; charset=iso-8859-1', (s) =>
      Buffer.from(s.replace(' encoding="ISO-8859-1"', ''), 'latin1'),
    );
    expect(charset.body).toMatch(/<Report>0<\/Report>/);
    const r = await cli(['inbox'], {
      MESSENGER_URL: gw.url,
      MESSENGER_USERNAME: own.username,
      MESSENGER_PIN: own.pin,
    });
    expect(r.out).toContain('Grüße');
    expect(r.out).toContain('5 €');
    expect(r.out).toContain('Ça va');
  });
});

describe('our gateway reads push answers in the encoding they declare', () => {
  it('a receipt receiver answering in UTF-16 with Report 2 has not taken the receipt', async () => {
    const receiver = await foreignServer(() => ({
      contentType: 'text/xml; charset=utf-16',
      body: Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from(
          foreignEnvelope(
            `<r:SubmitDeliveryReceiptResponse xmlns:r="${FOREIGN_TYPES_NS}"><MessageIdentifier>x</MessageIdentifier>` +
              '<Report>2</Report><Text>Ungültiger Benutzer</Text></r:SubmitDeliveryReceiptResponse>',
            'UTF-16',
          ),
          'utf16le',
        ),
      ]),
    }));
    cleanups.push(() => receiver.close());
    const gw = await startTestGateway({ credit: '1.00', receiptDelayMs: 20 });
    cleanups.push(() => gw.close());
    setPushUrl(gw.ctx, gw.username, `${receiver.url}/push`);
    const sent = await postForm(gw.url, '/webservices/http/sendsms', {
      Username: gw.username,
      PIN: gw.pin,
      SendTo: '447700900701',
      Message: 'hello',
      ResponseFormat: '3',
    });
    const mid = new URLSearchParams(sent.body).get('MessageIdentifier') ?? '';
    let row: { push_error: string | null; pushed_at: string | null } | undefined;
    for (let i = 0; i < 400 && (row?.push_error ?? null) === null && (row?.pushed_at ?? null) === null; i++) {
      await new Promise((r) => setTimeout(r, 25));
      row = gw.ctx.db
        .prepare('SELECT push_error, pushed_at FROM delivery_receipts WHERE message_identifier = ?')
        .get(mid) as typeof row;
    }
    expect(receiver.requests.length).toBeGreaterThan(0);
    expect(row).toMatchObject({ push_error: 'Report 2', pushed_at: null });
  });
});
