// Message prices (issue 26) against a real reference gateway, whose tariffs are Premier 0.05 and
// Default 0.04 GBP a part: with 10.00 GBP, AvailableMessages says 200 (premier messages only, spec
// 4.3); the app counts at that until a send shows what Default costs, then learns 0.04 from the
// credit before and after, counts 240 left, and "send to the first K" uses the whole credit: the
// gateway accepts every one of them and the credit ends at 0. A price set by the administrator (the
// deploy policy) or in the settings wins, and is never learned over.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp, type MessengerApp } from '../../../main/services/app.ts';
import { signedInApp, jobFinished as finished } from '../../support/app.ts';
import { messageCount, startTestGateway, storedCredit } from '../../support/gateway.ts';
import type { Credit } from '../../../preload/api.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const numbers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `447400${100000 + from + i}`);

/** The credit once its Default price has the basis `basis` (the send's last refresh is awaited). */
async function creditWhen(a: MessengerApp, basis: string): Promise<Credit> {
  for (let i = 0; i < 400; i++) {
    const c = await a.api.credit.get();
    if (c?.rates?.find((r) => r.option === 'Default')?.basis === basis) return c;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the Default price never had the basis ${basis}`);
}

describe('message prices against the reference gateway', () => {
  it('learns the Default price from a send and sends to the first K with the whole credit', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-rates-');
    const start = await a.api.credit.refresh();
    expect(start.availableMessages).toBe('200');
    expect(start.rates?.map((r) => [r.option, r.basis, r.price, r.messages])).toEqual([
      ['Default', 'availableMessages', '0.0500', 200],
      ['Premier', 'availableMessages', '0.0500', 200],
      ['LeastCost', 'availableMessages', '0.0500', 200],
      ['Economy', 'availableMessages', '0.0500', 200],
    ]);

    const sent = await a.api.send.submit({ recipients: numbers(10), content: { kind: 'text', text: 'Hi' } });
    await finished(a, sent.job.id);
    const learned = await creditWhen(a, 'learned');
    expect(learned.credit).toBe('9.6000');
    const byOption = Object.fromEntries((learned.rates ?? []).map((r) => [r.option, r]));
    expect(byOption.Default).toMatchObject({ price: '0.0400', basis: 'learned', messages: 240 });
    // Only the option that was sent is learned.
    expect(byOption.Premier).toMatchObject({ basis: 'availableMessages', messages: 192 });

    const request = { recipients: numbers(260, 100), content: { kind: 'text' as const, text: 'Hello' } };
    const estimate = await a.api.send.estimate(request);
    expect(estimate).toMatchObject({
      recipients: 260,
      availableMessages: 240,
      affordableRecipients: 240,
      wouldFail: 20,
      cost: '10.4000',
      rate: { option: 'Default', price: '0.0400', basis: 'learned' },
    });
    expect(estimate.byOption?.find((r) => r.option === 'Premier')).toMatchObject({
      cost: '13.0000',
      basis: 'availableMessages',
    });

    const before = messageCount(gw.ctx, gw.username, 'rejected');
    const first = await a.api.send.submit({ ...request, limit: estimate.affordableRecipients! });
    const job = await finished(a, first.job.id);
    expect(job.recipientCount).toBe(240);
    // Every one accepted: none refused for want of credit, and none of the credit left over.
    expect(job.counts.rejected).toBe(0);
    expect(messageCount(gw.ctx, gw.username, 'rejected')).toBe(before);
    expect(storedCredit(gw.ctx, gw.username)).toBe(0);
  });

  it('a price set by the administrator or in the settings wins and is not learned over', async () => {
    const gw = await startTestGateway({ receiptDelayMs: 100 });
    cleanups.push(() => gw.close());
    const dir = await mkdtemp(join(tmpdir(), 'messenger-rates-policy-'));
    const file = join(dir, 'policy.json');
    await writeFile(file, JSON.stringify({ deliveryRates: { Default: '0.04' } }));
    const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {}, policy: { file } });
    cleanups.push(async () => {
      await a.close();
      await rm(dir, { recursive: true, force: true });
    });
    await a.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    await a.api.settings.update({
      deliveryRates: { Default: '0.09', Premier: '', LeastCost: '', Economy: '0.025' },
    });
    const c = await a.api.credit.refresh();
    const byOption = Object.fromEntries((c.rates ?? []).map((r) => [r.option, r]));
    expect(byOption.Default).toMatchObject({ price: '0.0400', basis: 'policy', messages: 250 });
    expect(byOption.Economy).toMatchObject({ price: '0.0250', basis: 'setting', messages: 400 });
    expect(byOption.Premier).toMatchObject({ basis: 'availableMessages', messages: 200 });
    // A setting refused by its rule is not stored.
    await expect(
      a.api.settings.update({ deliveryRates: { Default: '0', Premier: '', LeastCost: '', Economy: '' } }),
    ).rejects.toMatchObject({ message: /Message prices \(deliveryRates\): each must be above 0/ });

    // A Default send with its price set by the administrator learns nothing over it.
    const sent = await a.api.send.submit({ recipients: numbers(3), content: { kind: 'text', text: 'Hi' } });
    await finished(a, sent.job.id);
    await new Promise((r) => setTimeout(r, 300));
    expect((await a.api.credit.get())?.rates?.find((r) => r.option === 'Default')?.basis).toBe('policy');
  });
});
