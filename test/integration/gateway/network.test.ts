// The simulated network over real HTTP: PDUs per part, delivery receipts with the documented
// deterministic outcomes, receipts pushed as SubmitDeliveryReceipt to a real local SOAP listener,
// pending receipts surviving a restart, and the walled-garden rule.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildRequestEnvelope,
  buildResponseEnvelope,
  parseRequestEnvelope,
  parseResponseEnvelope,
} from '../../../protocol/soap/envelope.ts';
import { decodeSubmitPdu } from '../../../protocol/smart/sms-submit.ts';
import { postForm, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function gateway(opts: Parameters<typeof startTestGateway>[0] = {}): Promise<TestGateway> {
  const gw = await startTestGateway({ sandbox: true, receiptDelayMs: 30, ...opts });
  cleanup.push(() => gw.close());
  return gw;
}

async function send(
  gw: TestGateway,
  fields: Record<string, string>,
  creds = { username: gw.username, pin: gw.pin },
) {
  const res = await postForm(gw.url, '/webservices/http/sendsms', {
    Username: creds.username,
    PIN: creds.pin,
    ResponseFormat: '3',
    ...fields,
  });
  expect(res.status).toBe(200);
  const ids = new URLSearchParams(res.body).get('MessageIdentifier')!.split(',');
  return { body: res.body, ids };
}

async function outbound(gw: TestGateway, id: string) {
  const res = await fetch(`${gw.url}/sandbox/outbound?messageIdentifier=${id}`);
  return (await res.json()) as Array<{
    MessageIdentifier: string;
    recipient: string;
    part: number;
    parts: number;
    dcs: number;
    udh: string;
    userData: string;
    pdu: string;
    summary: Record<string, unknown>;
  }>;
}

async function until<T>(fn: () => T | Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function receipts(gw: TestGateway, id: string) {
  return gw.ctx.db
    .prepare(
      'SELECT part, report, status, pushed_at, push_error FROM delivery_receipts WHERE message_identifier = ? ORDER BY part',
    )
    .all(id) as Array<{
    part: number;
    report: number;
    status: string;
    pushed_at: string | null;
    push_error: string | null;
  }>;
}

describe('PDUs', () => {
  it('a long text becomes concatenated GSM-7 PDUs a decoder reassembles', async () => {
    const gw = await gateway();
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(5).trim();
    const { ids } = await send(gw, { SendTo: '447700900401', Message: text });
    const pdus = await outbound(gw, ids[0]!);
    expect(pdus.length).toBe(2);
    const decoded = pdus.map((p) => decodeSubmitPdu(p.pdu));
    expect(decoded.map((d) => d.to)).toEqual(['447700900401', '447700900401']);
    expect(decoded.every((d) => d.alphabet === 'GSM-7')).toBe(true);
    expect(decoded.map((d) => d.udh.concat?.seq)).toEqual([1, 2]);
    expect(decoded.map((d) => d.text).join('')).toBe(text);
    expect(pdus[0]!.summary).toMatchObject({ kind: 'text', concat: { total: 2, seq: 1 } });
  });

  it('flash text is message class 0, Unicode text is UCS-2', async () => {
    const gw = await gateway();
    const flash = await send(gw, { SendTo: '447700900402', FlashMessage: 'Look now' });
    const [f] = await outbound(gw, flash.ids[0]!);
    expect(decodeSubmitPdu(f!.pdu)).toMatchObject({ messageClass: 0, text: 'Look now' });
    const uni = await send(gw, { SendTo: '447700900403', Message: 'Привет 👋' });
    const [u] = await outbound(gw, uni.ids[0]!);
    expect(decodeSubmitPdu(u!.pdu)).toMatchObject({ alphabet: 'UCS-2', text: 'Привет 👋' });
  });
});

describe('delivery receipts', () => {
  it('numbers ending 0000 fail, 0001 never get a receipt, others are delivered, per part', async () => {
    const gw = await gateway();
    const long = 'x'.repeat(200);
    const { ids } = await send(gw, { SendTo: '447700900402,447700900000,447700900001', Message: long });
    const [ok, fail, none] = ids as [string, string, string];
    await until(
      () => receipts(gw, ok),
      (r) => r.length === 2 && r.every((x) => x.status === 'delivered'),
    );
    await until(
      () => receipts(gw, fail),
      (r) => r.length === 2 && r.every((x) => x.status === 'delivered'),
    );
    expect(receipts(gw, ok).map((r) => r.report)).toEqual([0, 0]);
    expect(receipts(gw, fail).map((r) => r.report)).toEqual([76, 76]);
    expect(receipts(gw, none)).toEqual([]);
    const status = (id: string) =>
      (
        gw.ctx.db.prepare('SELECT status FROM messages WHERE message_identifier = ?').get(id) as {
          status: string;
        }
      ).status;
    expect(status(ok)).toBe('delivered');
    expect(status(fail)).toBe('failed');
    expect(status(none)).toBe('dispatched');
    const listed = (await (
      await fetch(`${gw.url}/sandbox/receipts?messageIdentifier=${ok}`)
    ).json()) as unknown[];
    expect(listed).toHaveLength(2);
  });

  it('are pushed as SubmitDeliveryReceipt to the account push URL', async () => {
    const got: Array<{ op: string; request: Record<string, unknown>; type: string }> = [];
    const listener = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const parsed = parseRequestEnvelope(Buffer.concat(chunks));
        got.push({
          op: parsed.operation,
          request: parsed.request as Record<string, unknown>,
          type: req.headers['content-type'] ?? '',
        });
        res.writeHead(200, { 'content-type': 'text/xml' }).end('<ok/>');
      });
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise<void>((r) => listener.close(() => r())));
    // two instances on one data directory: each receipt is still pushed exactly once
    const gw = await gateway({ secondary: true });
    const pushUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/receipts`;
    const acct = gw.addAccount({ credit: '1.00', pushUrl });
    const { ids } = await send(gw, { SendTo: '447700900404,447700900000', Message: 'push me' }, acct);
    await until(
      () => got.length,
      (n) => n >= 2,
    );
    expect(got.map((g) => g.op)).toEqual(['SubmitDeliveryReceipt', 'SubmitDeliveryReceipt']);
    expect(got[0]!.type).toContain('text/xml');
    const byId = Object.fromEntries(got.map((g) => [g.request['MessageIdentifier'], g.request]));
    expect(byId[ids[0]!]).toMatchObject({ Username: acct.username, SentTo: '447700900404', Report: 0 });
    expect(byId[ids[1]!]).toMatchObject({ SentTo: '447700900000', Report: 76 });
    expect(JSON.stringify(got)).not.toContain(acct.pin);
    await new Promise((r) => setTimeout(r, 1200));
    expect(got).toHaveLength(2);
    const pushed = await until(
      () => receipts(gw, ids[0]!),
      (r) => r[0]?.pushed_at !== null,
    );
    expect(pushed[0]!.push_error).toBeNull();
  });

  it('an unreachable push URL is recorded, not fatal', async () => {
    const gw = await gateway();
    const acct = gw.addAccount({ credit: '1.00', pushUrl: 'http://127.0.0.1:9/nothing' });
    const { ids } = await send(gw, { SendTo: '447700900405', Message: 'x' }, acct);
    const r = await until(
      () => receipts(gw, ids[0]!),
      (x) => x[0]?.push_error !== null && x[0]?.push_error !== undefined,
    );
    expect(r[0]!.push_error).toBeTruthy();
  });

  it('pending receipts survive a restart and are delivered once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gw-restart-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const first = await startTestGateway({ sandbox: true, receiptDelayMs: 2500, dataDir, demo: true });
    const { ids } = await send(first, { SendTo: '447700900406', Message: 'before restart' });
    // the network gets the message off the request path (network_queue), then holds its receipt
    const pending = await until(
      () => receipts(first, ids[0]!),
      (x) => x.length > 0,
      5_000,
    );
    expect(pending.map((r) => r.status)).toEqual(['pending']);
    await first.close();
    const second = await startTestGateway({ sandbox: true, receiptDelayMs: 2500, dataDir, demo: false });
    cleanup.push(() => second.close());
    const r = await until(
      () => receipts(second, ids[0]!),
      (x) => x[0]?.status === 'delivered',
      10_000,
    );
    expect(r).toEqual([expect.objectContaining({ part: 1, report: 0, status: 'delivered' })]);
  });
});

describe('inbound push', () => {
  it('pushes an inbound message as DeliverMessage; taken pushes are not collected again, refused ones are', async () => {
    let answer = 0;
    const got: Array<Record<string, unknown>> = [];
    const listener = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const parsed = parseRequestEnvelope(Buffer.concat(chunks));
        got.push({ op: parsed.operation, ...(parsed.request as Record<string, unknown>) });
        res
          .writeHead(200, { 'content-type': 'text/xml; charset=utf-8' })
          .end(buildResponseEnvelope('DeliverMessage', { MessageIdentifier: 'R1', Report: answer }));
      });
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise<void>((r) => listener.close(() => r())));
    const gw = await gateway();
    const pushUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/push`;
    const acct = gw.addAccount({ number: '447700900950', pushUrl });
    const inject = (Message: string) =>
      postForm(gw.url, '/sandbox/inbound', { SendTo: '447700900950', ReplyTo: '447700900951', Message });
    const collect = async () => {
      const res = await fetch(`${gw.url}/sendsms5`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8' },
        body: buildRequestEnvelope('CollectMessages', { Username: acct.username, PIN: acct.pin }),
      });
      return parseResponseEnvelope('CollectMessages', await res.text()).MessageList.item.map(
        (m) => m.Message.TextMessage,
      );
    };
    expect((await inject('taken')).status).toBe(200);
    await until(
      () => got.length,
      (n) => n >= 1,
    );
    expect(got[0]).toMatchObject({
      op: 'DeliverMessage',
      Username: acct.username,
      Recipient: { SendTo: '447700900950' },
      ReplyTo: '447700900951',
      Message: { TextMessage: 'taken' },
    });
    expect(JSON.stringify(got)).not.toContain(acct.pin);
    await until(
      () =>
        gw.ctx.db.prepare("SELECT collected FROM inbound_messages WHERE message = 'taken'").get() as {
          collected: number;
        },
      (r) => r.collected === 1,
    );
    answer = 2; // the receiver refuses: the message stays queued for CollectMessages
    await inject('refused');
    await until(
      () => got.length,
      (n) => n >= 2,
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(await collect()).toEqual(['refused']);
    expect(await collect()).toEqual([]);
  });
});

describe('push load', () => {
  it('a 30-recipient request pushes 30 receipts, never more than 8 at a time', async () => {
    let active = 0;
    let peak = 0;
    let count = 0;
    const listener = createServer((req, res) => {
      active++;
      peak = Math.max(peak, active);
      req.resume();
      req.on('end', () => {
        setTimeout(() => {
          active--;
          count++;
          res.writeHead(200, { 'content-type': 'text/xml' }).end('<ok/>');
        }, 30);
      });
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise<void>((r) => listener.close(() => r())));
    const gw = await gateway();
    const acct = gw.addAccount({
      credit: '5.00',
      pushUrl: `http://127.0.0.1:${(listener.address() as AddressInfo).port}/`,
    });
    const to = Array.from({ length: 30 }, (_, i) => `4477009008${String(i).padStart(2, '0')}`).join(',');
    await send(gw, { SendTo: to, Message: 'load' }, acct);
    await until(
      () => count,
      (n) => n >= 30,
      10_000,
    );
    expect(count).toBe(30);
    expect(peak).toBeLessThanOrEqual(8);
    expect(peak).toBeGreaterThan(1);
  });
});
