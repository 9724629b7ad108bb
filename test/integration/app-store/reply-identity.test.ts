// Issue 25, item 2: a reply's identity is its answer (the spool entry's random id) and its place in
// that answer, not (sender, recipient, second, text). Two identical "YES" in one answer, or in two
// answers, or in two pushes, are two messages; the same spool read again (after a crash) adds
// nothing, and does not bring an archived conversation back to the inbox.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildResponseEnvelope, buildRequestEnvelope } from '../../../protocol/soap/envelope.ts';
import type { MOMessage } from '../../../protocol/soap/operations.ts';
import { PushReceiver } from '../../../main/client/push-receiver.ts';
import { openAppStore } from '../../../main/store/app-store.ts';
import type { OpenedAppStore } from '../../../main/store/app-store.ts';
import { createReplyIntake } from '../../../main/services/reply-intake.ts';
import type { MessageRecord } from '../../../preload/api.ts';

const US = '447700900999';
const PHONE = '447700900123';
let dir: string;
let store: OpenedAppStore;
/** The account the replies are received for (issue 25: stored under it). */
const ACME = { id: 'acct-acme', username: 'acme' };
let announced: MessageRecord[];
let intake: ReturnType<typeof createReplyIntake>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'messenger-identity-'));
  store = openAppStore(join(dir, 'messenger.sqlite'), { defaultCountry: 'GB' });
  announced = [];
  intake = createReplyIntake({
    store,
    emit: () => {},
    log: () => {},
    announce: (m) => announced.push(...m),
    minFreeBytes: 0,
  });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const yes: MOMessage = {
  SendTo: US,
  ReplyTo: PHONE,
  Timestamp1: '2026-11-27T09:00:00Z',
  Message: { TextMessage: 'YES' },
};

