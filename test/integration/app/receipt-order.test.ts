// Issue 25 ("nothing lost"), a report of the day: in a sandbox send, the first recipient of the first
// batch was left 'accepted' (799 of 800 receipts). Every receipt the gateway pushes is applied once,
// whether it arrives before or after its batch's answer is stored (receipts pushed at once).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import type { RecipientOutcome } from '../../../preload/api.ts';
import { signedInApp } from '../../support/app.ts';
import type { Cleanups } from '../../support/app.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Polls until every recipient has its receipt (or the generous bound runs out); the last read. */
async function settled(a: MessengerApp, jobId: number, ms = 30_000): Promise<RecipientOutcome[]> {
  const end = Date.now() + ms;
  for (;;) {
    const rs = await a.api.outbox.recipients(jobId);
    if (rs.every((r) => r.receiptReport !== null) || Date.now() > end) return rs;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('receipts pushed at once', () => {
  it('every recipient of an 800-recipient send gets its receipt, the first of the first batch too', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-rcpt-', {
      receiptDelayMs: 0,
      credit: '1000.00',
    });
    await a.api.settings.update({ pushReceiver: { enabled: true, port: null } });
    gw.ctx.db
      .prepare('UPDATE accounts SET push_url = ? WHERE username = ?')
      .run(a.pushReceiverUrl(), gw.username);
    // numbers ending 0000 / 0001 are the simulator's failed / no-receipt numbers (docs/GATEWAY.md)
    const recipients = Array.from({ length: 800 }, (_, i) => `447700900${String(2 + i).padStart(3, '0')}`);
    const sent = await a.api.send.submit({ recipients, content: { kind: 'text', text: 'Receipts' } });
    const rs = await settled(a, sent.job.id);
    const missing = rs.filter((r) => r.receiptReport === null).map((r) => `${r.to} ${r.status}`);
    expect(missing).toEqual([]);
    expect(rs.filter((r) => r.status === 'delivered')).toHaveLength(800);
    expect(rs[0]?.to).toBe(recipients[0]);
  }, 120_000);
});

describe('receipts of a multi-part message', () => {
  it('a three-part text: a receipt per part, the message delivered or failed as its number says', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-rcpt-parts-', { receiptDelayMs: 0 });
    await a.api.settings.update({ pushReceiver: { enabled: true, port: null } });
    gw.ctx.db
      .prepare('UPDATE accounts SET push_url = ? WHERE username = ?')
      .run(a.pushReceiverUrl(), gw.username);
    // 447700900000 ends 0000: the simulator's not-delivered number (Report 76 for every part)
    const recipients = ['447700900000', '447700900010', '447700900011'];
    const sent = await a.api.send.submit({ recipients, content: { kind: 'text', text: 'p'.repeat(400) } });
    // every part's receipt answered by the app's receiver (it records a receipt before it answers)
    const pushed = gw.ctx.db.prepare(
      'SELECT count(*) AS n FROM delivery_receipts WHERE pushed_at IS NOT NULL AND push_error IS NULL',
    );
    const end = Date.now() + 30_000;
    while ((pushed.get() as { n: number }).n < 9 && Date.now() < end)
      await new Promise((r) => setTimeout(r, 100));
    expect(pushed.get()).toEqual({ n: 9 });
    const rs = await a.api.outbox.recipients(sent.job.id);
    expect(rs.map((r) => [r.to, r.status, r.receiptReport])).toEqual([
      ['447700900000', 'failed', '76'],
      ['447700900010', 'delivered', '0'],
      ['447700900011', 'delivered', '0'],
    ]);
  }, 120_000);
});

describe('sandbox receipts pushed at once', () => {
  it('the sandbox (its own thread, receiver started by the app) gives every recipient its receipt', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'messenger-rcpt-sandbox-'));
    const a = await createMessengerApp({
      dataDir: dir,
      sandbox: true,
      sandboxReceiptDelayMs: 0,
      env: {},
      log: () => {},
    });
    cleanups.push(async () => {
      await a.close();
      await rm(dir, { recursive: true, force: true });
    });
    // the sandbox's demo credit (10.00) pays for 250 messages
    const recipients = Array.from({ length: 240 }, (_, i) => `447700900${String(2 + i).padStart(3, '0')}`);
    const sent = await a.api.send.submit({ recipients, content: { kind: 'text', text: 'Receipts' } });
    const rs = await settled(a, sent.job.id);
    expect(rs.filter((r) => r.receiptReport === null).map((r) => `${r.to} ${r.status}`)).toEqual([]);
    expect(rs.filter((r) => r.status === 'delivered')).toHaveLength(240);
  }, 120_000);
});
