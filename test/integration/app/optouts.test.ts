// Opt-outs (issue 12) against a real reference gateway: STOP and UNSUBSCRIBE sent from a phone (the
// sandbox's /sandbox/inbound route, collected by CollectMessages) put the number on the account's
// list, START takes it off; a send, an estimate and a resend leave opted-out numbers out and the
// gateway never receives a message for them; the list is edited and exported.
import { afterEach, describe, expect, it } from 'vitest';
import { fromPhone, signedInApp, jobFinished as finished } from '../../support/app.ts';
import { messageCount } from '../../support/gateway.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('opt-outs against the reference gateway', () => {
  it('STOP puts a number on the list, a send skips it, START takes it off', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-optouts-');
    await fromPhone(gw, '447700900701', 'Stop.');
    await fromPhone(gw, '447700900702', 'unsubscribe me please');
    await fromPhone(gw, '447700900703', 'Do not stop the music');
    expect(await a.api.inbox.pollNow()).toEqual({ received: 3 });
    const list = await a.api.optouts.list();
    expect(list.map((o) => [o.number, o.source, o.keyword]).sort()).toEqual([
      ['447700900701', 'keyword', 'STOP'],
      ['447700900702', 'keyword', 'UNSUBSCRIBE'],
    ]);

    const request = {
      recipients: ['447700900701', '447700900702', '447700900703'],
      content: { kind: 'text' as const, text: 'Offer ends today' },
    };
    expect(await a.api.send.estimate(request)).toMatchObject({ recipients: 1, optedOut: 2 });
    const before = messageCount(gw.ctx, gw.username);
    const sent = await a.api.send.submit(request);
    expect(sent.optedOut).toBe(2);
    expect(sent.job.recipientCount).toBe(1);
    await finished(a, sent.job.id);
    expect((await a.api.outbox.recipients(sent.job.id)).map((o) => o.to)).toEqual(['447700900703']);
    expect(messageCount(gw.ctx, gw.username)).toBe(before + 1);

    // Only opted-out numbers: nothing is journaled, nothing sent.
    await expect(
      a.api.send.submit({ recipients: ['447700900701'], content: { kind: 'text', text: 'Still there?' } }),
    ).rejects.toMatchObject({ code: 'invalid-recipients', message: /opt-out list/ });
    expect(messageCount(gw.ctx, gw.username)).toBe(before + 1);

    // START takes the number off; a resend to an opted-out number skips it.
    await fromPhone(gw, '447700900701', 'START');
    expect(await a.api.inbox.pollNow()).toEqual({ received: 1 });
    expect((await a.api.optouts.list()).map((o) => o.number)).toEqual(['447700900702']);
    const again = await a.api.send.submit({
      recipients: ['447700900701', '447700900703'],
      content: { kind: 'text', text: 'Welcome back' },
    });
    await finished(a, again.job.id);
    expect(again.job.recipientCount).toBe(2);
    await fromPhone(gw, '447700900703', 'STOP');
    await a.api.inbox.pollNow();
    const resent = await a.api.outbox.resend({
      jobId: again.job.id,
      numbers: ['447700900701', '447700900703'],
    });
    expect(resent.recipientCount).toBe(1);
    await finished(a, resent.id);
    expect((await a.api.outbox.recipients(resent.id)).map((o) => o.to)).toEqual(['447700900701']);
  });

  it('the list is edited by hand, exported as CSV, and the keywords are settings', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-optouts-');
    expect(await a.api.optouts.add(['07700 900801', 'not a number'])).toEqual({
      added: 1,
      invalid: ['not a number'],
    });
    const csv = await a.api.optouts.exportCsv();
    expect(csv.split('\r\n')[0]).toBe('number,source,keyword,added');
    expect(csv).toContain('447700900801,manual,,');
    expect(await a.api.optouts.remove(['+44 7700 900801'])).toBe(1);
    expect(await a.api.optouts.list()).toEqual([]);

    await a.api.settings.update({ optOutKeywords: ['HALT'], optInKeywords: ['RESUME'] });
    await fromPhone(gw, '447700900802', 'STOP');
    await fromPhone(gw, '447700900803', 'halt');
    await a.api.inbox.pollNow();
    expect((await a.api.optouts.list()).map((o) => o.number)).toEqual(['447700900803']);
  });
});
