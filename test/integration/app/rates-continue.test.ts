// Review of issue 26's learned prices: a send continued after a sign-out is charged, between the
// credit read before it continues and the one after, for the recipients it requests then only. The
// price learned from it is the gateway's (Default 0.04 GBP a part), not the drop spread over every
// recipient the send ever had accepted.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp, type MessengerApp } from '../../../main/services/app.ts';
import { startTestGateway } from '../../support/gateway.ts';
import { jobFinished, loopStopped } from '../../support/app.ts';
import type { Credit } from '../../../domain/index.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function creditWhen(a: MessengerApp, basis: string): Promise<Credit> {
  for (let i = 0; i < 1200; i++) {
    const c = await a.api.credit.get();
    if (c?.rates?.find((r) => r.option === 'Default')?.basis === basis) return c;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the Default price never had the basis ${basis}`);
}

describe('a price learned from a continued send', () => {
  it('counts only the recipients requested after it continued', { timeout: 60_000 }, async () => {
    const gw = await startTestGateway({ credit: '100.00' });
    cleanups.push(() => gw.close());
    const dir = await mkdtemp(join(tmpdir(), 'messenger-rates-continue-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
    cleanups.push(() => a.close());
    const signIn = () =>
      a.api.accounts.signIn({ username: gw.username, pin: gw.pin, primaryUrl: gw.url, rememberPin: false });
    await signIn();
    const numbers = Array.from({ length: 2000 }, (_, i) => `447911${201000 + i}`);
    const firstBatch = new Promise<void>((resolve) => a.events.on('outbox:progress', () => resolve()));
    const sent = await a.api.send.submit({
      recipients: numbers,
      content: { kind: 'text', text: 'continue me' },
    });
    await firstBatch;
    await a.api.accounts.signOut();
    const before = await loopStopped(a, sent.job.id);
    expect(before.map((b) => b.state)).toContain('pending');
    expect((await a.api.outbox.job(sent.job.id))?.counts.accepted).toBeGreaterThan(0);

    await signIn();
    await a.api.outbox.continue(sent.job.id);
    await jobFinished(a, sent.job.id);
    const learned = await creditWhen(a, 'learned');
    expect(learned.credit).toBe('20.0000');
    expect(learned.rates?.find((r) => r.option === 'Default')).toMatchObject({
      price: '0.0400',
      basis: 'learned',
      messages: 500,
    });
  });
});
