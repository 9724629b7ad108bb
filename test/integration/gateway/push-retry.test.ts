// Issue 17, item 17: a delivery receipt whose push failed (the app's receiver was down or
// restarting) is pushed again with back-off to the account's push URL of that moment, a bounded
// number of times; one that fell due while the account had no push URL too.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PushReceiver } from '../../../main/client/push-receiver.ts';
import type { DeliveryReceipt } from '../../../main/client/push-receiver.ts';
import {
  MAX_PUSH_ATTEMPTS,
  PUSH_LEASE_MS,
  PUSH_RETRY_BASE_MS,
  PUSH_RETRY_MAX_DELAY_MS,
  pushRetryDelay,
} from '../../../gateway/network/push.ts';
import { setPushUrl } from '../../../gateway/sandbox.ts';
import { postForm, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ receiptDelayMs: 20 });
});
afterAll(async () => {
  await gw.close();
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function until<T>(read: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = read();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

type Row = {
  id: number;
  push_attempts: number;
  next_push_at: number | null;
  pushed_at: string | null;
  push_error: string | null;
};
const receiptOf = (mid: string): Row | undefined =>
  gw.ctx.db
    .prepare(
      'SELECT id, push_attempts, next_push_at, pushed_at, push_error FROM delivery_receipts WHERE message_identifier = ?',
    )
    .get(mid) as Row | undefined;

async function send(to: string): Promise<string> {
  const res = await postForm(gw.url, '/webservices/http/sendsms', {
    Username: gw.username,
    PIN: gw.pin,
    SendTo: to,
    Message: 'hello',
    ResponseFormat: '3',
  });
  const mid = new URLSearchParams(res.body).get('MessageIdentifier') ?? '';
  expect(mid).toMatch(/\w/);
  return mid;
}

describe('receipt push retries', () => {
  it('backs off, doubling, capped, bounded', () => {
    expect(pushRetryDelay(1)).toBe(PUSH_RETRY_BASE_MS);
    expect(pushRetryDelay(2)).toBe(2 * PUSH_RETRY_BASE_MS);
    expect(pushRetryDelay(30)).toBe(PUSH_RETRY_MAX_DELAY_MS);
    expect(MAX_PUSH_ATTEMPTS).toBeGreaterThan(1);
  });

  it('pushes a failed receipt again once the receiver is back at its address', async () => {
    const port = await freePort();
    const path = '/push/0123456789abcdef0123456789abcdef';
    setPushUrl(gw.ctx, gw.username, `http://127.0.0.1:${port}${path}`);
    const mid = await send('447700900701');
    // Nothing listens: the push fails and a retry is scheduled.
    const failed = await until(() => {
      const r = receiptOf(mid);
      return r && r.push_error !== null && r.next_push_at !== null ? r : undefined;
    }, 'the failed push');
    expect(failed.push_attempts).toBe(1);
    expect(failed.pushed_at).toBeNull();
    // The app restarts with the same address.
    const receiver = new PushReceiver({ username: gw.username, port, path });
    const got: DeliveryReceipt[] = [];
    receiver.on('receipt', (r) => got.push(r));
    await receiver.listen();
    try {
      // The back-off has passed (the clock is not waited for: the row says when).
      gw.ctx.db.prepare('UPDATE delivery_receipts SET next_push_at = 0 WHERE id = ?').run(failed.id);
      await until(() => (got.length > 0 ? got : undefined), 'the retried receipt');
      expect(got[0]?.MessageIdentifier).toBe(mid);
      const done = await until(() => {
        const r = receiptOf(mid);
        return r?.pushed_at ? r : undefined;
      }, 'the pushed mark');
      expect(done).toMatchObject({ push_attempts: 2, next_push_at: null, push_error: null });
    } finally {
      await receiver.close();
    }
  });

  it('keeps a receipt that fell due without a push URL, and gives up after the last attempt', async () => {
    setPushUrl(gw.ctx, gw.username, null);
    const mid = await send('447700900702');
    const waiting = await until(() => {
      const r = receiptOf(mid);
      return r && r.next_push_at !== null ? r : undefined;
    }, 'the scheduled retry');
    expect(waiting.push_error).toBe('no push URL');
    gw.ctx.db
      .prepare('UPDATE delivery_receipts SET push_attempts = ?, next_push_at = 0 WHERE id = ?')
      .run(MAX_PUSH_ATTEMPTS - 1, waiting.id);
    const gaveUp = await until(() => {
      const r = receiptOf(mid);
      return r && r.push_attempts === MAX_PUSH_ATTEMPTS ? r : undefined;
    }, 'the last attempt');
    expect(gaveUp.next_push_at).toBeNull();
    expect(gaveUp.pushed_at).toBeNull();
  });
});

describe('a receipt claimed when the gateway stops', () => {
  it('is pushed by the next run once its lease runs out (it was lost: claimed, never recorded)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-lease-'));
    // A receiver that takes the request and never answers: the push is under way when the gateway stops.
    const hanging = createHttpServer(() => undefined);
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    const pushed: string[] = [];
    const taking = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        pushed.push(/<MessageIdentifier>([^<]+)</.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? '');
        res.end('ok');
      });
    });
    await new Promise<void>((r) => taking.listen(0, '127.0.0.1', r));
    const urlOf = (s: typeof hanging) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/push`;
    try {
      const first = await startTestGateway({ dataDir, demo: true, receiptDelayMs: 20 });
      setPushUrl(first.ctx, first.username, urlOf(hanging));
      const res = await postForm(first.url, '/webservices/http/sendsms', {
        Username: first.username,
        PIN: first.pin,
        SendTo: '447700900801',
        Message: 'hello',
        ResponseFormat: '3',
      });
      const mid = new URLSearchParams(res.body).get('MessageIdentifier') ?? '';
      const row = () =>
        first.ctx.db
          .prepare(
            'SELECT status, next_push_at, pushed_at FROM delivery_receipts WHERE message_identifier = ?',
          )
          .get(mid) as { status: string; next_push_at: number | null; pushed_at: string | null } | undefined;
      await until(() => (row()?.status === 'delivered' ? true : undefined), 'the claim');
      const claimed = row()!;
      // Claimed with a lease: a run that stops now leaves it to be pushed again.
      expect(claimed.next_push_at).toBeGreaterThan(Date.now());
      expect(claimed.next_push_at).toBeLessThanOrEqual(Date.now() + PUSH_LEASE_MS);
      await first.close();
      hanging.closeAllConnections();

      const second = await startTestGateway({ dataDir, receiptDelayMs: 20 });
      try {
        setPushUrl(second.ctx, second.username, urlOf(taking));
        // The lease runs out (instead of waiting PUSH_LEASE_MS).
        second.ctx.db
          .prepare(
            'UPDATE delivery_receipts SET next_push_at = 0 WHERE message_identifier = ? AND next_push_at IS NOT NULL',
          )
          .run(mid);
        await until(() => (pushed.includes(mid) ? true : undefined), 'the push of the next run');
        expect(pushed).toEqual([mid]);
      } finally {
        await second.close();
      }
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((r) => hanging.close(() => r()));
      await new Promise<void>((r) => taking.close(() => r()));
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
