// Issue 27 item 6, app migration 059: a batch not ended yet keeps its lean numbers as one value on its
// row (main/store/outbox-pending.ts), its `outbox_recipients` rows written once when it ends; a number
// listed meanwhile moves out of the value into its thread; the job counts read per-batch counts.
import { describe, expect, it } from 'vitest';
import { openAppDb } from '../../../main/store/db.ts';
import type { AppDb } from '../../../main/store/db.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { LEAN_BY_IDENTIFIER, LEAN_COUNTS } from '../../../main/store/outbox-lean.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import type { OutboxContent } from '../../../domain/index.ts';
import { putLeanJob } from '../../support/lean-rows.ts';
import { migrationsBefore, tempDbFile, withJournal } from './helpers.ts';

let app: AppDb;
let journal: OutboxJournal;
withJournal((a, j) => {
  app = a;
  journal = j;
});

const TEXT: OutboxContent = { kind: 'text', text: 'Doors open at nine', replyTo: '447700900999' };
const [A, B, C] = ['447700900001', '447700900002', '447700900003'] as const;

const rowCount = (): number =>
  (app.db.prepare('SELECT count(*) AS n FROM outbox_recipients').get() as { n: number }).n;
const value = (batchId: number): unknown =>
  JSON.parse(
    (app.db.prepare('SELECT lean FROM outbox_batches WHERE id = ?').get(batchId) as { lean: string }).lean,
  );
const threadOf = (conversations: ConversationsRepo, peer: string) =>
  conversations
    .thread('', { conversationId: conversations.byPeer('', peer)!.id })
    .items.map((m) => [m.text, m.status, m.messageIdentifier]);
/** The job's counts as every row says (both tables, the value's numbers with their batch's state). */
const countedByRows = (jobId: number): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const r of app.db
    .prepare(
      `SELECT status, count(*) AS n FROM (
         SELECT status FROM messages WHERE job_id = ?1 AND direction = 'out'
         UNION ALL SELECT status FROM outbox_recipients WHERE job_id = ?1
         UNION ALL SELECT status FROM outbox_lean_pending WHERE job_id = ?1) GROUP BY status`,
    )
    .all(jobId) as Array<{ status: string; n: number }>)
    out[r.status] = r.n;
  return out;
};
const nonZero = (counts: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));