/** A CollectMessages answer cut into `parts` chunks at arbitrary byte positions. */
function answer(items: MOMessage[], parts = 5): Uint8Array[] {
  const bytes = Buffer.from(
    buildResponseEnvelope('CollectMessages', { Report: 0, MessageList: { item: items } }),
  );
  const size = Math.ceil(bytes.length / parts);
  return Array.from({ length: parts }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
}

function inboundCount(): number {
  return (
    store.app.db.prepare("SELECT COUNT(*) AS n FROM messages WHERE direction = 'in'").get() as { n: number }
  ).n;
}

function collect(chunks: Uint8Array[]): number {
  const a = intake.collect(ACME);
  chunks.forEach((c) => a.raw(c));
  return a.finish();
}

describe('reply identity', () => {
  it('keeps two identical replies of one answer, and of two answers, as two each', () => {
    expect(collect(answer([yes, yes]))).toBe(2);
    expect(collect(answer([yes, { ...yes, Message: { TextMessage: 'NO' } }, yes]))).toBe(3);
    expect(inboundCount()).toBe(5);
    const texts = announced.map((m) => m.text);
    expect(texts).toEqual(['YES', 'YES', 'YES', 'NO', 'YES']);
    expect(store.conversations.byPeer(ACME.id, PHONE)?.unreadCount).toBe(5);
    expect(store.app.db.prepare('SELECT COUNT(*) AS n FROM reply_spool').get()).toEqual({ n: 0 });
  });

  it('reads the same spool again after a crash without storing anything twice or unarchiving', () => {
    // What a killed run left: the answer on disk, its messages stored, its entry not yet deleted.
    const a = intake.collect(ACME);
    answer([yes, yes, yes], 7).forEach((c) => a.raw(c));
    const spool = store.app.db.prepare('SELECT * FROM reply_spool').all();
    const chunks = store.app.db.prepare('SELECT * FROM reply_spool_chunks').all();
    expect(a.finish()).toBe(3);
    const conversation = store.conversations.byPeer(ACME.id, PHONE);
    store.conversations.setArchived(ACME.id, conversation?.id ?? 0, true);

    store.app.transaction(() => {
      for (const r of spool as Array<Record<string, string | number>>)
        store.app.db
          .prepare(
            'INSERT INTO reply_spool (id, answer, source, username, owner, received_at) VALUES (?, ?, ?, ?, ?, ?)',
          )
          .run(
            r.id ?? 0,
            r.answer ?? '',
            r.source ?? '',
            r.username ?? '',
            'a-run-that-died',
            r.received_at ?? 0,
          );
      for (const r of chunks as Array<{ spool_id: number; seq: number; bytes: Uint8Array }>)
        store.app.db
          .prepare('INSERT INTO reply_spool_chunks (spool_id, seq, bytes) VALUES (?, ?, ?)')
          .run(r.spool_id, r.seq, r.bytes);
    });
    expect(intake.recover(ACME)).toBe(0);
    expect(inboundCount()).toBe(3);
    expect(store.app.db.prepare('SELECT COUNT(*) AS n FROM reply_spool').get()).toEqual({ n: 0 });
    expect(store.conversations.byPeer(ACME.id, PHONE)?.archived).toBe(true);

    // A new identical YES is a new message: it is stored and brings the conversation back.
    expect(collect(answer([yes]))).toBe(1);
    expect(inboundCount()).toBe(4);
    expect(store.conversations.byPeer(ACME.id, PHONE)?.archived).toBe(false);
  });

  it("stores a dead run's answer under the account that received it, when that account is back (issue 25)", () => {
    // the same username at another gateway: another account
    const elsewhere = { id: 'acct-elsewhere', username: 'acme' };
    const a = intake.collect(ACME);
    answer([yes]).forEach((c) => a.raw(c));
    const b = intake.collect(elsewhere);
    answer([yes, { ...yes, Message: { TextMessage: 'NO' } }]).forEach((c) => b.raw(c));
    store.app.db.prepare("UPDATE reply_spool SET owner = 'a-run-that-died'").run();
    expect(intake.recover(elsewhere)).toBe(2);
    expect(store.conversations.byPeer(elsewhere.id, PHONE)?.unreadCount).toBe(2);
    expect(store.conversations.byPeer(ACME.id, PHONE)).toBeNull();
    expect(intake.recover(ACME)).toBe(1);
    expect(store.conversations.byPeer(ACME.id, PHONE)?.unreadCount).toBe(1);
    expect(store.conversations.unreadTotal(elsewhere.id)).toBe(2);
  });

  it('stores an answer a dead run spooled but never parsed, once', () => {
    const a = intake.collect(ACME);
    answer([yes, yes], 3).forEach((c) => a.raw(c));
    store.app.db.prepare("UPDATE reply_spool SET owner = 'a-run-that-died'").run();
    expect(intake.recover(ACME)).toBe(2);
    expect(intake.recover(ACME)).toBe(0);
    expect(a.finish()).toBe(0); // the killed run's own finish would find its entry gone
    expect(inboundCount()).toBe(2);
  });

  it('stores a message that came both by push and by poll once (the n-th of each way pair up)', () => {
    const body = (text: string) =>
      Buffer.from(
        buildRequestEnvelope('DeliverMessage', {
          Username: 'acme',
          Recipient: { SendTo: US },
          Message: { TextMessage: text },
          ReplyTo: PHONE,
          Timestamp1: '2026-11-27T09:00:00Z',
        }),
      );
    const spool = intake.pushSpool(ACME);
    const pushed = (text: string) =>
      intake.pushed(ACME, spool.keep(body(text)), {
        Recipient: { SendTo: US },
        Message: { TextMessage: text },
        ReplyTo: PHONE,
        Timestamp1: '2026-11-27T09:00:00Z',
      });
    // A poll collected YES while its push was on the way: one message.
    expect(collect(answer([yes]))).toBe(1);
    pushed('YES');
    expect(inboundCount()).toBe(1);
    // Two more YES pushed, one of them collected as well: three in all.
    pushed('YES');
    pushed('YES');
    expect(collect(answer([yes]))).toBe(0);
    expect(inboundCount()).toBe(3);
    expect(store.app.db.prepare('SELECT COUNT(*) AS n FROM reply_spool').get()).toEqual({ n: 0 });
  });

  it('keeps two identical pushes as two, and a push spooled by a dead run is stored once', async () => {
    const receiver = new PushReceiver({ username: 'acme', spool: intake.pushSpool(ACME) });
    receiver.on('message', (m, token) => intake.pushed(ACME, token, m));
    const url = await receiver.listen();
    const body = buildRequestEnvelope('DeliverMessage', {
      Username: 'acme',
      Recipient: { SendTo: US },
      Message: { TextMessage: 'YES' },
      ReplyTo: PHONE,
      Timestamp1: '2026-11-27T09:00:00Z',
    });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/xml' }, body });
        expect(res.status).toBe(200);
      }
    } finally {
      await receiver.close();
    }
    expect(inboundCount()).toBe(2);
    expect(store.app.db.prepare('SELECT COUNT(*) AS n FROM reply_spool').get()).toEqual({ n: 0 });

    // A push on disk whose run died before parsing it.
    const spool = intake.pushSpool(ACME);
    spool.keep(Buffer.from(body));
    store.app.db.prepare("UPDATE reply_spool SET owner = 'a-run-that-died'").run();
    expect(intake.recover(ACME)).toBe(1);
    expect(intake.recover(ACME)).toBe(0);
    expect(inboundCount()).toBe(3);
  });

  it('answers a push it cannot keep on disk with a server fault, so the gateway keeps the message', async () => {
    const receiver = new PushReceiver({ username: 'acme', spool: intake.pushSpool(ACME) });
    const got: unknown[] = [];
    receiver.on('message', (m) => got.push(m));
    const url = await receiver.listen();
    // From here the database refuses every write, as a full or read-only disk would.
    store.app.db.exec('PRAGMA query_only = ON');
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'text/xml' },
        body: buildRequestEnvelope('DeliverMessage', {
          Username: 'acme',
          Recipient: { SendTo: US },
          Message: { TextMessage: 'YES' },
          ReplyTo: PHONE,
        }),
      });
      expect(res.status).toBe(500);
      expect(await res.text()).toMatch(/could not be kept/);
      expect(got).toEqual([]);
      expect(intake.state()).toMatchObject({
        held: true,
        reason: expect.stringMatching(/could not be written/),
      });
    } finally {
      store.app.db.exec('PRAGMA query_only = OFF');
      await receiver.close();
    }
    expect(inboundCount()).toBe(0);
  });
});

