// Keyword auto-replies (issue 12) against a real reference gateway: a phone's "join" (through the
// sandbox's /sandbox/inbound, collected by CollectMessages) is answered once with the rule's text,
// sent through the gateway and marked automatic in the conversation; the same number the same day
// gets no second reply (no loop between two machines), a disabled rule and an opted-out number get
// none, and the daily cap stops the rest.
import { afterEach, describe, expect, it } from 'vitest';
import { fromPhone, signedInApp } from '../../support/app.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import { messageCount } from '../../support/gateway.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** The outbound auto-replies journaled so far, as [number, text]. */
async function replies(a: MessengerApp): Promise<string[][]> {
  const out: string[][] = [];
  for (const j of await a.api.outbox.jobs()) {
    for (const r of await a.api.outbox.recipients(j.id)) out.push([r.to, j.content.text]);
  }
  return out.sort();
}

async function settle(a: MessengerApp, expected: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const jobs = await a.api.outbox.jobs();
    if (jobs.length >= expected && jobs.every((j) => j.counts.pending === 0 && j.counts.sending === 0))
      return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${expected} auto-replies did not finish`);
}

describe('keyword auto-replies against the reference gateway', () => {
  it('answers a keyword once per number per day, marked automatic; never a disabled rule or an opt-out', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-autoreply-');
    const join = await a.api.autoreplies.create({ keyword: 'JOIN', reply: 'Welcome to the club!' });
    const off = await a.api.autoreplies.create({ keyword: 'HOURS', reply: 'Open 9-5', enabled: false });
    expect(join).toMatchObject({ keyword: 'JOIN', enabled: true, sentToday: 0 });
    await a.api.optouts.add(['447700900719']);

    const before = messageCount(gw.ctx, gw.username);
    await fromPhone(gw, '447700900711', 'join please');
    await fromPhone(gw, '447700900712', 'Joiner here'); // not the word JOIN
    await fromPhone(gw, '447700900713', 'hours?'); // its rule is disabled
    await fromPhone(gw, '447700900719', 'JOIN'); // opted out
    expect(await a.api.inbox.pollNow()).toEqual({ received: 4 });
    await settle(a, 1);
    expect(await replies(a)).toEqual([['447700900711', 'Welcome to the club!']]);
    expect(messageCount(gw.ctx, gw.username)).toBe(before + 1);

    // The conversation shows the reply as automatic.
    const convs = await a.api.inbox.conversations();
    const conv = convs.items.find((c) => c.peer === '447700900711')!;
    const thread = await a.api.inbox.thread({ conversationId: conv.id });
    const out = thread.items.find((m) => m.direction === 'out');
    expect(out).toMatchObject({ text: 'Welcome to the club!', automatic: true });
    expect(thread.items.find((m) => m.direction === 'in')?.automatic).toBeUndefined();

    // The same number again (another machine answering): no second reply today.
    await fromPhone(gw, '447700900711', 'JOIN');
    expect(await a.api.inbox.pollNow()).toEqual({ received: 1 });
    await settle(a, 1);
    expect(await replies(a)).toHaveLength(1);
    expect((await a.api.autoreplies.list()).find((r) => r.id === join.id)?.sentToday).toBe(1);

    // Enabled now, the other rule answers.
    await a.api.autoreplies.update({ id: off.id, enabled: true });
    await fromPhone(gw, '447700900714', 'HOURS');
    await a.api.inbox.pollNow();
    await settle(a, 2);
    expect(await replies(a)).toEqual([
      ['447700900711', 'Welcome to the club!'],
      ['447700900714', 'Open 9-5'],
    ]);
  });

  it('stops at the daily cap; a rule can be deleted; an empty keyword is refused', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-autoreply-');
    await a.api.settings.update({ autoReplyDailyCap: 1 });
    const rule = await a.api.autoreplies.create({ keyword: 'info', reply: 'See example.org' });
    await fromPhone(gw, '447700900721', 'INFO');
    await fromPhone(gw, '447700900722', 'info');
    await a.api.inbox.pollNow();
    await settle(a, 1);
    // A cap of 2 lets one more through: the next number is answered, the capped one never was
    // (replies are journaled in arrival order).
    await a.api.settings.update({ autoReplyDailyCap: 2 });
    await fromPhone(gw, '447700900723', 'Info');
    await a.api.inbox.pollNow();
    await settle(a, 2);
    expect((await replies(a)).map(([n]) => n)).toEqual(['447700900721', '447700900723']);
    await expect(a.api.autoreplies.create({ keyword: ' ', reply: 'x' })).rejects.toMatchObject({
      code: 'invalid-request',
    });
    await a.api.autoreplies.delete(rule.id);
    expect(await a.api.autoreplies.list()).toEqual([]);
  });
});
