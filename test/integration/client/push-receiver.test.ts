// The push receiver over real HTTP on 127.0.0.1: receipts and inbound messages become events, wrong
// credentials are refused with report 2 and emit nothing, other operations and bad XML get faults.
import { afterEach, describe, expect, it } from 'vitest';
import { buildRequestEnvelope, parseFault, parseResponseEnvelope } from '../../../protocol/soap/envelope.ts';
import { SOAP_CONTENT_TYPE } from '../../../protocol/soap/namespaces.ts';
import { PushReceiver } from '../../../main/client/push-receiver.ts';
import type {
  DeliveryReceipt,
  InboundMessage,
  PushReceiverOptions,
} from '../../../main/client/push-receiver.ts';

let receiver: PushReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function start(
  pin?: string,
  spool?: PushReceiverOptions['spool'],
): Promise<{ url: string; receipts: DeliveryReceipt[]; messages: InboundMessage[]; refused: string[] }> {
  receiver = new PushReceiver({ username: 'acme.1', ...(pin !== undefined ? { pin } : {}), spool });
  const receipts: DeliveryReceipt[] = [];
  const messages: InboundMessage[] = [];
  const refused: string[] = [];
  receiver.on('receipt', (r) => receipts.push(r));
  receiver.on('message', (m) => messages.push(m));
  receiver.on('refused', (r) => refused.push(r.reason));
  const url = await receiver.listen();
  return { url, receipts, messages, refused };
}

async function soapPost(url: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': SOAP_CONTENT_TYPE, soapaction: '""' },
    body,
  });
  return { status: res.status, text: await res.text() };
}

