// Issue 27 item 6: a receiver given `recordReceipts` hands it the receipts read in one turn of the event
// loop together (the app records them in one transaction) and answers each push only after it
// returns: accepted when stored, a server fault (the gateway pushes it again) when not, over real
// HTTP on 127.0.0.1.
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildRequestEnvelope, parseFault, parseResponseEnvelope } from '../../../protocol/soap/envelope.ts';
import { SOAP_CONTENT_TYPE } from '../../../protocol/soap/namespaces.ts';
import { PushReceiver } from '../../../main/client/push-receiver.ts';
import type { DeliveryReceipt } from '../../../main/client/push-receiver.ts';

let receiver: PushReceiver | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await receiver?.close();
  receiver = undefined;
});

const receipt = (id: string): string =>
  buildRequestEnvelope('SubmitDeliveryReceipt', {
    Username: 'acme.1',
    Timestamp1: '2026-11-22T08:00:00',
    SentTo: '447700900123',
    MessageIdentifier: id,
    Report: 0,
  });

async function soapPost(url: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': SOAP_CONTENT_TYPE, soapaction: '""' },
    body,
  });
  return { status: res.status, text: await res.text() };
}

/** A raw HTTP/1.1 connection to `url`; `post` writes a whole push at once and resolves with the raw answer. */
async function rawConnection(url: URL): Promise<{ post(body: string): Promise<string> }> {
  const socket = connect(Number(url.port), url.hostname);
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return {
    post(body: string): Promise<string> {
      let answer = '';
      const done = new Promise<string>((resolve) => {
        socket.on('data', (c: Buffer) => {
          answer += c.toString('utf8');
          if (answer.includes('</soap:Envelope>')) resolve(answer);
        });
      });
      socket.write(
        `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: ${SOAP_CONTENT_TYPE}\r\n` +
          `SOAPAction: ""\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      return done;
    },
  };
}

describe('PushReceiver recordReceipts', () => {
  it('records receipts read in one turn together and answers each only after they are stored', async () => {
    const calls: string[][] = [];
    const stored = new Set<string>();
    receiver = new PushReceiver({
      username: 'acme.1',
      recordReceipts: (list: readonly DeliveryReceipt[]) => {
        calls.push(list.map((r) => r.MessageIdentifier ?? ''));
        for (const r of list) stored.add(r.MessageIdentifier ?? '');
        return list.map(() => true);
      },
    });
    const url = new URL(await receiver.listen());
    const ids = ['M1', 'M2', 'M3', 'M4', 'M5'];
    const conns = await Promise.all(ids.map(() => rawConnection(url)));
    await new Promise((r) => setTimeout(r, 100)); // the receiver has accepted every connection
    // All five pushes written before this thread goes back to its event loop: they are read in one turn.
    const answers = conns.map((c, i) =>
      c.post(receipt(ids[i] ?? '')).then((text) => {
        const id = ids[i] ?? '';
        expect(stored.has(id), `${id} answered before it was stored`).toBe(true);
        return text;
      }),
    );
    const until = Date.now() + 100;
    while (Date.now() < until) {
      // busy: the five requests reach the receiver's socket buffers meanwhile
    }
    const texts = await Promise.all(answers);
    for (const [i, text] of texts.entries()) {
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
      const xml = text.slice(
        text.indexOf('<?xml'),
        text.indexOf('</soap:Envelope>') + '</soap:Envelope>'.length,
      );
      const answer = parseResponseEnvelope('SubmitDeliveryReceipt', xml);
      expect(answer).toMatchObject({ MessageIdentifier: ids[i], Report: 0 });
    }
    expect(calls).toEqual([ids]);
  });

  it('answers a receipt not stored with a server fault, the others stored as accepted', async () => {
    receiver = new PushReceiver({
      username: 'acme.1',
      recordReceipts: (list) => list.map((r) => r.MessageIdentifier !== 'BAD'),
    });
    const url = await receiver.listen();
    const [a, bad, b] = await Promise.all(['A1', 'BAD', 'B1'].map((id) => soapPost(url, receipt(id))));
    expect(a?.status).toBe(200);
    expect(b?.status).toBe(200);
    expect(parseResponseEnvelope('SubmitDeliveryReceipt', a?.text ?? '').Report).toBe(0);
    expect(bad?.status).toBe(500);
    expect(parseFault(bad?.text ?? '')).toMatchObject({ code: 'Server' });
  });

  it('answers every receipt of a turn with a server fault when recording them throws', async () => {
    let fail = true;
    receiver = new PushReceiver({
      username: 'acme.1',
      recordReceipts: (list) => {
        if (fail) throw new Error('database or disk is full');
        return list.map(() => true);
      },
    });
    const url = await receiver.listen();
    const res = await soapPost(url, receipt('F1'));
    expect(res.status).toBe(500);
    expect(parseFault(res.text)?.faultstring).toContain('database or disk is full');
    // the gateway's next push of it is taken
    fail = false;
    expect((await soapPost(url, receipt('F1'))).status).toBe(200);
  });
});
