// Office mode (issue 28) meeting the Inbox per account (issue 25): a reply stored for account A
// after the desk switched to account B (a collect answer still arriving, a held answer stored at the
// next poll) is queued for the office database under A's office key, as are the opt-out keywords it
// brings; never under B's (B's desks would show A's reply, B's sends would leave A's number out), and
// never dropped because no account is signed in at that moment. The office database here is one no
// desk can reach: what is checked is the desk's own queue (office_outbox), written in the reply's
// own transaction, which is what the office database later receives as it is.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildResponseEnvelope } from '../../../protocol/soap/envelope.ts';
import type { MOMessage } from '../../../protocol/soap/operations.ts';
import { openAppStore } from '../../../main/store/app-store.ts';
import type { OpenedAppStore } from '../../../main/store/app-store.ts';
import { DEFAULT_SETTINGS } from '../../../main/store/preferences.ts';
import { createReplyIntake } from '../../../main/services/reply-intake.ts';
import { createOptOuts } from '../../../main/services/optouts.ts';
import { accountKey, createOffice } from '../../../main/office/office.ts';
import type { Office } from '../../../main/office/office.ts';
import { parseOfficeUrl } from '../../../main/office/connection.ts';
import type { AccountSummary } from '../../../preload/api.ts';
import pg from 'pg';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { waitFor } from '../../support/office-desk.ts';

