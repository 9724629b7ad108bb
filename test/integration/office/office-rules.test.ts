// Office mode (issue 28) against a real PostgreSQL: keyword auto-reply rules keep their identity and
// their limits across the desks of an account.
// - A rule's keyword changed at one desk is, at every other desk, the same rule changed (its id and
//   its per-day log kept), not one rule deleted and another added (app migration 054: a rule's uid).
// - The per-day log is the account's (office migration 005): after the collector moves to another
//   desk, a number answered today is not answered again, and the daily cap counts every desk's.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import { fromPhone } from '../../support/app.ts';
import { messageCount, startTestGateway } from '../../support/gateway.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { collectAll, collectorOf, openDesk, waitFor } from '../../support/office-desk.ts';
import type { Desk } from '../../support/office-desk.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function office(desks: number) {
  const pg = await startTestPostgres(cleanups);
  const gw = await startTestGateway({ receiptDelayMs: 100, credit: '1000.00' });
  cleanups.push(() => gw.close());
  const all: Desk[] = [];
  for (let i = 0; i < desks; i++) all.push(await openDesk(cleanups, gw, pg.urlWithPassword));
  return { pg, gw, desks: all };
}

/** The auto-replies sent to `number` (the gateway's messages to it). */
const answersTo = (gw: Awaited<ReturnType<typeof office>>['gw'], number: string): number =>
  (gw.ctx.db.prepare('SELECT count(*) AS n FROM messages WHERE recipient = ?').get(number) as { n: number })
    .n;

