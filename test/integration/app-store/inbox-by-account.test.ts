// Issue 25 item 5: the Inbox per account (migration 045). Two accounts on one desk with the same
// phone number are two conversations, their unread counts and last activity kept apart by the
// triggers; every read and action of ConversationsRepo is one account's, another account's
// conversation refused; search and exports are one account's; an outbound message is its job's
// account's; existing data is split honestly by the migration.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAppDb } from '../../../main/store/db.ts';
import { openAppStore } from '../../../main/store/app-store.ts';
import type { OpenedAppStore } from '../../../main/store/app-store.ts';
import { tempDbFile } from '../../unit/store/helpers.ts';

const PHONE = '447700900123';
const OTHER = '447700900456';
const OURS = '447700900999';
let t: ReturnType<typeof tempDbFile>;
beforeEach(() => {
  t = tempDbFile('messenger.sqlite');
});
afterEach(() => t.cleanup());

function reply(from: string, text: string, at: number) {
  return { from, to: OURS, text, timestamp: new Date(at).toISOString(), receivedAt: at };
}

describe('two accounts, one phone number', () => {
  let store: OpenedAppStore;
  let a: string;
  let b: string;
  beforeEach(() => {
    store = openAppStore(t.file, { defaultCountry: 'GB' });
    a = store.accounts.save({ username: 'parent', primaryUrl: 'http://127.0.0.1:9/' }).id;
    b = store.accounts.save({ username: 'child', primaryUrl: 'http://127.0.0.1:9/' }).id;
  });
  afterEach(() => store.close());

  it('keeps two conversations with their own unread counts, activity and actions', () => {
    store.conversations.storeInbound(a, reply(PHONE, 'hello parent', 1_000), 'x:1');
    store.conversations.storeInbound(a, reply(PHONE, 'again parent', 2_000), 'x:2');
    store.conversations.storeInbound(b, reply(PHONE, 'hello child', 3_000), 'x:3');
    const ca = store.conversations.byPeer(a, PHONE);
    const cb = store.conversations.byPeer(b, PHONE);
    expect(ca && cb && ca.id !== cb.id).toBe(true);
    expect([ca?.unreadCount, cb?.unreadCount]).toEqual([2, 1]);
    expect([ca?.lastActivityAt, cb?.lastActivityAt]).toEqual([2_000, 3_000]);
    expect([ca?.lastMessage?.text, cb?.lastMessage?.text]).toEqual(['again parent', 'hello child']);
    expect([store.conversations.unreadTotal(a), store.conversations.unreadTotal(b)]).toEqual([2, 1]);
    expect(store.conversations.list(a).items.map((c) => c.id)).toEqual([ca?.id]);
    expect(store.conversations.list(b, { filter: 'unread' }).items.map((c) => c.id)).toEqual([cb?.id]);
    expect(store.conversations.thread(b, { conversationId: cb?.id ?? 0 }).items.map((m) => m.text)).toEqual([
      'hello child',
    ]);

    // another account's conversation: refused, nothing changed
    const refused = /belongs to another account/;
    const idA = ca?.id ?? 0;
    expect(() => store.conversations.markRead(b, idA)).toThrow(refused);
    expect(() => store.conversations.thread(b, { conversationId: idA })).toThrow(refused);
    expect(() => store.conversations.delete(b, idA)).toThrow(refused);
    expect(() => store.conversations.setArchived(b, idA, true)).toThrow(refused);
    expect(() => store.conversations.markUnread(b, idA)).toThrow(refused);
    expect(() => store.conversations.exportCsv(b, idA)).toThrow(refused);
    expect(store.conversations.unreadTotal(a)).toBe(2);

    // mark all read: the child's only
    expect(store.conversations.markAllRead(b)).toBe(1);
    expect([store.conversations.unreadTotal(a), store.conversations.unreadTotal(b)]).toEqual([2, 0]);
    store.conversations.markRead(a, idA);
    expect(store.conversations.unreadTotal(a)).toBe(0);
    store.conversations.storeInbound(b, reply(PHONE, 'child once more', 4_000), 'x:4');
    expect([store.conversations.unreadTotal(a), store.conversations.unreadTotal(b)]).toEqual([0, 1]);

    // search and exports: the account's messages only
    expect(store.search.search(a, 'hello').messages.map((h) => h.message.text)).toEqual(['hello parent']);
    expect(store.search.search(b, 'hello').messages.map((h) => h.message.text)).toEqual(['hello child']);
    const csv = store.conversations.exportMessages(b);
    expect(csv).toContain('hello child');
    expect(csv).not.toContain('parent');
    expect(store.conversations.exportMessages(a, { query: 'child' })).not.toContain('child');

    // open(number): the account's own conversation, created for it
    expect(store.conversations.open(b, PHONE).id).toBe(cb?.id);
    const opened = store.conversations.open(b, OTHER);
    expect(store.conversations.byPeer(a, OTHER)).toBeNull();
    expect(() => store.conversations.thread(a, { conversationId: opened.id })).toThrow(refused);

    // deleting the child's conversation leaves the parent's
    store.conversations.delete(b, cb?.id ?? 0);
    expect(store.conversations.byPeer(b, PHONE)).toBeNull();
    expect(store.conversations.byPeer(a, PHONE)?.lastMessage?.text).toBe('again parent');
  });

  it("stores an outbound message in its job's account's conversation, alone or in a campaign", () => {
    store.outbox.createJob([PHONE], { kind: 'text', text: 'to one, from the child' }, { accountId: b });
    store.outbox.createJob(
      [PHONE, OTHER],
      { kind: 'text', text: 'campaign of the parent' },
      { accountId: a },
    );
    const cb = store.conversations.byPeer(b, PHONE);
    expect(cb?.lastMessage?.text).toBe('to one, from the child');
    expect(store.conversations.thread(b, { conversationId: cb?.id ?? 0 }).items).toHaveLength(1);
    // the parent's campaign made no conversation of the parent (issue 27 item 6: its recipients are
    // lean while the parent has no listed conversation with them), and none of the child's
    expect(store.conversations.byPeer(a, PHONE)).toBeNull();
    expect(store.conversations.list(a).items).toEqual([]);
    expect(store.conversations.list(b).items.map((c) => c.id)).toEqual([cb?.id]);
    // a reply to the parent lists the parent's conversation, and only it, with the campaign above it
    store.conversations.storeInbound(a, reply(PHONE, 'STOP', Date.now() + 1_000), 'x:9');
    const pa = store.conversations.byPeer(a, PHONE);
    expect(store.conversations.list(a).items.map((c) => c.id)).toEqual([pa?.id]);
    expect(
      store.conversations
        .thread(a, { conversationId: pa?.id ?? 0 })
        .items.map((m) => [m.direction, m.text])
        .reverse(),
    ).toEqual([
      ['out', 'campaign of the parent'],
      ['in', 'STOP'],
    ]);
    expect(store.conversations.byPeer(b, PHONE)?.unreadCount).toBe(0);
    expect(store.conversations.thread(b, { conversationId: cb?.id ?? 0 }).items).toHaveLength(1);
  });
});

