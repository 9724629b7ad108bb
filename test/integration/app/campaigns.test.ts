// Issue 12 item 6 (campaigns) and issue 17 item 19 (Continue sending) against the reference gateway:
// a campaign's rows follow its resends; "Resend to failed" sends only the failed recipients, never an
// opted-out one, and a second click sends nothing; Continue sending leaves out numbers that opted out
// after the send was journaled, and says how many.
import { afterEach, describe, expect, it } from 'vitest';
import { messageCount } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';
import { loopStopped, signedInApp, type Cleanups } from '../../support/app.ts';
import type { MessengerApp } from '../../../main/services/app.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** How many messages the gateway took (not refused) for `number` (however it stored the number). */
function sentTo(gw: TestGateway, number: string): number {
  return (
    gw.ctx.db
      .prepare("SELECT count(*) AS n FROM messages WHERE recipient IN (?, '+' || ?) AND status != 'rejected'")
      .get(number, number) as { n: number }
  ).n;
}

async function until<T>(what: string, fn: () => Promise<T | null>, tries = 400): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await fn();
    if (v !== null) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const settled = (a: MessengerApp, jobId: number) =>
  until(`send ${jobId} to settle`, async () => {
    const j = await a.api.outbox.job(jobId);
    return j && j.counts.pending === 0 && j.counts.sending === 0 ? j : null;
  });

describe('campaigns', () => {
  it(
    'resends to the failed recipients only, never to an opted-out one, once',
    { timeout: 60_000 },
    async () => {
      // Credit for 3 messages: the other 5 are refused "out of credit" (rejected).
      const { gw, a } = await signedInApp(cleanups, 'messenger-campaign-', {
        credit: '0.15',
        receiptDelayMs: 50,
      });
      const numbers = Array.from({ length: 8 }, (_, i) => `447700900${310 + i}`);
      const sent = await a.api.send.submit({
        recipients: numbers,
        content: { kind: 'text', text: 'Spring sale' },
      });
      await settled(a, sent.job.id);
      let c = await a.api.campaigns.get(sent.job.id);
      const failed = c.rows.filter((r) => r.status === 'rejected' || r.status === 'failed').map((r) => r.to);
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.length).toBeLessThan(numbers.length);
      const before = messageCount(gw.ctx, gw.username);
      // The counts are the rows'.
      expect(c.counts.rejected + c.counts.failed).toBe(failed.length);
      expect(Object.values(c.counts).reduce((x, y) => x + y, 0)).toBe(numbers.length);

      // One failed number opts out; the account is topped up.
      const stop = failed[0]!;
      await a.api.optouts.add([stop]);
      gw.ctx.db.prepare('UPDATE accounts SET credit = credit + 100000 WHERE username = ?').run(gw.username);
      const [r, second] = await Promise.allSettled([
        a.api.campaigns.resendFailed(sent.job.id),
        a.api.campaigns.resendFailed(sent.job.id),
      ]);
      // Two clicks: one resend, the other refused because nothing is failed any more.
      expect(r.status).toBe('fulfilled');
      expect(second).toMatchObject({ status: 'rejected', reason: { code: 'invalid-state' } });
      const resend = (r as PromiseFulfilledResult<Awaited<ReturnType<typeof a.api.campaigns.resendFailed>>>)
        .value;
      expect(resend.optedOut).toBe(1);
      expect(resend.job.resendOf).toBe(sent.job.id);
      await settled(a, resend.job.id);
      expect(messageCount(gw.ctx, gw.username)).toBe(before + failed.length - 1);
      expect(sentTo(gw, stop)).toBe(0);
      for (const n of failed.slice(1)) expect(sentTo(gw, n)).toBe(1);
      // Nobody who had been accepted got it twice.
      for (const n of numbers.filter((x) => !failed.includes(x))) expect(sentTo(gw, n)).toBe(1);

      c = await a.api.campaigns.get(resend.job.id);
      expect(c.job.id).toBe(sent.job.id);
      expect(c.jobIds).toEqual([sent.job.id, resend.job.id]);
      expect(c.rows.length).toBe(numbers.length);
      expect(c.rows.find((x) => x.to === stop)).toMatchObject({ status: 'rejected', optedOut: true });
      expect(c.rows.filter((x) => x.optedOut).map((x) => x.to)).toEqual([stop]);
      expect(c.counts.rejected + c.counts.failed).toBe(1);
      // The campaign made no Inbox conversation (item 6), resend included.
      expect((await a.api.inbox.conversations()).items.length).toBe(0);
    },
  );
});

describe('Continue sending and opt-outs', () => {
  it('leaves out numbers that opted out after the send was journaled', { timeout: 60_000 }, async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-continue-optout-', { credit: '100000.00' });
    const numbers = Array.from({ length: 1000 }, (_, i) => `447911${201000 + i}`);
    const firstBatch = new Promise<void>((resolve) => a.events.on('outbox:progress', () => resolve()));
    const sent = await a.api.send.submit({
      recipients: numbers,
      content: { kind: 'text', text: 'continue' },
    });
    await firstBatch;
    await a.api.accounts.signOut();
    const batches = await loopStopped(a, sent.job.id);
    const requested = new Set(batches.filter((b) => b.state !== 'pending').flatMap((b) => b.recipients));
    const pending = batches.filter((b) => b.state === 'pending').flatMap((b) => b.recipients);
    expect(pending.length).toBeGreaterThan(2);
    // One already requested (it stays as it was), two never requested.
    const out = [[...requested][0]!, pending[0]!, pending[pending.length - 1]!];
    await a.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    await a.api.optouts.add(out);
    const result = await a.api.outbox.continue(sent.job.id);
    expect(result.optedOut).toBe(2);
    const job = await settled(a, sent.job.id);
    expect(messageCount(gw.ctx, gw.username)).toBe(numbers.length - 2);
    expect(sentTo(gw, out[1]!)).toBe(0);
    expect(sentTo(gw, out[2]!)).toBe(0);
    expect(sentTo(gw, out[0]!)).toBe(1);
    expect(job.counts.rejected).toBe(2);
    const rows = await a.api.outbox.recipients(sent.job.id);
    expect(rows.find((r) => r.to === out[1])?.reportText).toMatch(/opted out/);
  });
});