describe('a batch not ended keeps its lean numbers on its row (migration 059)', () => {
  it('writes no row until the batch ends, and each row once, answered', () => {
    const job = journal.createJob([A, B, C], TEXT);
    const [batch] = journal.batches(job.id);
    expect(rowCount()).toBe(0);
    expect(value(batch!.id)).toEqual([A, B, C]);
    expect(journal.job(job.id)!.counts).toMatchObject({ pending: 3 });
    const claimed = journal.claimNext(job.id)!;
    expect(rowCount()).toBe(0);
    expect(claimed.recipients).toEqual([A, B, C]);
    expect(journal.recipients(job.id).map((r) => r.status)).toEqual(['sending', 'sending', 'sending']);
    expect(journal.job(job.id)!.counts).toMatchObject({ sending: 3, pending: 0 });
    journal.recordResults(claimed.id, [
      { to: A, report: '-3', messageIdentifier: 'M1' },
      { to: B, report: '-3', messageIdentifier: 'M2' },
      { to: C, report: '15', text: 'Out of credit' },
    ]);
    expect(rowCount()).toBe(3);
    expect(app.db.prepare('SELECT lean FROM outbox_batches WHERE id = ?').get(claimed.id)).toEqual({
      lean: null,
    });
    expect(journal.recipients(job.id).map((r) => [r.to, r.status, r.messageIdentifier])).toEqual([
      [A, 'accepted', 'M1'],
      [B, 'accepted', 'M2'],
      [C, 'rejected', null],
    ]);
    expect(journal.job(job.id)!.counts).toMatchObject({ accepted: 2, rejected: 1, sending: 0 });
  });

  it('moves a number listed while its batch is pending into its thread; answered there', () => {
    const conversations = new ConversationsRepo(app);
    const job = journal.createJob([A, B, C], TEXT);
    const batchId = journal.batches(job.id)[0]!.id;
    conversations.open('', B); // the Inbox lists B while the send waits
    expect(value(batchId)).toEqual([A, null, C]);
    expect(threadOf(conversations, B)).toEqual([[TEXT.text, 'pending', null]]);
    expect(nonZero({ ...journal.job(job.id)!.counts })).toEqual({ pending: 3 });
    const claimed = journal.claimNext(job.id)!;
    expect(claimed.recipients).toEqual([A, B, C]);
    journal.recordResults(claimed.id, [
      { to: A, report: '-3', messageIdentifier: 'M1' },
      { to: B, report: '-3', messageIdentifier: 'M2' },
      { to: C, report: '-3', messageIdentifier: 'M3' },
    ]);
    expect(threadOf(conversations, B)).toEqual([[TEXT.text, 'accepted', 'M2']]);
    expect(app.db.prepare('SELECT peer FROM outbox_recipients ORDER BY position').all()).toEqual([
      { peer: A },
      { peer: C },
    ]);
    expect(nonZero({ ...journal.job(job.id)!.counts })).toEqual({ accepted: 3 });
  });

  it('moves a number listed while its batch is being sent; answered or unknown there', () => {
    const conversations = new ConversationsRepo(app);
    const small = new OutboxJournal(app, { batchSize: 2, defaultCountry: 'GB' });
    const job = small.createJob([A, B, C, '447700900004'], TEXT);
    const first = small.claimNext(job.id)!;
    conversations.open('', B);
    expect(threadOf(conversations, B)).toEqual([[TEXT.text, 'sending', null]]);
    const second = small.holdAnswerAndClaim(
      first.id,
      [
        { to: A, report: '-3', messageIdentifier: 'M1' },
        { to: B, report: '-3', messageIdentifier: 'M2' },
      ],
      job.id,
      () => true,
    )!;
    small.recordResults(first.id, [
      { to: A, report: '-3', messageIdentifier: 'M1' },
      { to: B, report: '-3', messageIdentifier: 'M2' },
    ]);
    expect(threadOf(conversations, B)).toEqual([[TEXT.text, 'accepted', 'M2']]);
    // C is listed while the second batch is out, then the app stops before its answer
    conversations.open('', C);
    app.db.prepare("UPDATE outbox_batches SET owner = '4343:crashed-process'").run();
    const unknown = new OutboxJournal(app).recoverAfterCrash({
      isProcessAlive: () => false,
      isRunAlive: () => false,
    });
    expect(unknown.map((b) => b.id)).toEqual([second.id]);
    expect(threadOf(conversations, C)).toEqual([[TEXT.text, 'unknown', null]]);
    expect(small.recipients(job.id).map((r) => [r.to, r.status])).toEqual([
      [A, 'accepted'],
      [B, 'accepted'],
      [C, 'unknown'],
      ['447700900004', 'unknown'],
    ]);
    expect(nonZero({ ...small.job(job.id)!.counts })).toEqual(countedByRows(job.id));
  });

  it('keeps the job counts exact through receipts and moves, without reading every row', () => {
    const conversations = new ConversationsRepo(app);
    const job = journal.createJob([A, B, C], TEXT);
    const batch = journal.claimNext(job.id)!;
    journal.recordResults(batch.id, [
      { to: A, report: '-3', messageIdentifier: 'M1' },
      { to: B, report: '-3', messageIdentifier: 'M2' },
      { to: C, report: '-3', messageIdentifier: 'M3' },
    ]);
    journal.recordReceipt({ messageIdentifier: 'M1', report: '-1' });
    journal.recordReceipt({ messageIdentifier: 'M3', report: '-6' });
    conversations.storeInbound('', { from: C, to: '447700900999', text: 'Thanks', timestamp: 'x' });
    const counts = nonZero({ ...journal.job(job.id)!.counts });
    expect(counts).toEqual(countedByRows(job.id));
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(3);
    // what they were read from: one row per batch and status
    expect(
      app.db
        .prepare('SELECT status, n FROM outbox_lean_counts WHERE batch_id = ? AND n > 0 ORDER BY status')
        .all(batch.id),
    ).toHaveLength(Object.keys(countedByRows(job.id)).length - 1); // C's status is counted in `messages`
  });
});