describe.skipIf(!havePostgres())('office mode: auto-reply rules, their identity and limits', () => {
  it("a rule's keyword changed at one desk is the same rule at the others: its id and today's log kept", async () => {
    const { gw, desks } = await office(2);
    const collector = await collectorOf(desks);
    const other = desks.find((d) => d !== collector)!;
    const rule = await other.app.api.autoreplies.create({ keyword: 'HOURS', reply: 'Open 9 to 5' });
    const atCollector = await waitFor('the rule at the collector', async () =>
      (await collector.app.api.autoreplies.list()).find((r) => r.keyword === 'HOURS'),
    );
    await fromPhone(gw, '447700900831', 'hours?');
    expect(await collectAll(collector.app, 1)).toBe(1);
    await waitFor('the answer', async () => answersTo(gw, '447700900831') === 1);
    await waitFor(
      'sent today 1',
      async () => (await collector.app.api.autoreplies.list())[0]?.sentToday === 1,
    );

    await other.app.api.autoreplies.update({ id: rule.id, keyword: 'OPENING' });
    const renamed = await waitFor('the new keyword at the collector', async () =>
      (await collector.app.api.autoreplies.list()).find((r) => r.keyword === 'OPENING'),
    );
    // the same rule (its id at that desk), its log with it, and only it
    expect(renamed.id).toBe(atCollector.id);
    expect(renamed.sentToday).toBe(1);
    expect(await collector.app.api.autoreplies.list()).toHaveLength(1);
    expect(await other.app.api.autoreplies.list()).toHaveLength(1);
    // the number answered today by this rule is not answered again under its new keyword
    const before = messageCount(gw.ctx, gw.username);
    await fromPhone(gw, '447700900831', 'opening times?');
    expect(await collectAll(collector.app, 1)).toBe(1);
    // a number not answered yet is (the rule works under its new keyword)
    await fromPhone(gw, '447700900832', 'OPENING');
    expect(await collectAll(collector.app, 1)).toBe(1);
    await waitFor('the answer to the second number', async () => answersTo(gw, '447700900832') === 1);
    await collector.app.api.inbox.pollNow();
    expect(answersTo(gw, '447700900831')).toBe(1);
    expect(messageCount(gw.ctx, gw.username)).toBe(before + 1);
  }, 120_000);

  it('the per-day limits hold after the collector moves to another desk', async () => {
    const { gw, desks } = await office(2);
    for (const d of desks) await d.app.api.settings.update({ autoReplyDailyCap: 2 });
    const first = await collectorOf(desks);
    const next = desks.find((d) => d !== first)!;
    await next.app.api.autoreplies.create({ keyword: 'HOURS', reply: 'Open 9 to 5' });
    await waitFor('the rule at the collector', async () =>
      (await first.app.api.autoreplies.list()).some((r) => r.keyword === 'HOURS'),
    );
    await fromPhone(gw, '447700900841', 'HOURS');
    expect(await collectAll(first.app, 1)).toBe(1);
    await waitFor('the first answer', async () => answersTo(gw, '447700900841') === 1);

    // the collecting desk closes: the other takes the lease and collects
    await first.app.close();
    await waitFor('the other desk collects', async () => (await next.app.api.office.status())?.collector);
    // the Automation view at this desk counts the first desk's reply today
    expect((await next.app.api.autoreplies.list())[0]?.sentToday).toBe(1);
    // the number answered at the first desk today: not again at this one
    await fromPhone(gw, '447700900841', 'HOURS again');
    expect(await collectAll(next.app, 1)).toBe(1);
    // a new number: answered (the second of the cap of 2 for the account today)
    await fromPhone(gw, '447700900842', 'HOURS');
    expect(await collectAll(next.app, 1)).toBe(1);
    await waitFor('the answer to the new number', async () => answersTo(gw, '447700900842') === 1);
    // a third number: the account's cap (2 a day, counted at every desk) is reached
    await fromPhone(gw, '447700900843', 'HOURS');
    expect(await collectAll(next.app, 1)).toBe(1);
    await next.app.api.inbox.pollNow();
    await new Promise((r) => setTimeout(r, 1500));
    expect(answersTo(gw, '447700900841')).toBe(1);
    expect(answersTo(gw, '447700900843')).toBe(0);
    expect((await next.app.api.autoreplies.list())[0]?.sentToday).toBe(2);
  }, 120_000);

  it("a desk joining with rules of its own: one of the office's keyword becomes the office's (its id kept), the others are shared", async () => {
    const { pg, gw, desks } = await office(1);
    const a = desks[0]!.app;
    await a.api.autoreplies.create({ keyword: 'HOURS', reply: 'Open 9 to 5 (office)' });
    const dir = await mkdtemp(join(tmpdir(), 'office-desk-'));
    const signIn = { username: gw.username, pin: gw.pin, primaryUrl: gw.url, rememberPin: false };
    const alone = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
    await alone.api.accounts.signIn(signIn);
    const own = await alone.api.autoreplies.create({ keyword: 'hours', reply: 'Open 8 to 6 (desk B)' });
    await alone.api.autoreplies.create({ keyword: 'PRICES', reply: 'See our website' });
    await alone.close();
    const b = await createMessengerApp({ dataDir: dir, env: {}, log: () => {}, office: pg.urlWithPassword });
    cleanups.push(async () => {
      await b.close();
      await rm(dir, { recursive: true, force: true });
    });
    await b.api.accounts.signIn(signIn);
    const rules = async (app: typeof a) =>
      (await app.api.autoreplies.list()).map((r) => `${r.keyword}|${r.reply}`).sort();
    const want = ['HOURS|Open 9 to 5 (office)', 'PRICES|See our website'];
    await waitFor(
      'the office’s rules at B',
      async () => JSON.stringify(await rules(b)) === JSON.stringify(want),
    );
    await waitFor('B’s rule at A', async () => JSON.stringify(await rules(a)) === JSON.stringify(want));
    expect((await b.api.autoreplies.list()).find((r) => r.keyword === 'HOURS')?.id).toBe(own.id);
    // and a change of it at B is a change of the office's rule at A
    await b.api.autoreplies.update({ id: own.id, reply: 'Open 7 to 7' });
    await waitFor('the change at A', async () => (await rules(a)).includes('HOURS|Open 7 to 7'));
    expect(await a.api.autoreplies.list()).toHaveLength(2);
  }, 120_000);

  it('a reply answered while the office database was away is in its log once it is back: not answered again after the collector moves', async () => {
    const { pg, gw, desks } = await office(2);
    // a lease of a minute: the collector still holds it for a while after the office database goes
    const minute = (d: Desk) => d.app.api.settings.update({ pollIntervalSeconds: 60 });
    for (const d of desks) await minute(d);
    const first = await collectorOf(desks);
    const next = desks.find((d) => d !== first)!;
    await first.app.api.autoreplies.create({ keyword: 'HOURS', reply: 'Open 9 to 5' });
    await waitFor('the rule at the other desk', async () =>
      (await next.app.api.autoreplies.list()).some((r) => r.keyword === 'HOURS'),
    );
    await waitFor(
      'the minute lease',
      async () =>
        (
          await pg.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM collector_leases WHERE expires_at > now() + interval '30 seconds'",
          )
        )[0]?.n === 1,
    );

    await pg.stop('fast');
    await waitFor(
      'the collector without the office database',
      async () => (await first.app.api.office.status())?.connected === false,
    );
    await fromPhone(gw, '447700900851', 'HOURS');
    expect(await collectAll(first.app, 1)).toBe(1);
    await waitFor('the answer, by this desk alone', async () => answersTo(gw, '447700900851') === 1);

    await pg.restart();
    await waitFor(
      'the collector connected again',
      async () => (await first.app.api.office.status())?.connected,
      60_000,
    );
    await waitFor(
      'the other desk connected again',
      async () => (await next.app.api.office.status())?.connected,
      60_000,
    );
    await waitFor(
      "the reply in the office database's log",
      async () =>
        (await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM auto_reply_log'))[0]?.n === 1,
      30_000,
    );
    await first.app.close();
    await next.app.api.settings.update({ pollIntervalSeconds: 5 });
    await waitFor(
      'the other desk collects',
      async () => (await next.app.api.office.status())?.collector,
      60_000,
    );
    await fromPhone(gw, '447700900851', 'HOURS again');
    expect(await collectAll(next.app, 1)).toBe(1);
    await next.app.api.inbox.pollNow();
    await new Promise((r) => setTimeout(r, 1500));
    expect(answersTo(gw, '447700900851')).toBe(1);
  }, 240_000);
});
