import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAppDb } from '../../../main/store/db.ts';
import type { AppDb } from '../../../main/store/db.ts';
import { ContactsRepo } from '../../../main/store/contacts.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import { SearchRepo, buildFtsQuery } from '../../../main/store/search.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { tempDbFile } from './helpers.ts';

let app: AppDb;
let cleanup: () => void;
let search: SearchRepo;
let conversations: ConversationsRepo;
let contacts: ContactsRepo;
beforeEach(() => {
  const t = tempDbFile();
  cleanup = t.cleanup;
  app = openAppDb(t.file);
  search = new SearchRepo(app);
  conversations = new ConversationsRepo(app);
  contacts = new ContactsRepo(app);
  const texts = [
    'Meeting moved to Thursday afternoon',
    'See you at the café at 5',
    'Your code is 483920',
    'AND OR NOT NEAR are just words here',
    'She said "hello" * twice',
    'Delivery of parcel 12 tomorrow',
  ];
  texts.forEach((text, i) =>
    conversations.storeInbound('', {
      from: `4477009001${String(10 + i)}`,
      to: '447700900999',
      text,
      timestamp: `t${i}`,
      receivedAt: 1000 + i,
    }),
  );
  contacts.add({ name: 'Alice Thornton', number: '447700900110' });
  contacts.add({ name: 'Bob Meeting', number: '447700900200', email: 'bob@example.com' });
});
afterEach(() => {
  app.close();
  cleanup();
});

const texts = (q: string) => search.search('', q).messages.map((h) => h.message.text);

