import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { openAppDb } from '../../../main/store/db.ts';
import type { AppDb } from '../../../main/store/db.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import { ContactsRepo } from '../../../main/store/contacts.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import type { ConversationCursor, ConversationSummary } from '../../../preload/api.ts';
import { tempDbFile } from './helpers.ts';

let app: AppDb;
let file: string;
let cleanup: () => void;
let conversations: ConversationsRepo;
beforeEach(() => {
  const t = tempDbFile();
  cleanup = t.cleanup;
  file = t.file;
  app = openAppDb(file);
  conversations = new ConversationsRepo(app, { defaultCountry: 'GB' });
});
afterEach(() => {
  app.close();
  cleanup();
});

const OUR_NUMBER = '447700900999';
function inbound(
  from: string,
  text: string,
  receivedAt: number,
  timestamp = new Date(receivedAt).toISOString().slice(0, 19),
) {
  return conversations.storeInbound('', { from, to: OUR_NUMBER, text, timestamp, receivedAt });
}

describe('inbound store', () => {
  it('stores each message once, however often a poll returns it, and across reopen', () => {
    const first = inbound('+44 7700 900001', 'Hello there', 1000, '2026-11-22T07:00:00');
    expect(first.stored).toBe(true);
    expect(first.message).toMatchObject({
      direction: 'in',
      peer: '447700900001',
      local: OUR_NUMBER,
      read: false,
    });
    // Same sender written differently, same timestamp and text: the same message.
    const again = inbound('07700900001', 'Hello there', 5000, '2026-11-22T07:00:00');
    expect(again.stored).toBe(false);
    expect(again.message.id).toBe(first.message.id);
    // Same text at another time is another message.
    expect(inbound('447700900001', 'Hello there', 6000, '2026-11-22T07:05:00').stored).toBe(true);

    app.close();
    app = openAppDb(file);
    conversations = new ConversationsRepo(app, { defaultCountry: 'GB' });
    expect(inbound('447700900001', 'Hello there', 9000, '2026-11-22T07:00:00').stored).toBe(false);
    const c = conversations.byPeer('', '447700900001');
    expect(c?.unreadCount).toBe(2);
    expect(conversations.thread('', { conversationId: c?.id ?? 0 }).items).toHaveLength(2);
  });

  it("keys by the gateway's id when there is one, and keeps alphanumeric senders as given", () => {
    const a = conversations.storeInbound('', {
      from: 'ACME',
      to: OUR_NUMBER,
      text: 'Code 1234',
      timestamp: 't',
      gatewayId: 'g-1',
    });
    const b = conversations.storeInbound('', {
      from: 'ACME',
      to: OUR_NUMBER,
      text: 'Code 1234 (edited?)',
      timestamp: 't2',
      gatewayId: 'g-1',
    });
    expect(a.stored).toBe(true);
    expect(b.stored).toBe(false);
    expect(a.message.peer).toBe('ACME');
    expect(() =>
      conversations.storeInbound('', { from: ' ', to: OUR_NUMBER, text: 'x', timestamp: 't' }),
    ).toThrow(/without a sender/);
  });
});