describe('PushReceiver', () => {
  it('refuses what a web page can send: no SOAP content type, an Origin, a guessed path (issue 17)', async () => {
    const r = await start();
    const planted = buildRequestEnvelope('DeliverMessage', {
      Username: 'acme.1',
      Recipient: { SendTo: '447700900999' },
      ReplyTo: '447700900123',
      Message: { TextMessage: 'fake SMS from a web page' },
      Timestamp1: '2026-11-22T08:01:00',
    });
    // A form post (the content types a page may send without a preflight).
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await fetch(r.url, { method: 'POST', headers: { 'content-type': type }, body: planted });
      expect(res.status, type).toBe(415);
    }
    const withOrigin = await fetch(r.url, {
      method: 'POST',
      headers: { 'content-type': SOAP_CONTENT_TYPE, origin: 'https://evil.example' },
      body: planted,
    });
    expect(withOrigin.status).toBe(403);
    const guessed = await soapPost(new URL('/push', r.url).href, planted);
    expect(guessed.status).toBe(404);
    expect(r.messages).toEqual([]);
    expect(r.refused).toHaveLength(4);
    // Two receivers never share a path.
    expect(new PushReceiver({ username: 'x' }).url).toBeUndefined();
  });

  it('emits a delivery receipt and acknowledges it', async () => {
    const r = await start();
    expect(r.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/push\/[0-9a-f]{32}$/);
    const xml = buildRequestEnvelope('SubmitDeliveryReceipt', {
      Username: 'acme.1',
      Timestamp1: '2026-11-22T08:00:00',
      SentTo: '447700900123',
      MessageIdentifier: 'M123',
      Report: 0,
    });
    const res = await soapPost(r.url, xml);
    expect(res.status).toBe(200);
    const answer = parseResponseEnvelope('SubmitDeliveryReceipt', res.text);
    expect(answer.MessageIdentifier).toBe('M123');
    expect(answer.Report).toBe(0);
    expect(r.receipts).toEqual([
      { Timestamp1: '2026-11-22T08:00:00', SentTo: '447700900123', MessageIdentifier: 'M123', Report: 0 },
    ]);
  });

  it('emits an inbound message', async () => {
    const r = await start('1234');
    const xml = buildRequestEnvelope('DeliverMessage', {
      Username: 'acme.1',
      PIN: '1234',
      Recipient: { SendTo: '447700900999' },
      ReplyTo: '447700900123',
      Message: { TextMessage: 'Yes please, café at 3' },
      Timestamp1: '2026-11-22T08:01:00',
    });
    const res = await soapPost(r.url, xml);
    const answer = parseResponseEnvelope('DeliverMessage', res.text);
    expect(answer.Report).toBe(0);
    expect(answer.MessageIdentifier.length).toBeLessThanOrEqual(15);
    expect(r.messages).toHaveLength(1);
    expect(r.messages[0]?.Message?.TextMessage).toBe('Yes please, café at 3');
    expect(r.messages[0]?.ReplyTo).toBe('447700900123');
  });

  it('refuses a wrong Username or PIN with report 2 and emits nothing', async () => {
    const r = await start('1234');
    const wrongUser = buildRequestEnvelope('SubmitDeliveryReceipt', {
      Username: 'mallory',
      PIN: '1234',
      Timestamp1: '2026-11-22T08:00:00',
      Report: 0,
    });
    const wrongPin = buildRequestEnvelope('DeliverMessage', {
      Username: 'acme.1',
      PIN: '9999',
      ReplyTo: '1',
    });
    const a = parseResponseEnvelope('SubmitDeliveryReceipt', (await soapPost(r.url, wrongUser)).text);
    const b = parseResponseEnvelope('DeliverMessage', (await soapPost(r.url, wrongPin)).text);
    expect(a.Report).toBe(2);
    expect(b.Report).toBe(2);
    expect(r.receipts).toHaveLength(0);
    expect(r.messages).toHaveLength(0);
    expect(r.refused).toEqual(['invalid Username or PIN', 'invalid Username or PIN']);
  });

  it('answers other operations, malformed XML and DOCTYPE with a client fault', async () => {
    const r = await start();
    const other = await soapPost(
      r.url,
      buildRequestEnvelope('AvailableCredit', { Username: 'acme.1', PIN: 'x' }),
    );
    expect(other.status).toBe(500);
    expect(parseFault(other.text)?.code).toBe('Client');
    const bad = await soapPost(r.url, '<not-xml');
    expect(parseFault(bad.text)?.code).toBe('Client');
    const doctype = await soapPost(
      r.url,
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body/></soap:Envelope>',
    );
    expect(parseFault(doctype.text)?.code).toBe('Client');
    expect(r.refused).toHaveLength(3);
    const get = await fetch(r.url);
    expect(get.status).toBe(405);
  });

  it('spools only a message: a receipt is emitted without a spool write, even when the spool takes nothing (issue 27)', async () => {
    const kept: string[] = [];
    let full = false;
    const r = await start(undefined, {
      keep(body) {
        if (full) throw new Error('disk full');
        kept.push(Buffer.from(body).toString('utf8'));
        return `t${kept.length}`;
      },
      drop() {},
    });
    const receipt = (id: string): string =>
      buildRequestEnvelope('SubmitDeliveryReceipt', {
        Username: 'acme.1',
        Timestamp1: '2026-11-22T08:00:00',
        SentTo: '447700900123',
        MessageIdentifier: id,
        Report: 0,
      });
    const message = buildRequestEnvelope('DeliverMessage', {
      Username: 'acme.1',
      Recipient: { SendTo: '447700900999' },
      ReplyTo: '447700900123',
      Message: { TextMessage: 'kept before it is answered' },
      Timestamp1: '2026-11-22T08:01:00',
    });
    expect((await soapPost(r.url, receipt('M1'))).status).toBe(200);
    expect((await soapPost(r.url, message)).status).toBe(200);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toContain('kept before it is answered');
    // A spool that takes nothing (a full disk): the message is refused (the gateway keeps it), the
    // receipt is still taken (the listener records it before the answer).
    full = true;
    expect((await soapPost(r.url, message)).status).toBe(500);
    const res = await soapPost(r.url, receipt('M2'));
    expect(res.status).toBe(200);
    expect(parseResponseEnvelope('SubmitDeliveryReceipt', res.text).Report).toBe(0);
    expect(r.receipts.map((x) => x.MessageIdentifier)).toEqual(['M1', 'M2']);
    expect(r.messages).toHaveLength(1);
  });
});
