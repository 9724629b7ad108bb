// Issue 28: an office desk imports the shared replies many rows per statement
// (main/store/inbound-import.ts). The same messages, conversations, unread counts and search rows
// as ConversationsRepo.storeInbound one at a time; each identity once; the content key and `via`
// that the collect-repeat filter (issue 24) reads.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAppStore } from '../../../main/store/app-store.ts';
import type { OpenedAppStore } from '../../../main/store/app-store.ts';
import type { InboundImport } from '../../../main/store/inbound-import.ts';
import { tempDbFile } from './helpers.ts';

const opened: Array<{ store: OpenedAppStore; cleanup: () => void }> = [];
function fresh(): OpenedAppStore {
  const t = tempDbFile();
  const store = openAppStore(t.file, { defaultCountry: 'GB' });
  opened.push({ store, cleanup: t.cleanup });
  return store;
}
afterEach(() => {
  for (const o of opened.splice(0)) {
    o.store.close();
    o.cleanup();
  }
});

/** 137 replies (statements of 50 and a remainder) from 40 numbers, one in national form. */
const rows = (): InboundImport[] =>
  Array.from({ length: 137 }, (_, i) => ({
    identity: `o:desk-a:${i}`,
    from: i === 5 ? '07700 900010' : String(447700900000 + (i % 40)),
    to: '447700900999',
    text: `reply ${i % 7}: café ☕`,
    timestamp: `2026-11-27T10:${String(i % 60).padStart(2, '0')}:00Z`,
    kind: 'text',
    receivedAt: 1_800_000_000_000 + (i % 50) * 1000,
  }));

const messages = (s: OpenedAppStore) =>
  s.app.db
    .prepare(
      `SELECT m.direction, m.kind, m.peer, m.local, m.text, m.created_at, m.status, m.sent_timestamp, m.read,
              m.dedupe_key, c.peer AS conversation FROM messages m JOIN conversations c ON c.id = m.conversation_id
        ORDER BY m.id`,
    )
    .all();
const conversations = (s: OpenedAppStore) =>
  s.app.db
    .prepare(
      `SELECT c.peer, c.unread_count, c.last_activity_at, c.archived, c.campaign_only, m.dedupe_key AS last
         FROM conversations c LEFT JOIN messages m ON m.id = c.last_message_id ORDER BY c.peer`,
    )
    .all();

/** The account the replies are imported for (issue 25: conversations are per account). */
const ACC = 'acc-1';

describe('importing inbound messages many at a time', () => {
  let one: OpenedAppStore;
  let many: OpenedAppStore;
  beforeEach(() => {
    one = fresh();
    many = fresh();
    // an archived conversation and a campaign-only one before: both listed again by a reply
    for (const s of [one, many]) {
      const archived = s.conversations.ensure(ACC, '447700900001');
      s.app.db.prepare('UPDATE conversations SET archived = 1 WHERE id = ?').run(archived);
      s.conversations.ensure(ACC, '447700900002', 1, true);
    }
  });

  it('stores what storeInbound stores one at a time: messages, conversations, unread, search', () => {
    one.app.transaction(() => {
      for (const r of rows()) one.conversations.storeInbound(ACC, r, r.identity);
    });
    const r = many.inboundImport.storeMany(ACC, rows(), 'collect');
    expect(r.stored).toHaveLength(137);
    expect(r.stored.map((m) => m.text)).toEqual(rows().map((x) => x.text));
    expect(r.ids.size).toBe(137);
    expect(messages(many)).toEqual(messages(one));
    expect(conversations(many)).toEqual(conversations(one));
    expect(many.conversations.unreadTotal(ACC)).toBe(137);
    const hits = (s: OpenedAppStore) => s.search.search(ACC, 'reply café', { limit: 500 }).messages.length;
    expect(hits(many)).toBe(137);
    expect(hits(one)).toBe(137);
  });

  it('stores each identity once: a page again, a row twice in one call; two identical replies stay two', () => {
    const first = many.inboundImport.storeMany(ACC, rows().slice(0, 60), 'collect');
    const again = many.inboundImport.storeMany(ACC, [...rows(), rows()[100]!], 'collect');
    expect(again.stored.map((m) => m.id)).toEqual(
      rows()
        .slice(60)
        .map((x) => again.ids.get(x.identity)),
    );
    expect(again.stored).toHaveLength(77);
    expect(again.ids.get('o:desk-a:3')).toBe(first.ids.get('o:desk-a:3'));
    expect(many.conversations.unreadTotal(ACC)).toBe(137);
    const twin = { ...rows()[0]!, identity: 'o:desk-b:1' };
    expect(many.inboundImport.storeMany(ACC, [twin], 'collect').stored).toHaveLength(1);
    expect(many.conversations.unreadTotal(ACC)).toBe(138);
  });

  it('keeps the content key and how it came: the collect-repeat filter counts it as collected', () => {
    const r = rows()[5]!;
    many.inboundImport.storeMany(ACC, [r], 'collect');
    const key = many.conversations.contentKey(r);
    const row = many.app.db.prepare('SELECT content_key, via FROM messages').get();
    expect(row).toEqual({ content_key: key, via: 'collect' });
    expect(many.replySpool.collectedCopies(key, 'another-answer', ACC)).toBe(1);
    expect(many.replySpool.collectedCopies(key, 'another-answer', 'another-account')).toBe(0);
  });

  it("stores into the given account's conversations: the same phone for two accounts is two conversations", () => {
    const r = rows()[0]!;
    many.inboundImport.storeMany(ACC, [r], 'collect');
    many.inboundImport.storeMany('acc-2', [{ ...r, identity: 'o:desk-c:1' }], 'collect');
    expect(many.conversations.unreadTotal(ACC)).toBe(1);
    expect(many.conversations.unreadTotal('acc-2')).toBe(1);
    const mine = many.conversations.byPeer(
      ACC,
      many.conversations.get(many.conversations.ensure(ACC, r.from))!.peer,
    );
    const theirs = many.conversations.byPeer('acc-2', mine!.peer);
    expect(theirs).not.toBeNull();
    expect(theirs!.id).not.toBe(mine!.id);
  });
});