let dir: string;
let store: OpenedAppStore;
let office: Office;
let a: AccountSummary;
let b: AccountSummary;
/** The account the desk is signed in to now. */
let current: AccountSummary | null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'office-switch-'));
  store = openAppStore(join(dir, 'messenger.sqlite'), { defaultCountry: 'GB' });
  a = store.accounts.save({ username: 'acme', primaryUrl: 'https://gw-a.example.com/soap' });
  b = store.accounts.save({ username: 'beta', primaryUrl: 'https://gw-b.example.com/soap' });
  current = b;
  // port 1 on this machine: nothing listens there, the queue stays as written
  const parsed = parseOfficeUrl('postgres://messenger@127.0.0.1:1/messenger');
  if (!parsed.ok) throw new Error(parsed.reason);
  office = createOffice({
    store,
    target: parsed.target,
    password: 'x',
    account: () => current,
    pollIntervalSeconds: () => 30,
    becameCollector: () => {},
    emit: () => {},
    log: () => {},
  });
});
afterEach(async () => {
  await office.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const queued = (kind: string) =>
  store.app.db
    .prepare('SELECT account FROM office_outbox WHERE kind = ? ORDER BY id')
    .all(kind)
    .map((r) => (r as { account: string }).account);

const reply = (text: string): MOMessage => ({
  SendTo: '447700900999',
  ReplyTo: '447700900123',
  Timestamp1: '2026-11-27T09:00:00Z',
  Message: { TextMessage: text },
});

function collectFor(account: AccountSummary, items: MOMessage[]): number {
  const intake = createReplyIntake({
    store,
    emit: () => {},
    log: () => {},
    announce: () => {},
    minFreeBytes: 0,
    office,
  });
  const answer = intake.collect(account);
  // the answer began while `account` was signed in; the user switched before it was read to its end
  answer.raw(
    Buffer.from(buildResponseEnvelope('CollectMessages', { Report: 0, MessageList: { item: items } })),
  );
  return answer.finish();
}

describe('office mode: a reply of an account no longer signed in', () => {
  it("is queued under its own account's office key, not the one signed in now", () => {
    current = b;
    expect(collectFor(a, [reply('Hello'), reply('Bye')])).toBe(2);
    expect(store.conversations.list(a.id).items).toHaveLength(1);
    expect(queued('inbound')).toEqual([accountKey(a), accountKey(a)]);
  });

  it('is queued even while no account is signed in', () => {
    current = null;
    expect(collectFor(a, [reply('Hello')])).toBe(1);
    expect(queued('inbound')).toEqual([accountKey(a)]);
  });

  it("its opt-out keyword goes to its account's shared list, not the signed-in one's", () => {
    current = b;
    const optOuts = createOptOuts({
      store,
      sessions: {
        current: () => null,
        require: () => {
          throw new Error('not signed in');
        },
      },
      settings: () => DEFAULT_SETTINGS,
      country: () => 'GB',
      log: () => {},
      office,
    });
    const m = store.conversations.storeInbound(
      a.id,
      { from: '447700900123', to: '447700900999', text: 'STOP', timestamp: '2026-11-27T09:00:00Z' },
      'test:stop',
      'collect',
    );
    expect(m.stored).toBe(true);
    if (!m.stored) return;
    expect(optOuts.received([m.message], a.id).size).toBe(1);
    expect(store.optOuts.list(a.id).map((o) => o.number)).toEqual(['447700900123']);
    expect(queued('optout')).toEqual([accountKey(a)]);
  });
});

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('office mode: a receipt of an account no longer signed in', () => {
  it("is passed on under its receiver's account's office key", () => {
    current = b;
    office.receiptUnmatched(a.id, { messageIdentifier: 'mid-1', report: '1', at: 5 });
    current = null;
    office.receiptUnmatched(a.id, { messageIdentifier: 'mid-2', report: '1', at: 6 });
    const rows = store.app.db
      .prepare('SELECT account, message_identifier FROM office_receipts_out ORDER BY id')
      .all()
      .map((r) => Object.values(r));
    expect(rows).toEqual([
      [accountKey(a), 'mid-1'],
      [accountKey(a), 'mid-2'],
    ]);
  });
});

describe.skipIf(!havePostgres())('office mode: the shared replies imported as the account switches', () => {
  it("announces A's imported replies to nobody once B is signed in (no badge, no notification of A's)", async () => {
    const server = await startTestPostgres(cleanups);
    const parsed = parseOfficeUrl(server.urlWithPassword);
    if (!parsed.ok) throw new Error(parsed.reason);
    const events: Array<{ event: string; payload: unknown }> = [];
    current = a;
    const desk = createOffice({
      store,
      target: parsed.target,
      password: server.password,
      account: () => current,
      pollIntervalSeconds: () => 30,
      becameCollector: () => {},
      emit: (event, payload) => events.push({ event, payload }),
      log: () => {},
    });
    cleanups.push(() => desk.close());
    await waitFor('the desk connected', () => Promise.resolve(desk.status().connected));
    await desk.sync();
    await server.query(
      `INSERT INTO inbound (account, uid, sender, recipient, body, kind, gateway_timestamp, received_at, desk)
       VALUES ($1, 'other-desk:1', '447700900123', '447700900999', 'For A only', 'text', '2026-11-27T09:00:00Z', 1, 'other-desk')`,
      [accountKey(a)],
    );
    // the feed held (a lock) while the desk reads it for A; the user switches to B meanwhile
    const lock = new pg.Client({
      host: '127.0.0.1',
      port: server.port,
      user: 'messenger',
      database: 'messenger',
      password: server.password,
    });
    lock.on('error', () => undefined);
    await lock.connect();
    cleanups.push(() => lock.end().catch(() => undefined));
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE inbound IN ACCESS EXCLUSIVE MODE');
    const importing = desk.sync();
    await waitFor('the desk waiting for the feed', async () => {
      const rows = await server.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FROM inbound%'",
      );
      return rows[0]?.n === '1';
    });
    current = b;
    await lock.query('COMMIT');
    await importing;
    // stored as A's (the feed it was read from), announced to no window: B's Inbox is shown
    expect(store.conversations.list(a.id).items.map((c) => c.peer)).toEqual(['447700900123']);
    expect(events.filter((e) => e.event === 'inbox:received')).toEqual([]);
  });
});

describe.skipIf(!havePostgres())('office mode: the collector lease as the account switches', () => {
  it("a lease asked for A as the user switches to B does not make this desk B's collector", async () => {
    const server = await startTestPostgres(cleanups);
    const parsed = parseOfficeUrl(server.urlWithPassword);
    if (!parsed.ok) throw new Error(parsed.reason);
    current = null;
    let collecting = 0;
    const desk = createOffice({
      store,
      target: parsed.target,
      password: server.password,
      account: () => current,
      pollIntervalSeconds: () => 30,
      becameCollector: () => collecting++,
      emit: () => {},
      log: () => {},
    });
    cleanups.push(() => desk.close());
    await waitFor('the desk connected', () => Promise.resolve(desk.status().connected));
    // another desk collects for B
    await server.query(
      "INSERT INTO collector_leases (account, desk, expires_at) VALUES ($1, 'other-desk', now() + interval '1 hour')",
      [accountKey(b)],
    );
    const lock = new pg.Client({
      host: '127.0.0.1',
      port: server.port,
      user: 'messenger',
      database: 'messenger',
      password: server.password,
    });
    lock.on('error', () => undefined);
    await lock.connect();
    cleanups.push(() => lock.end().catch(() => undefined));
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE collector_leases IN ACCESS EXCLUSIVE MODE');
    // signed in to A: the lease asked for (held by the lock); the user switches to B meanwhile
    current = a;
    desk.hooks.sessionReady();
    await waitFor('the desk waiting for the lease', async () => {
      const rows = await server.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%collector_leases%'",
      );
      return rows[0]?.n === '1';
    });
    await desk.hooks.sessionEnded({ account: a });
    current = b;
    desk.hooks.sessionReady();
    await lock.query('COMMIT');
    // B's lease is the other desk's: this desk never collects for B, and A's lease is let go
    await waitFor('A let go', async () => {
      const rows = await server.query<{ n: string }>(
        'SELECT count(*) AS n FROM collector_leases WHERE account = $1',
        [accountKey(a)],
      );
      return rows[0]?.n === '0';
    });
    expect(desk.mayCollect()).toBe(false);
    expect(collecting).toBe(0);
  });
});
