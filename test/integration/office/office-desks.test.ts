// Office mode (issue 28) against a real PostgreSQL (started by the test with initdb + pg_ctl) and a
// reference gateway: several desks (apps) on one account and one office database. Exactly one desk
// collects; every reply reaches every desk's own store once; a STOP collected by one desk is left
// out of every other desk's next send, estimate and resend.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_NUMBER } from '../../../gateway/demo.ts';
import { fromPhone } from '../../support/app.ts';
import { messageCount, postForm, queueReplies, startTestGateway } from '../../support/gateway.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import type { NetworkSimulator } from '../../../gateway/network/simulator.ts';
import { collectAll, collectorOf, inboundTexts, openDesk, waitFor } from '../../support/office-desk.ts';
import { createMessengerApp } from '../../../main/services/app.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { foreignCollectAnswer } from '../../support/foreign-server.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function office(desks: number) {
  const pg = await startTestPostgres(cleanups);
  const gw = await startTestGateway({ receiptDelayMs: 100 });
  cleanups.push(() => gw.close());
  const all = [];
  for (let i = 0; i < desks; i++) all.push(await openDesk(cleanups, gw, pg.urlWithPassword));
  return { pg, gw, desks: all };
}

describe.skipIf(!havePostgres())('office mode: desks sharing one account', () => {
  it('two desks: one collects, each reply is on both once; a STOP collected by one is refused by the other', async () => {
    const { pg, gw, desks } = await office(2);
    const collector = await collectorOf(desks);
    const other = desks.find((d) => d !== collector)!;
    expect(await other.app.api.inbox.pollNow()).toEqual({ received: 0 });

    queueReplies(gw, DEMO_NUMBER, 500);
    expect(await collectAll(collector.app, 500)).toBe(500);
    for (const d of desks) {
      const texts = await waitFor('500 replies', async () => {
        const t = await inboundTexts(d.app);
        return t.size === 500 ? t : undefined;
      });
      expect([...texts.values()].every((n) => n === 1)).toBe(true);
    }
    expect((await pg.query<{ n: string }>('SELECT count(*) AS n FROM inbound'))[0]?.n).toBe('500');
    // read/unread is each desk's own
    expect(await other.app.api.inbox.unreadTotal()).toBe(500);

    // The phone texts STOP; the collecting desk collects it; the other desk's very next send,
    // estimate and resend leave the number out.
    const request = {
      recipients: ['447700900801', '447700900802'],
      content: { kind: 'text' as const, text: 'Offer ends today' },
    };
    const first = await other.app.api.send.submit(request);
    await fromPhone(gw, '447700900801', 'STOP');
    expect(await collectAll(collector.app, 1)).toBe(1);
    expect(await other.app.api.send.estimate(request)).toMatchObject({ recipients: 1, optedOut: 1 });
    const before = messageCount(gw.ctx, gw.username);
    const sent = await other.app.api.send.submit(request);
    expect(sent.optedOut).toBe(1);
    await expect(
      other.app.api.send.submit({
        recipients: ['447700900801'],
        content: { kind: 'text', text: 'Still there?' },
      }),
    ).rejects.toMatchObject({ code: 'invalid-recipients', message: /opt-out list/ });
    await expect(
      other.app.api.outbox.resend({ jobId: first.job.id, numbers: ['447700900801'] }),
    ).rejects.toMatchObject({ code: 'invalid-recipients' });
    await waitFor('the send', async () => messageCount(gw.ctx, gw.username) === before + 1);
    expect((await other.app.api.optouts.list()).map((o) => [o.number, o.keyword])).toEqual([
      ['447700900801', 'STOP'],
    ]);

    // A number added by hand at the other desk is on the collector's list too; removed, it is off.
    await other.app.api.optouts.add(['447700900803']);
    await waitFor('manual opt-out shared', async () =>
      (await collector.app.api.optouts.list()).some((o) => o.number === '447700900803'),
    );
    await other.app.api.optouts.remove(['447700900803']);
    await waitFor('manual opt-out removal shared', async () =>
      (await collector.app.api.optouts.list()).every((o) => o.number !== '447700900803'),
    );
  });

  it('two identical replies (same phone, second and text) collected once each: every desk holds two', async () => {
    const { pg, gw, desks } = await office(2);
    const collector = await collectorOf(desks);
    const other = desks.find((d) => d !== collector)!;
    // Issue 25 item 2 on every desk: CollectMessages gives no id; the two are two messages.
    const at = new Date('2026-11-27T09:00:00Z');
    for (let i = 0; i < 2; i++) {
      const r = (gw.ctx.network as NetworkSimulator).injectInbound({
        sendTo: DEMO_NUMBER,
        replyTo: '447700900841',
        message: 'reply 7',
        timestamp: at,
        source: 'sandbox',
      });
      expect(r.ok).toBe(true);
    }
    expect(await collectAll(collector.app, 2)).toBe(2);
    expect((await inboundTexts(collector.app)).get('reply 7')).toBe(2);
    await waitFor('both in the office database', async () => {
      const rows = await pg.query<{ n: string }>('SELECT count(*) AS n FROM inbound');
      return rows[0]?.n === '2';
    });
    // (a poll at a desk that does not collect imports what the office database holds)
    expect(await other.app.api.inbox.pollNow()).toEqual({ received: 0 });
    expect((await inboundTexts(other.app)).get('reply 7')).toBe(2);
    expect(await other.app.api.inbox.unreadTotal()).toBe(2);
  });

  it('replies a desk spooled before it was killed reach every other desk once it is back', async () => {
    const { pg, gw, desks } = await office(1);
    const other = desks[0]!;
    const dir = await mkdtemp(join(tmpdir(), 'office-desk-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const open = async () => {
      const app = await createMessengerApp({
        dataDir: dir,
        env: {},
        log: () => {},
        office: pg.urlWithPassword,
      });
      await app.api.accounts.signIn({
        username: gw.username,
        pin: gw.pin,
        primaryUrl: gw.url,
        rememberPin: false,
      });
      return app;
    };
    await (await open()).close();
    // What the desk left when it was killed after spooling a CollectMessages answer (reply-spool.ts).
    const db = new DatabaseSync(join(dir, 'messenger.sqlite'));
    try {
      const row = db
        .prepare(
          `INSERT INTO reply_spool (answer, source, username, owner, received_at)
           VALUES ('answer-of-a-dead-run', 'collect', ?, 'a-run-that-died', ?) RETURNING id`,
        )
        .get(gw.username, Date.now()) as { id: number };
      const body = foreignCollectAnswer([
        { from: '447700900861', text: 'reply 9', at: '2026-11-27T09:00:00Z' },
      ]);
      db.prepare('INSERT INTO reply_spool_chunks (spool_id, seq, bytes) VALUES (?, 0, ?)').run(
        row.id,
        Buffer.from(body),
      );
    } finally {
      db.close();
    }
    const back = await open();
    cleanups.push(() => back.close());
    expect((await inboundTexts(back)).get('reply 9')).toBe(1);
    await waitFor('the reply in the office database', async () => {
      // (under load the desks may not have made the office database's tables yet)
      const rows = await pg.query<{ n: string }>('SELECT count(*) AS n FROM inbound').catch(() => []);
      return rows[0]?.n === '1';
    });
    await waitFor(
      'the reply at the other desk',
      async () => (await inboundTexts(other.app)).get('reply 9') === 1,
    );
  });

  it('a reply collected after the collector deleted the conversation of the last one is shared too', async () => {
    const { pg, gw, desks } = await office(2);
    const collector = await collectorOf(desks);
    const other = desks.find((d) => d !== collector)!;
    const shared = (n: number) =>
      waitFor(
        `${n} in the office database`,
        async () => (await pg.query<{ n: string }>('SELECT count(*) AS n FROM inbound'))[0]?.n === String(n),
        8000,
      );
    await fromPhone(gw, '447700900871', 'reply 1');
    expect(await collectAll(collector.app, 1)).toBe(1);
    await shared(1);
    // The collecting desk deletes that conversation (its newest message with it), then collects another.
    const page = await collector.app.api.inbox.conversations();
    for (const c of page.items) await collector.app.api.inbox.delete(c.id);
    await fromPhone(gw, '447700900872', 'reply 2');
    expect(await collectAll(collector.app, 1)).toBe(1);
    await shared(2);
    await waitFor(
      'reply 2 at the other desk',
      async () => (await inboundTexts(other.app)).get('reply 2') === 1,
    );
  });

  it('five desks, 10,000 replies: every desk holds each once', async () => {
    const { gw, desks } = await office(5);
    const collector = await collectorOf(desks);
    queueReplies(gw, DEMO_NUMBER, 10_000);
    expect(await collectAll(collector.app, 10_000)).toBe(10_000);
    for (const d of desks) {
      const texts = await waitFor(
        '10,000 replies',
        async () => {
          const t = await inboundTexts(d.app);
          return t.size === 10_000 ? t : undefined;
        },
        60_000,
      );
      expect([...texts.values()].every((n) => n === 1)).toBe(true);
      expect(await d.app.api.inbox.unreadTotal()).toBe(10_000);
    }

    // A STOP collected by the collecting desk: every other desk's very next send leaves it out.
    await fromPhone(gw, '447700900811', 'STOP');
    expect(await collectAll(collector.app, 1)).toBe(1);
    for (const d of desks.filter((x) => x !== collector))
      await expect(
        d.app.api.send.submit({ recipients: ['447700900811'], content: { kind: 'text', text: 'Sale!' } }),
      ).rejects.toMatchObject({ code: 'invalid-recipients', message: /opt-out list/ });
  }, 180_000);

  it('does not share the local sandbox: a desk in office mode keeps its sandbox replies to itself', async () => {
    const server = await startTestPostgres(cleanups);
    const dir = await mkdtemp(join(tmpdir(), 'office-sandbox-'));
    const app = await createMessengerApp({
      dataDir: dir,
      env: {},
      log: () => {},
      office: server.urlWithPassword,
      sandbox: true,
    });
    cleanups.push(async () => {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    });
    const account = await app.api.accounts.current();
    expect(account?.sandbox).toBe(true);
    await waitFor('connected', async () => (await app.api.office.status())?.connected);
    const res = await postForm(account!.primaryUrl, '/sandbox/inbound', {
      SendTo: DEMO_NUMBER,
      ReplyTo: '447700900831',
      Message: 'reply 1',
    });
    expect(res.status).toBe(200);
    // (the sandbox pushes it to this desk's receiver; a poll finds nothing left and fails not)
    await waitFor('the sandbox reply', async () => (await app.api.inbox.unreadTotal()) === 1);
    expect(await app.api.inbox.pollNow()).toEqual({ received: 0 });
    expect(await server.query('SELECT uid FROM inbound')).toEqual([]);
  });

  it('three desks with the same keyword rule: a keyword reply is answered once', async () => {
    const { gw, desks } = await office(3);
    for (const d of desks) await d.app.api.autoreplies.create({ keyword: 'HOURS', reply: 'Open 9 to 5' });
    const collector = await collectorOf(desks);
    const before = messageCount(gw.ctx, gw.username);
    await fromPhone(gw, '447700900821', 'hours?');
    expect(await collectAll(collector.app, 1)).toBe(1);
    for (const d of desks)
      await waitFor('the reply on every desk', async () => (await d.app.api.inbox.unreadTotal()) === 1);
    await waitFor('the answer sent', async () => messageCount(gw.ctx, gw.username) === before + 1);
    // every desk polls meanwhile (their timers, and once more each now): still one answer
    for (const d of desks) await d.app.api.inbox.pollNow();
    await new Promise((r) => setTimeout(r, 1000));
    expect(messageCount(gw.ctx, gw.username)).toBe(before + 1);
  }, 120_000);
});