describe('conversation list', () => {
  function all(limit: number): ConversationSummary[] {
    const out: ConversationSummary[] = [];
    let cursor: ConversationCursor | null = null;
    for (let guard = 0; guard < 100; guard++) {
      const page = conversations.list('', { cursor, limit });
      out.push(...page.items);
      if (!page.next) return out;
      expect(page.items).toHaveLength(limit);
      cursor = page.next;
    }
    throw new Error('pagination did not end');
  }

  it('lists by recency (unread does not reorder), with stable keyset pages', () => {
    // 12 conversations; every third has an unread message, the others were read.
    for (let i = 0; i < 12; i++) {
      const number = `4477009000${String(10 + i)}`;
      inbound(number, `message ${i}`, 10_000 + i * 1000);
      if (i % 3 !== 0) conversations.markRead('', conversations.byPeer('', number)?.id ?? 0);
    }
    // Two with the same last activity: the id breaks the tie.
    inbound('447700900050', 'tie a', 99_000);
    inbound('447700900051', 'tie b', 99_000);
    conversations.markRead('', conversations.byPeer('', '447700900050')?.id ?? 0);
    conversations.markRead('', conversations.byPeer('', '447700900051')?.id ?? 0);

    const expected = conversations.list('', { limit: 500 }).items;
    expect(expected[0]?.peer).toBe('447700900051');
    expect(expected[1]?.peer).toBe('447700900050');
    expect(expected[2]).toMatchObject({ peer: '447700900021', hasUnread: false });
    for (let i = 1; i < expected.length; i++) {
      expect(expected[i - 1]!.lastActivityAt).toBeGreaterThanOrEqual(expected[i]!.lastActivityAt);
    }
    // The unread filter: the same order, the unread ones only.
    const unread = conversations.list('', { limit: 500, filter: 'unread' }).items;
    expect(unread.map((c) => c.peer)).toEqual([
      '447700900019',
      '447700900016',
      '447700900013',
      '447700900010',
    ]);
    expect(unread).toEqual(expected.filter((c) => c.hasUnread));
    for (const size of [1, 3, 5, 14]) expect(all(size).map((c) => c.id)).toEqual(expected.map((c) => c.id));
  });

  it('archives until the next inbound message, marks all read, opens a number', () => {
    inbound('447700900080', 'one', 1000);
    inbound('447700900081', 'two', 2000);
    const first = conversations.byPeer('', '447700900080')!;
    conversations.setArchived('', first.id, true);
    expect(conversations.list('').items.map((c) => c.peer)).toEqual(['447700900081']);
    expect(conversations.list('', { filter: 'archived' }).items.map((c) => c.peer)).toEqual(['447700900080']);
    inbound('447700900080', 'back', 3000);
    expect(conversations.list('').items.map((c) => c.peer)).toEqual(['447700900080', '447700900081']);
    conversations.markUnread('', first.id);
    expect(conversations.markAllRead('')).toBe(2);
    expect(conversations.unreadTotal('')).toBe(0);
    expect(conversations.list('', { filter: 'unread' }).items).toEqual([]);
    expect(() => conversations.setArchived('', 12345, true)).toThrow(/no conversation/);
    const opened = conversations.open('', '+44 7700 900082');
    expect(opened).toMatchObject({ peer: '447700900082', lastMessage: null, archived: false });
    expect(conversations.open('', '447700900082').id).toBe(opened.id);
  });

  it('exports every message, a date range or a search as spreadsheet-safe CSV', () => {
    inbound('447700900090', 'invoice paid', 1000);
    inbound('447700900091', '=HYPERLINK("x") invoice', 2000);
    inbound('447700900091', 'hello', 3000);
    const lines = (csv: string) => csv.trimEnd().split('\r\n');
    expect(lines(conversations.exportMessages(''))).toHaveLength(4);
    expect(lines(conversations.exportMessages('', { from: 2000, to: 3000 }))).toHaveLength(2);
    const found = lines(conversations.exportMessages('', { query: 'invoice' }));
    expect(found).toHaveLength(3);
    expect(found[2]).toContain(`"'=HYPERLINK(""x"") invoice"`);
    expect(lines(conversations.exportMessages('', { query: '***' }))).toHaveLength(1);
  });

  it('marks read and unread, counts unread, and names the contact', () => {
    new ContactsRepo(app).add({ name: 'Ann', number: '447700900060' });
    inbound('447700900060', 'one', 1000);
    inbound('447700900060', 'two', 2000);
    inbound('447700900061', 'three', 3000);
    expect(conversations.unreadTotal('')).toBe(3);
    const ann = conversations.byPeer('', '447700900060')!;
    expect(ann).toMatchObject({ contactName: 'Ann', unreadCount: 2, hasUnread: true });
    expect(ann.lastMessage?.text).toBe('two');

    conversations.markRead('', ann.id);
    expect(conversations.unreadTotal('')).toBe(1);
    expect(conversations.list('').items.map((c) => c.peer)).toEqual(['447700900061', '447700900060']);

    conversations.markUnread('', ann.id);
    const marked = conversations.get(ann.id)!;
    expect(marked).toMatchObject({ hasUnread: true, markedUnread: true, unreadCount: 0 });
    expect(conversations.list('').items.map((c) => c.peer)).toEqual(['447700900061', '447700900060']);
    conversations.markRead('', ann.id);
    expect(conversations.get(ann.id)?.hasUnread).toBe(false);
    expect(() => conversations.markRead('', 12345)).toThrow(/no conversation/);
  });

  it('pages a thread newest first and deletes a conversation with its messages', () => {
    for (let i = 0; i < 7; i++) inbound('447700900070', `m${i}`, 1000 + i);
    const id = conversations.byPeer('', '447700900070')!.id;
    const texts: string[] = [];
    let cursor = null;
    do {
      const page = conversations.thread('', { conversationId: id, cursor, limit: 3 });
      texts.push(...page.items.map((m) => m.text));
      cursor = page.next;
    } while (cursor);
    expect(texts).toEqual(['m6', 'm5', 'm4', 'm3', 'm2', 'm1', 'm0']);

    conversations.delete('', id);
    expect(conversations.get(id)).toBeNull();
    expect(app.db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 0 });
    expect(conversations.unreadTotal('')).toBe(0);
  });

  it('exports a conversation to CSV, oldest first, formulas neutralised', () => {
    inbound('447700900080', 'Hi, "friend"', Date.UTC(2026, 10, 22, 7, 0, 0));
    inbound('447700900080', '=1+1', Date.UTC(2026, 10, 22, 7, 1, 0));
    const csv = conversations.exportCsv('', conversations.byPeer('', '447700900080')!.id);
    const rows = Papa.parse<string[]>(csv.trim()).data;
    expect(rows[0]).toEqual([
      'Time (UTC)',
      'Direction',
      'From',
      'To',
      'Text',
      'Status',
      'Report',
      'MessageIdentifier',
    ]);
    expect(rows[1]).toEqual([
      '2026-11-22T07:00:00.000Z',
      'received',
      '447700900080',
      OUR_NUMBER,
      'Hi, "friend"',
      'received',
      '',
      '',
    ]);
    expect(rows[2]?.[4]).toBe("'=1+1");
  });

  it('exports report codes as numbers, not as escaped text (issue 26)', () => {
    const journal = new OutboxJournal(app, { defaultCountry: 'GB' });
    const job = journal.createJob(['447700900081'], { kind: 'text', text: 'Meeting at 5' });
    const batch = journal.claimNext(job.id)!;
    journal.recordResults(batch.id, [{ to: '447700900081', report: '-3', messageIdentifier: 'm-1' }]);
    const csv = conversations.exportCsv('', conversations.byPeer('', '447700900081')!.id);
    const row = Papa.parse<string[]>(csv.trim()).data[1]!;
    expect(row.slice(4)).toEqual(['Meeting at 5', 'accepted', '-3', 'm-1']);
  });
});