describe('migration 045', () => {
  /** A database at schema 044 (the migrations before 045 only). */
  function openAt044(): ReturnType<typeof openAppDb> {
    const dir = join(t.dir, 'migrations-044');
    mkdirSync(dir);
    const src = new URL('../../../main/store/migrations/', import.meta.url).pathname;
    for (const f of readdirSync(src))
      if (Number(f.slice(0, 3)) <= 44) copyFileSync(join(src, f), join(dir, f));
    return openAppDb(t.file, { migrationsDir: dir });
  }

  it('gives each existing conversation and message an account: by its sends, else the current one', () => {
    const old = openAt044();
    const db = old.db;
    const account = db.prepare(
      `INSERT INTO accounts (id, label, username, primary_url, is_current, created_at, updated_at)
       VALUES (?, ?, ?, 'http://127.0.0.1:9/', ?, 0, 0)`,
    );
    account.run('acc-a', 'Parent', 'parent', 1);
    account.run('acc-b', 'Child', 'child', 0);
    const conv = db.prepare('INSERT INTO conversations (peer, last_activity_at) VALUES (?, 0) RETURNING id');
    const job = db.prepare(
      "INSERT INTO outbox_jobs (created_at, kind, content, account_id) VALUES (0, 'text', '{}', ?) RETURNING id",
    );
    const msg = db.prepare(
      `INSERT INTO messages (conversation_id, direction, peer, text, created_at, status, job_id, read, dedupe_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const id = (r: unknown): number => (r as { id: number }).id;
    // 1: the child sent, the number replied
    const c1 = id(conv.get(PHONE));
    msg.run(c1, 'out', PHONE, 'child asks', 100, 'accepted', id(job.get('acc-b')), 1, null);
    msg.run(c1, 'in', PHONE, 'answer to child', 200, 'received', null, 0, 'k1');
    // 2: replies only (and a send of no account): the current account's
    const c2 = id(conv.get(OTHER));
    msg.run(c2, 'out', OTHER, 'old send', 50, 'accepted', id(job.get(null)), 1, null);
    msg.run(c2, 'in', OTHER, 'a reply', 300, 'received', null, 0, 'k2');
    // 3: the parent sent, then the child: split, each reply to the send before it
    const c3 = id(conv.get('447700900777'));
    msg.run(c3, 'in', '447700900777', 'before any send', 10, 'received', null, 0, 'k3');
    msg.run(c3, 'out', '447700900777', 'parent asks', 100, 'accepted', id(job.get('acc-a')), 1, null);
    msg.run(c3, 'in', '447700900777', 'answer to parent', 150, 'received', null, 0, 'k4');
    msg.run(c3, 'out', '447700900777', 'child asks too', 400, 'accepted', id(job.get('acc-b')), 1, null);
    msg.run(c3, 'in', '447700900777', 'answer to child 1', 500, 'received', null, 0, 'k5');
    msg.run(c3, 'in', '447700900777', 'answer to child 2', 600, 'received', null, 1, 'k6');
    const before = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
    old.close();

    const store = openAppStore(t.file, { defaultCountry: 'GB' });
    try {
      const c = store.conversations;
      const after = store.app.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number };
      expect(after.n).toBe(before); // nothing lost to the rebuild (foreign keys off for it)
      expect(store.app.db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      expect(c.byPeer('acc-b', PHONE)?.id).toBe(c1);
      expect(c.byPeer('acc-a', PHONE)).toBeNull();
      expect(c.byPeer('acc-a', OTHER)?.id).toBe(c2);
      const texts = (acc: string, peer: string): string[] =>
        c
          .thread(acc, { conversationId: c.byPeer(acc, peer)?.id ?? 0 })
          .items.map((m) => m.text)
          .reverse();
      // the child sent last: the conversation stays the child's, with the reply before any send
      expect(c.byPeer('acc-b', '447700900777')?.id).toBe(c3);
      expect(texts('acc-b', '447700900777')).toEqual([
        'before any send',
        'child asks too',
        'answer to child 1',
        'answer to child 2',
      ]);
      expect(texts('acc-a', '447700900777')).toEqual(['parent asks', 'answer to parent']);
      // the counts the triggers keep, made again for the split conversations
      const a3 = c.byPeer('acc-a', '447700900777');
      const b3 = c.byPeer('acc-b', '447700900777');
      expect([a3?.unreadCount, a3?.lastActivityAt, a3?.lastMessage?.text]).toEqual([
        1,
        150,
        'answer to parent',
      ]);
      expect([b3?.unreadCount, b3?.lastActivityAt, b3?.lastMessage?.text]).toEqual([
        2,
        600,
        'answer to child 2',
      ]);
      expect([c.unreadTotal('acc-a'), c.unreadTotal('acc-b')]).toEqual([2, 3]);
      // and the triggers go on keeping them per account
      c.storeInbound('acc-b', reply('447700900777', 'third', 700), 'k7');
      expect([c.unreadTotal('acc-a'), c.unreadTotal('acc-b')]).toEqual([2, 4]);
      expect(c.byPeer('acc-b', '447700900777')?.lastActivityAt).toBe(700);
    } finally {
      store.close();
    }
  });

  it('leaves conversations of no account when the desk had none', () => {
    const old = openAt044();
    const c1 = old.db
      .prepare('INSERT INTO conversations (peer, last_activity_at) VALUES (?, 5) RETURNING id')
      .get(PHONE) as {
      id: number;
    };
    old.db
      .prepare(
        "INSERT INTO messages (conversation_id, direction, peer, text, created_at, status, read, dedupe_key) VALUES (?, 'in', ?, 'hi', 5, 'received', 0, 'k')",
      )
      .run(c1.id, PHONE);
    old.close();
    const store = openAppStore(t.file, { defaultCountry: 'GB' });
    try {
      expect(store.conversations.byPeer('', PHONE)?.unreadCount).toBe(1);
    } finally {
      store.close();
    }
  });
});
