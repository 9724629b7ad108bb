// Issue 15: a campaign's delivery receipts fall due by the thousand. The network claims only as
// many as the pusher has room for (PUSH_BACKLOG_MAX), the rest waits pending in the database and is
// claimed as pushes finish; every receipt is still pushed, exactly once. Before, every due receipt
// was claimed at once and queued in memory (100,000 waiting pushes after a 100,000 campaign).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_BACKLOG_MAX } from '../../../gateway/network/push.ts';
import { receiptOutcome } from '../../../gateway/network/simulator.ts';
import { setPushUrl } from '../../../gateway/sandbox.ts';
import { postForm, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ receiptDelayMs: 20, credit: '1000.00' });
});
afterAll(async () => {
  await gw.close();
});

describe('receipt pushes of a large send', () => {
  it('keep at most PUSH_BACKLOG_MAX claimed and unpushed, and push every receipt once', async () => {
    const pushed = new Map<string, number>();
    let mostWaiting = 0;
    // Claimed by the network (no longer pending) and not yet answered by the receiver.
    const waiting = gw.ctx.db.prepare(
      "SELECT count(*) AS n FROM delivery_receipts WHERE status = 'delivered' AND pushed_at IS NULL AND push_attempts = 0",
    );
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const mid = /<MessageIdentifier>([^<]+)</.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? '';
        pushed.set(mid, (pushed.get(mid) ?? 0) + 1);
        mostWaiting = Math.max(mostWaiting, (waiting.get() as { n: number }).n);
        // a slow receiver: the backlog fills
        setTimeout(() => res.end('ok'), 2);
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    setPushUrl(gw.ctx, gw.username, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/push`);
    try {
      const numbers = Array.from({ length: 1050 }, (_, i) => String(447400200000 + i));
      const expected = numbers.filter((n) => receiptOutcome(n) !== 'none').length;
      const mids: string[] = [];
      for (let start = 0; start < numbers.length; start += 350) {
        const res = await postForm(gw.url, '/webservices/http/sendsms', {
          Username: gw.username,
          PIN: gw.pin,
          SendTo: numbers.slice(start, start + 350).join(','),
          Message: 'hello',
          ResponseFormat: '3',
        });
        mids.push(...(new URLSearchParams(res.body).get('MessageIdentifier') ?? '').split(','));
      }
      expect(mids).toHaveLength(1050);
      for (let i = 0; i < 600 && pushed.size < expected; i++) await new Promise((r) => setTimeout(r, 25));
      expect(pushed.size).toBe(expected);
      expect([...pushed.values()].every((n) => n === 1)).toBe(true);
      expect(mostWaiting).toBeGreaterThan(0);
      expect(mostWaiting).toBeLessThanOrEqual(PUSH_BACKLOG_MAX);
    } finally {
      setPushUrl(gw.ctx, gw.username, null);
      receiver.closeAllConnections();
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 30_000);
});