describe('search', () => {
  it('finds messages by word prefix, case and accent insensitive, newest first', () => {
    expect(texts('thurs')).toEqual(['Meeting moved to Thursday afternoon']);
    expect(texts('CAFE')).toEqual(['See you at the café at 5']);
    expect(texts('meet after')).toEqual(['Meeting moved to Thursday afternoon']);
    expect(texts('4839')).toEqual(['Your code is 483920']);
    expect(texts('t')).toEqual([
      'Delivery of parcel 12 tomorrow',
      'She said "hello" * twice',
      'See you at the café at 5',
      'Meeting moved to Thursday afternoon',
    ]);
    const hit = search.search('', 'parcel').messages[0];
    expect(hit?.snippet).toContain('\u0002parcel\u0003');
    expect(hit?.message.peer).toBe('447700900115');
  });

  it('finds contacts by name, number and e-mail, and names the sender of a hit', () => {
    expect(search.search('', 'thorn').contacts.map((c) => c.name)).toEqual(['Alice Thornton']);
    expect(search.search('', '4477009002').contacts.map((c) => c.name)).toEqual(['Bob Meeting']);
    expect(search.search('', 'bob@example').contacts.map((c) => c.name)).toEqual(['Bob Meeting']);
    const r = search.search('', 'meeting');
    expect(r.contacts.map((c) => c.name)).toEqual(['Bob Meeting']);
    expect(search.search('', 'afternoon').messages[0]?.contactName).toBe('Alice Thornton');
  });

  it('treats FTS5 syntax in user input as text, never as an error', () => {
    const hostile = [
      '"',
      '""',
      '"hello',
      '*',
      '**',
      'AND',
      'OR',
      'NOT',
      'NEAR',
      'NEAR(',
      'hello AND',
      'AND hello',
      '(',
      ')',
      'text:hello',
      '-hello',
      '+hello',
      '^hello',
      "'; DROP TABLE messages; --",
      'a"b*c',
      '{text}: x',
      '\u0000',
      '   ',
      '',
      '😀',
      'x'.repeat(5000),
    ];
    for (const q of hostile) {
      expect(() => search.search('', q), q).not.toThrow();
    }
    expect(texts('AND')).toEqual(['AND OR NOT NEAR are just words here']);
    expect(texts('NEAR are')).toEqual(['AND OR NOT NEAR are just words here']);
    expect(texts('"hello"')).toEqual(['She said "hello" * twice']);
    expect(texts('hello AND')).toEqual([]); // both words must match: "and" is not in that message
    expect(texts("'; DROP TABLE messages; --")).toEqual([]);
    expect(app.db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 6 });
  });

  it('builds quoted prefix terms and nothing for input without letters or digits', () => {
    expect(buildFtsQuery('say "hi" now*')).toBe('"say"* AND """hi"""* AND "now*"*');
    expect(buildFtsQuery(' * " ( ) ')).toBeNull();
  });

  it('keeps the index in sync when messages and contacts change or go', () => {
    const c = contacts.byNumber('447700900110')!;
    contacts.edit(c.id, { name: 'Alice Zephyr' });
    expect(search.search('', 'thornton').contacts).toEqual([]);
    expect(search.search('', 'zephyr').contacts.map((x) => x.id)).toEqual([c.id]);
    conversations.delete('', conversations.byPeer('', '447700900110')!.id);
    expect(texts('thursday')).toEqual([]);
    expect(
      app.db.prepare("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')").run().changes,
    ).toBeGreaterThanOrEqual(0);
  });

  it('shows a send to many recipients once, not once per recipient', () => {
    const journal = new OutboxJournal(app);
    const to = Array.from({ length: 120 }, (_, i) => `447700900${String(300 + i).padStart(3, '0')}`);
    // Numbers with a listed conversation: their threads show the send (issue 27 item 6).
    for (const n of to) conversations.open('', n);
    journal.createJob(to, { kind: 'text', text: 'Quarterly newsletter is out' });
    journal.createJob(to.slice(0, 2), { kind: 'text', text: 'Newsletter correction' });
    const hits = search.search('', 'newsletter').messages;
    expect(hits.map((h) => h.message.text)).toEqual(['Newsletter correction', 'Quarterly newsletter is out']);
  });

  it('finds a send to many numbers without a listed conversation in History, not in search (issue 27 item 6)', () => {
    const journal = new OutboxJournal(app);
    const to = ['447700900501', '447700900502'];
    const job = journal.createJob(to, { kind: 'text', text: 'Spring sale starts today' });
    expect(search.search('', 'spring').messages).toEqual([]);
    expect(journal.recipients(job.id).map((r) => r.to)).toEqual(to);
    // Once a number writes, its thread shows the send, and search finds it there.
    conversations.storeInbound('', { from: to[0]!, to: '447700900999', text: 'STOP', timestamp: 'x' });
    expect(search.search('', 'spring').messages.map((h) => h.message.peer)).toEqual([to[0]]);
  });

  it('labels a rich message in its thread, its preview and search, and finds it by its label (issue 26)', () => {
    const journal = new OutboxJournal(app);
    journal.createJob(['447700900700'], {
      kind: 'ringtone',
      text: '',
      fields: { PhoneMake: 'Nokia', Ringtone: 'Nokia tune:d=4,o=5,b=225:8e6,8d6,4f#,4g#' },
    });
    journal.createJob(['447700900701'], {
      kind: 'vcard',
      text: '',
      fields: { vCard: 'BEGIN:VCARD\r\nVERSION:2.1\r\nN:Smith;Alice\r\nEND:VCARD\r\n' },
    });
    const conv = conversations.byPeer('', '447700900700')!;
    expect(conversations.thread('', { conversationId: conv.id }).items.map((m) => m.label)).toEqual([
      'Ringtone: Nokia tune',
    ]);
    const previews = conversations.list('').items.map((c) => c.lastMessage?.label);
    expect(previews.slice(0, 2)).toEqual(['Contact card: Alice Smith', 'Ringtone: Nokia tune']);
    expect(search.search('', 'nokia').messages.map((h) => h.message.label)).toEqual(['Ringtone: Nokia tune']);
    expect(search.search('', 'alice smith').messages.map((h) => h.message.label)).toEqual([
      'Contact card: Alice Smith',
    ]);
    // Plain text has no label.
    expect(search.search('', 'thursday').messages.map((h) => h.message.label)).toEqual([null]);
  });
});