describe('a push whose encoding only its HTTP charset gives (issue 24 item 2)', () => {
  it('is read the same way when the run that spooled it died before storing it', async () => {
    // The run received it (on disk) and died before storing it: here, no listener stores it.
    const receiver = new PushReceiver({ username: 'acme', spool: intake.pushSpool(ACME) });
    const url = await receiver.listen();
    const xml = buildRequestEnvelope('DeliverMessage', {
      Username: 'acme',
      Recipient: { SendTo: US },
      Message: { TextMessage: 'Grüße' },
      ReplyTo: PHONE,
      Timestamp1: '2026-11-27T09:00:00Z',
    }).replace(/^<\?xml[^>]*\?>/, ''); // no declaration: the HTTP charset says it
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=ISO-8859-1' },
        body: Buffer.from(xml, 'latin1'),
      });
      expect(res.status).toBe(200);
    } finally {
      await receiver.close();
    }
    expect(inboundCount()).toBe(0);
    store.app.db.prepare("UPDATE reply_spool SET owner = 'a-run-that-died'").run();
    expect(intake.recover(ACME)).toBe(1);
    expect(
      store.app.db
        .prepare("SELECT text FROM messages WHERE direction = 'in'")
        .all()
        .map((r) => r.text),
    ).toEqual(['Grüße']);
  });
});
