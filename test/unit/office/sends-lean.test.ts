// Issue 27 item 6 in office mode: a send's recipients in the journal's lean table (app migration 055)
// are queued for the office database like its `messages` rows (main/office/sends-lean.ts): journaled
// and changed (a receipt) by TEMP triggers on main.outbox_recipients, read back by their key with their
// send's order; a recipient moved into `messages` (its conversation listed) is shared once more as the
// same recipient (same send, number, place and state, a newer version), never as a new one, and the
// other desk counts it once; a receipt for it finds its job; a desk joining shares its lean rows too.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppStore } from '../../../main/store/app-store.ts';
import { openAppDb } from '../../../main/store/db.ts';
import type { OpenedAppStore } from '../../../main/store/app-store.ts';
import { SendsLocal } from '../../../main/office/sends-local.ts';
import type { SharedRecipient } from '../../../main/office/sends-local.ts';
import { queueExisting } from '../../../main/office/sends-join.ts';
import { putLeanJob } from '../../support/lean-rows.ts';

const opened: Array<{ store: OpenedAppStore; dir: string }> = [];
afterEach(() => {
  for (const { store, dir } of opened.splice(0)) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const ONE = '447700900001';
const TWO = '447700900002';
const THREE = '447700900003';
const AT = 1_700_000_000_000;

function desk(name: string) {
  const dir = mkdtempSync(join(tmpdir(), `sends-lean-${name}-`));
  const store = openAppStore(join(dir, 'messenger.db'));
  opened.push({ store, dir });
  const account = store.accounts.save({ username: 'demo', primaryUrl: 'https://gw.example.com' }).id;
  const sends = new SendsLocal(store.app, name);
  return { store, account, sends };
}

/** A campaign to ONE, TWO (one batch) and THREE (a second batch), all lean. */
const campaign = (store: OpenedAppStore, account: string) =>
  putLeanJob(store.app, {
    accountId: account,
    at: AT,
    content: { kind: 'text', text: 'Sale today' },
    batchSize: 2,
    recipients: [
      { peer: ONE, status: 'accepted', messageIdentifier: 'mid-1', sentAt: AT + 1 },
      { peer: TWO, status: 'accepted', messageIdentifier: 'mid-2', sentAt: AT + 1 },
      { peer: THREE, status: 'rejected', report: '-3', text: 'Sale today, Carol' },
    ],
  });

/** What the other desk is given of each recipient (the office database's columns). */
const shared = (r: SharedRecipient) => ({
  peer: r.peer,
  position: r.position,
  status: r.status,
  messageIdentifier: r.messageIdentifier,
  receiptReport: r.receiptReport,
  text: r.text ?? null,
});

describe('office mode: a send’s lean recipients shared', () => {
  it('journaled, changed and moved into messages: shared as the same recipients, in order', () => {
    const a = desk('desk-a');
    a.sends.watchJournal();
    const { jobId } = campaign(a.store, a.account);
    const first = a.sends.changes(100)!;
    const sent = first.byAccount.get(a.account)!;
    expect(sent.sends.map((s) => s.uid)).toEqual([`desk-a:${jobId}:${AT}`]);
    expect(sent.recipients.map(shared)).toEqual([
      {
        peer: ONE,
        position: 1_000_000,
        status: 'accepted',
        messageIdentifier: 'mid-1',
        receiptReport: null,
        text: null,
      },
      {
        peer: TWO,
        position: 1_000_001,
        status: 'accepted',
        messageIdentifier: 'mid-2',
        receiptReport: null,
        text: null,
      },
      {
        peer: THREE,
        position: 2_000_000,
        status: 'rejected',
        messageIdentifier: null,
        receiptReport: null,
        text: 'Sale today, Carol',
      },
    ]);
    a.sends.written(first.upTo, first.booksUpTo);
    expect(a.sends.changes(100)).toBeNull();

    // a receipt for ONE (the journal's update of its lean row): ONE alone, newer
    a.store.app.db
      .prepare(
        "UPDATE outbox_recipients SET status = 'delivered', receipt_report = 'DELIVRD', receipt_at = ? WHERE message_identifier = 'mid-1'",
      )
      .run(AT + 50);
    const receipt = a.sends.changes(100)!;
    const one = receipt.byAccount.get(a.account)!.recipients;
    expect(one.map(shared)).toEqual([
      {
        peer: ONE,
        position: 1_000_000,
        status: 'delivered',
        messageIdentifier: 'mid-1',
        receiptReport: 'DELIVRD',
        text: null,
      },
    ]);
    const versionBefore = one[0]!.version;
    expect(versionBefore).toBeGreaterThan(Math.max(...sent.recipients.map((r) => r.version)));
    a.sends.written(receipt.upTo, receipt.booksUpTo);

    // ONE replies: its row moves into messages; shared once more as the same recipient, state kept
    a.store.conversations.storeInbound(a.account, {
      from: ONE,
      to: '447700999000',
      text: 'Thanks',
      timestamp: '231114221320',
      receivedAt: AT + 100,
    });
    const moved = a.sends.changes(100)!;
    const again = moved.byAccount.get(a.account)!.recipients;
    expect(again.map(shared)).toEqual([
      {
        peer: ONE,
        position: 1_000_000,
        status: 'delivered',
        messageIdentifier: 'mid-1',
        receiptReport: 'DELIVRD',
        text: null,
      },
    ]);
    expect(again[0]!.version).toBeGreaterThan(versionBefore);
    a.sends.written(moved.upTo, moved.booksUpTo);
    expect(a.sends.changes(100)).toBeNull();
    // a receipt pushed to another desk for a lean recipient is known as this desk's
    expect(a.sends.jobOfMessageIdentifier('mid-2')).toBe(jobId);
    expect(a.sends.jobOfMessageIdentifier('mid-1')).toBe(jobId);
    expect(a.sends.jobOfMessageIdentifier('mid-9')).toBeNull();

    // desk B stores what A shared (as the office feed hands it): three recipients, ONE once
    const b = desk('desk-b');
    const bJob = b.store.app.transaction(() =>
      b.sends.ensureSend(b.account, {
        uid: sent.sends[0]!.uid,
        createdAt: AT,
        content: sent.sends[0]!.content,
        resendOf: null,
        desk: 'desk-a',
        deskName: 'Front desk',
      }),
    );
    for (const page of [sent.recipients, one, again])
      b.store.app.transaction(() => b.sends.putRecipients(bJob, page));
    const job = b.store.outbox.job(bJob)!;
    expect(b.sends.withCounts(job)).toMatchObject({
      recipientCount: 3,
      counts: { delivered: 1, accepted: 1, rejected: 1 },
    });
    expect(b.sends.recipients(bJob).map((r) => [r.to, r.status])).toEqual([
      [ONE, 'delivered'],
      [TWO, 'accepted'],
      [THREE, 'rejected'],
    ]);
  });

  it('a send not ended yet: shared from its batch’s value (app migration 059), claimed, answered, listed', () => {
    const a = desk('desk-a');
    a.sends.watchJournal();
    const journal = a.store.outbox;
    const job = journal.createJob(
      [ONE, TWO, THREE],
      { kind: 'text', text: 'Sale today' },
      { accountId: a.account },
    );
    expect(a.store.app.db.prepare('SELECT count(*) AS n FROM outbox_recipients').get()).toEqual({ n: 0 });
    const read = () => {
      const page = a.sends.changes(100);
      if (page === null) return [];
      a.sends.written(page.upTo, page.booksUpTo);
      return page.byAccount
        .get(a.account)!
        .recipients.map((r) => [r.peer, r.position, r.status, r.messageIdentifier]);
    };
    expect(read()).toEqual([
      [ONE, 1_000_000, 'pending', null],
      [TWO, 1_000_001, 'pending', null],
      [THREE, 1_000_002, 'pending', null],
    ]);
    const batch = journal.claimNext(job.id)!;
    expect(read()).toEqual([
      [ONE, 1_000_000, 'sending', null],
      [TWO, 1_000_001, 'sending', null],
      [THREE, 1_000_002, 'sending', null],
    ]);
    // TWO is listed while its batch is out: the same recipient, as a thread row now
    a.store.conversations.ensure(a.account, TWO, AT + 10);
    expect(read()).toEqual([[TWO, 1_000_001, 'sending', null]]);
    journal.recordResults(batch.id, [
      { to: ONE, report: '-3', messageIdentifier: 'mid-1' },
      { to: TWO, report: '-3', messageIdentifier: 'mid-2' },
      { to: THREE, report: '-3', messageIdentifier: 'mid-3' },
    ]);
    expect(read()).toEqual([
      [ONE, 1_000_000, 'accepted', 'mid-1'],
      [TWO, 1_000_001, 'accepted', 'mid-2'],
      [THREE, 1_000_002, 'accepted', 'mid-3'],
    ]);
  });

  it('a lean key whose row moved before it was read is dropped (its message id carries it)', () => {
    const a = desk('desk-a');
    a.sends.watchJournal();
    campaign(a.store, a.account);
    a.store.conversations.ensure(a.account, TWO, AT + 10);
    const page = a.sends.changes(100)!;
    expect(page.byAccount.get(a.account)!.recipients.map((r) => [r.peer, r.position])).toEqual([
      [ONE, 1_000_000],
      [TWO, 1_000_001],
      [THREE, 2_000_000],
    ]);
  });

  it('a desk joining an office queues its earlier sends’ lean recipients', () => {
    const a = desk('desk-a');
    const { jobId } = campaign(a.store, a.account); // before office mode: no trigger queued it
    a.sends.watchJournal();
    expect(a.sends.changes(100)).toBeNull();
    a.store.app.transaction(() =>
      queueExisting(a.store.app, { accountId: a.account, afterJob: 0, untilJob: jobId, jobs: 50 }),
    );
    expect(
      a.sends
        .changes(100)!
        .byAccount.get(a.account)!
        .recipients.map((r) => r.peer),
    ).toEqual([ONE, TWO, THREE]);
  });

  it('app migration 057 keeps the queue and its counter (a version never given twice)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sends-lean-057-'));
    try {
      const before = join(dir, 'before');
      mkdirSync(before);
      const all = new URL('../../../main/store/migrations/', import.meta.url).pathname;
      for (const f of readdirSync(all).filter((f) => f.endsWith('.sql') && f < '057'))
        copyFileSync(join(all, f), join(before, f));
      const file = join(dir, 'messenger.db');
      const old = openAppDb(file, { migrationsDir: before });
      old.db.exec('INSERT INTO office_send_changes (message_id) VALUES (7), (8), (9)');
      old.db.exec('DELETE FROM office_send_changes WHERE message_id < 9');
      // a send journaled (and shared) before: its recipients' places were their message ids
      old.db.exec(`
        INSERT INTO accounts (id, label, username, primary_url, created_at, updated_at)
          VALUES ('acc', 'demo', 'demo', 'https://gw.example.com', 1, 1);
        INSERT INTO outbox_jobs (id, created_at, kind, text, content, account_id)
          VALUES (1, ${AT}, 'text', 'Old', '{"kind":"text","text":"Old"}', 'acc');
        INSERT INTO outbox_batches (id, job_id, seq, state, created_at) VALUES (1, 1, 1, 'accepted', ${AT});
        INSERT INTO conversations (id, account_id, peer, last_activity_at) VALUES (1, 'acc', '${ONE}', ${AT});
        INSERT INTO messages (id, conversation_id, direction, kind, peer, text, created_at, status, job_id, batch_id,
                              position, read) VALUES (41, 1, 'out', 'text', '${ONE}', 'Old', ${AT}, 'accepted', 1, 1, 0, 1);`);
      old.close();
      const now = openAppDb(file);
      try {
        now.db.exec('INSERT INTO office_send_changes (batch_id, position) VALUES (4, 0)');
        expect(now.db.prepare('SELECT * FROM office_send_changes ORDER BY seq').all()).toEqual([
          { seq: 3, message_id: 9, batch_id: null, position: null },
          { seq: 4, message_id: null, batch_id: 4, position: 0 },
        ]);
        now.db.exec('DELETE FROM office_send_changes');
        now.db.exec('INSERT INTO office_send_changes (message_id) VALUES (10)');
        expect(now.db.prepare('SELECT seq FROM office_send_changes').all()).toEqual([{ seq: 5 }]);
        expect(() => now.db.exec('INSERT INTO office_send_changes (batch_id) VALUES (4)')).toThrow(/CHECK/);
        now.db.exec('DELETE FROM office_send_changes');
        // the old send keeps its places; a send journaled now is placed by batch and position
        const sends = new SendsLocal(now, 'desk-a');
        sends.watchJournal();
        now.db.exec("UPDATE messages SET status = 'delivered' WHERE id = 41");
        const fresh = putLeanJob(now, {
          accountId: 'acc',
          at: AT + 1,
          content: { kind: 'text', text: 'New' },
          recipients: [{ peer: TWO }],
        });
        expect(fresh.jobId).toBe(2);
        const page = sends.changes(100)!;
        expect(page.byAccount.get('acc')!.recipients.map((r) => [r.peer, r.status, r.position])).toEqual([
          [ONE, 'delivered', 41],
          [TWO, 'accepted', 1_000_000],
        ]);
      } finally {
        now.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