describe('query plans', () => {
  const plan = (sql: string): string =>
    (app.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(1) as Array<{ detail: string }>)
      .map((r) => r.detail)
      .join('\n');
  it('a receipt’s lookup reads the MessageIdentifier index, no batch value; the job counts no recipient row', () => {
    expect(plan(LEAN_BY_IDENTIFIER)).toMatch(
      /^SEARCH outbox_recipients USING COVERING INDEX outbox_recipients_mid/,
    );
    expect(plan(LEAN_BY_IDENTIFIER)).not.toMatch(/outbox_batches|json_each|VIRTUAL/);
    const counts = plan(LEAN_COUNTS);
    expect(counts).toMatch(/SEARCH outbox_batches USING INDEX outbox_batches_lean/);
    expect(counts).toMatch(/SEARCH c USING PRIMARY KEY \(batch_id=\?\)/);
    expect(counts).not.toMatch(/outbox_recipients|json_each|SCAN/);
  });
});

describe('migration 059 on a file journaled before it', () => {
  it('turns a pending or sending batch’s lean rows into its value, answered and listed as before', () => {
    const t = tempDbFile();
    try {
      const before = migrationsBefore(59, t.dir);
      const old = openAppDb(t.file, { migrationsDir: before });
      const { jobId, batchIds } = putLeanJob(old, {
        accountId: null,
        at: 1_000,
        content: TEXT,
        recipients: [A, B, C, '447700900004', '447700900005'].map((peer) => ({ peer, status: 'pending' })),
        batchSize: 2,
      });
      // the first batch answered, the second being sent, the third pending; a skip left a gap in the second
      old.db.prepare("UPDATE outbox_recipients SET status = 'accepted' WHERE batch_id = ?").run(batchIds[0]!);
      old.db
        .prepare("UPDATE outbox_batches SET state = 'sending', started_at = 2000, owner = '1:x' WHERE id = ?")
        .run(batchIds[1]!);
      old.db.prepare("UPDATE outbox_recipients SET status = 'sending' WHERE batch_id = ?").run(batchIds[1]!);
      old.db.prepare('DELETE FROM outbox_recipients WHERE batch_id = ? AND position = 0').run(batchIds[1]!);
      old.db.prepare("UPDATE outbox_batches SET state = 'pending' WHERE id = ?").run(batchIds[2]!);
      old.close();
      const now = openAppDb(t.file);
      try {
        const rows = (id: number) =>
          now.db.prepare('SELECT count(*) AS n FROM outbox_recipients WHERE batch_id = ?').get(id);
        expect(rows(batchIds[0]!)).toEqual({ n: 2 });
        expect(rows(batchIds[1]!)).toEqual({ n: 0 });
        expect(rows(batchIds[2]!)).toEqual({ n: 0 });
        const lean = (id: number) =>
          now.db.prepare('SELECT lean, lean_count FROM outbox_batches WHERE id = ?').get(id);
        expect(lean(batchIds[1]!)).toEqual({ lean: JSON.stringify([null, '447700900004']), lean_count: 1 });
        expect(lean(batchIds[2]!)).toEqual({ lean: JSON.stringify(['447700900005']), lean_count: 1 });
        const j = new OutboxJournal(now);
        expect(j.job(jobId)!.counts).toMatchObject({ accepted: 2, sending: 1, pending: 1 });
        expect(j.recipients(jobId).map((r) => [r.to, r.status])).toEqual([
          [A, 'accepted'],
          [B, 'accepted'],
          ['447700900004', 'sending'],
          ['447700900005', 'pending'],
        ]);
        // a crash leaves the sending one unknown; the pending one is listed, then sent and answered
        j.recoverAfterCrash({ isProcessAlive: () => false, isRunAlive: () => false });
        const conversations = new ConversationsRepo(now);
        conversations.open('', '447700900005');
        const batch = j.claimNext(jobId)!;
        j.recordResults(batch.id, [{ to: '447700900005', report: '-3', messageIdentifier: 'M9' }]);
        expect(
          conversations
            .thread('', { conversationId: conversations.byPeer('', '447700900005')!.id })
            .items.map((m) => [m.status, m.messageIdentifier]),
        ).toEqual([['accepted', 'M9']]);
        // an answered row listed later moves as before (found through outbox_lean_peers)
        conversations.open('', A);
        expect(
          conversations.thread('', { conversationId: conversations.byPeer('', A)!.id }).items,
        ).toHaveLength(1);
        expect(j.job(jobId)!.counts).toMatchObject({ accepted: 3, unknown: 1, pending: 0, sending: 0 });
      } finally {
        now.close();
      }
    } finally {
      t.cleanup();
    }
  });
});
