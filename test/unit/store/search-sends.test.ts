// Issue 27: the Inbox search finds sends. A campaign's recipients without a listed conversation are
// lean rows (migration 055) that the message search does not read; the send itself is found, once,
// by its text or label (outbox_jobs_fts, migration 058), scoped to the account as History is.
import { describe, expect, it } from 'vitest';
import { loadMigrations, openAppDb } from '../../../main/store/db.ts';
import type { AppDb } from '../../../main/store/db.ts';
import { AccountsRepo } from '../../../main/store/accounts.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import type { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { SearchRepo } from '../../../main/store/search.ts';
import type { OutboxContent } from '../../../domain/index.ts';
import { migrationsBefore, tempDbFile, withJournal } from './helpers.ts';
import { putLeanJob } from '../../support/lean-rows.ts';

let app: AppDb;
let journal: OutboxJournal;
withJournal((a, j) => {
  app = a;
  journal = j;
});

const NEWSLETTER: OutboxContent = {
  kind: 'text',
  text: 'Winter newsletter: the café reopens on Monday',
  replyTo: '447700900999',
};
/** n distinct UK mobile numbers that never wrote (no conversation), normalised. */
const numbers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => String(447400200000 + from + i));

describe('searching sends', () => {
  it('finds a campaign to numbers that never replied once, as a send, with its recipients counted', () => {
    const accounts = new AccountsRepo(app);
    const [one, two] = ['one', 'two'].map(
      (username) => accounts.save({ username, primaryUrl: 'https://gw.example.com' }).id!,
    ) as [string, string];
    const job = journal.createJob(numbers(800), NEWSLETTER, { accountId: one, normalized: true });
    // (pending: the numbers are one value on each batch, migration 059, no row yet)
    expect(app.db.prepare('SELECT count(*) AS n FROM outbox_lean_pending').get()).toEqual({ n: 800 });
    expect(app.db.prepare('SELECT count(*) AS n FROM outbox_recipients').get()).toEqual({ n: 0 });
    const search = new SearchRepo(app);
    const found = search.search(one, 'cafe reop');
    // No message hit: every recipient is a lean row (no listed conversation)...
    expect(found.messages).toEqual([]);
    // ...and the send is one hit, with the match marked and its 800 recipients.
    expect(found.sends).toEqual([
      {
        jobId: job.id,
        createdAt: job.createdAt,
        snippet: 'Winter newsletter: the \u0002café\u0003 \u0002reopens\u0003 on Monday',
        label: null,
        recipientCount: 800,
        resendOf: null,
      },
    ]);
    // Another account's send is not found; a send of no account is found as History shows it.
    expect(search.search(two, 'cafe').sends).toEqual([]);
    const none = journal.createJob(
      numbers(2, 900),
      { ...NEWSLETTER, text: 'Café hours' },
      { normalized: true },
    );
    expect(search.search(two, 'cafe').sends.map((s) => s.jobId)).toEqual([none.id]);
    expect(search.search(one, 'cafe').sends.map((s) => s.jobId)).toEqual([none.id, job.id]);
    // Words the query does not hold, and FTS5 syntax, are just text.
    expect(search.search(one, 'cafe tuesday').sends).toEqual([]);
    expect(search.search(one, 'NEAR(cafe').sends).toEqual([]);
  });

  it('keeps a campaign message in a listed conversation a message hit, and the send one send hit', () => {
    const listed = numbers(1)[0]!;
    new ConversationsRepo(app).open('', listed);
    const job = journal.createJob(numbers(3), NEWSLETTER, { normalized: true });
    const found = new SearchRepo(app).search('', 'newsletter');
    expect(found.messages.map((h) => h.message.peer)).toEqual([listed]);
    expect(found.sends.map((s) => [s.jobId, s.recipientCount])).toEqual([[job.id, 3]]);
  });

  it('finds a mail merge by its template, a rich send by its label, newest first and limited', () => {
    const merge = journal.createJob(
      numbers(2),
      { kind: 'text', text: 'Dear {first name}, your parcel is ready', replyTo: '447700900999' },
      { normalized: true, textOf: (to) => `Dear ${to}, your parcel is ready` },
    );
    const search = new SearchRepo(app);
    expect(search.search('', 'parcel').sends.map((s) => s.snippet)).toEqual([
      'Dear {first name}, your \u0002parcel\u0003 is ready',
    ]);
    expect(search.search('', 'parcel').sends[0]?.jobId).toBe(merge.id);
    const event = journal.createJob(
      numbers(2, 10),
      {
        kind: 'vcalendar',
        text: '',
        fields: {
          vCal: 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Harvest fair\r\nEND:VEVENT\r\nEND:VCALENDAR',
        },
        replyTo: '447700900999',
      },
      { normalized: true },
    );
    const rich = search.search('', 'harvest').sends;
    expect(rich.map((s) => s.jobId)).toEqual([event.id]);
    expect(rich[0]?.label).toMatch(/Harvest fair/);
    for (let i = 0; i < 5; i++) journal.createJob(numbers(2, 20 + 2 * i), NEWSLETTER, { normalized: true });
    const limited = search.search('', 'winter', { limit: 3 }).sends.map((s) => s.jobId);
    expect(limited).toHaveLength(3);
    expect(limited).toEqual([...limited].sort((a, b) => b - a));
  });
});

describe('migration 058', () => {
  it('indexes the sends journaled before it', () => {
    const t = tempDbFile();
    try {
      const before = migrationsBefore(58, t.dir);
      const all = loadMigrations().map((m) => m.version);
      expect(all).toContain(58);
      const old = openAppDb(t.file, { migrationsDir: before });
      // (journaled as the code of then wrote it: lean rows, migration 055)
      const job = {
        id: putLeanJob(old, {
          accountId: null,
          at: 1_000,
          content: NEWSLETTER,
          recipients: numbers(2).map((peer) => ({ peer, status: 'pending' })),
        }).jobId,
      };
      old.close();
      const now = openAppDb(t.file);
      try {
        expect(new SearchRepo(now).search('', 'winter').sends.map((s) => s.jobId)).toEqual([job.id]);
      } finally {
        now.close();
      }
    } finally {
      t.cleanup();
    }
  });
});
