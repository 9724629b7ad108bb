// Issue 27 item 6: a batch's lean answers are written one INSERT per distinct outcome, each row's
// position, number and MessageIdentifier bound as values (main/store/outbox-pending.ts insertAnswered,
// one prepared statement per row count, a few kept per connection) and counted from the rows each
// statement inserted (main/store/outbox-lean.ts LeanAnswers). A batch whose answers fall into more
// outcomes of more sizes (12) than the statements kept (8), and a second batch after it, store every row as
// answered and count them as the rows say.
import { expect, it } from 'vitest';
import type { AppDb } from '../../../main/store/db.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import type { RecipientResult } from '../../../domain/index.ts';
import { withJournal } from './helpers.ts';

let app: AppDb;
let journal: OutboxJournal;
withJournal((a) => {
  app = a;
  journal = new OutboxJournal(a, { batchSize: 80 });
});

const numbers = (from: number, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `4477009${String(from + i).padStart(5, '0')}`);

/** Group k (1..groups) has k recipients: its own report text, every third group rejected; then one unknown. */
function answers(batch: string[], groups: number, tag: string): RecipientResult[] {
  const out: RecipientResult[] = [];
  let i = 0;
  for (let k = 1; k <= groups; k++)
    for (let j = 0; j < k; j++, i++) {
      const to = batch[i]!;
      out.push(
        k % 3 === 0
          ? { to, report: '15', text: `refused ${tag}${k}` }
          : { to, report: '-3', messageIdentifier: `${tag}-${i}`, text: `taken ${tag}${k}` },
      );
    }
  for (; i < batch.length; i++) out.push({ to: batch[i]!, text: `no report ${tag}` });
  return out;
}

it('stores every lean answer of many outcomes of many sizes, counted as the rows say', () => {
  const all = numbers(0, 160);
  const job = journal.createJob(all, { kind: 'text', text: 'Groups' });
  const expected = new Map<string, unknown[]>();
  for (const [b, groups] of [
    [0, 12],
    [1, 9],
  ] as const) {
    const batch = journal.claimNext(job.id)!;
    const results = answers(batch.recipients, groups, `b${b}`);
    journal.recordResults(batch.id, results);
    for (const r of results)
      expected.set(r.to!, [
        r.report === undefined ? 'unknown' : r.report === '15' ? 'rejected' : 'accepted',
        r.messageIdentifier ?? null,
        r.report ?? null,
        r.text,
      ]);
  }
  const rows = app.db
    .prepare(
      'SELECT peer, status, message_identifier, report, report_text FROM outbox_recipients ORDER BY batch_id, position',
    )
    .all() as Array<{
    peer: string;
    status: string;
    message_identifier: string | null;
    report: string | null;
    report_text: string;
  }>;
  expect(rows.map((r) => r.peer)).toEqual(all);
  for (const r of rows)
    expect([r.status, r.message_identifier, r.report, r.report_text], r.peer).toEqual(expected.get(r.peer));
  const byRows: Record<string, number> = {};
  for (const r of rows) byRows[r.status] = (byRows[r.status] ?? 0) + 1;
  const counts = Object.fromEntries(Object.entries(journal.job(job.id)!.counts).filter(([, n]) => n > 0));
  expect(counts).toEqual(byRows);
  expect(byRows).toEqual({ accepted: 75, rejected: 48, unknown: 37 });
  // Values bound from JavaScript numbers are stored as the integers the columns hold.
  expect(
    app.db
      .prepare(
        `SELECT DISTINCT typeof(batch_id) || typeof(position) || typeof(job_id) || typeof(sent_at) ||
                typeof(automatic) || typeof(answered_at) || typeof(peer) || typeof(text) AS types
           FROM outbox_recipients`,
      )
      .all(),
  ).toEqual([{ types: 'integer'.repeat(6) + 'text'.repeat(2) }]);
});

it('counts a batch by status as its rows say when the loop asks for counts, an early receipt included', () => {
  const job = journal.createJob(numbers(500, 5), { kind: 'text', text: 'Counted' });
  const batch = journal.claimNext(job.id)!;
  const [a, b, c, d, e] = batch.recipients as [string, string, string, string, string];
  // A receipt before its answer is kept, then applied when the answer is stored (outbox-receipts.ts).
  expect(journal.recordReceipt({ messageIdentifier: 'early-1', report: '-3' })).toBeNull();
  const counts = journal.recordResultsCounted(batch.id, [
    { to: a, report: '-3', messageIdentifier: 'early-1' },
    { to: b, report: '-3', messageIdentifier: 'm-2' },
    { to: c, report: '-2', messageIdentifier: 'm-3' },
    { to: d, report: '15', text: 'no' },
    { to: e },
  ]);
  const byRows: Record<string, number> = {};
  for (const o of journal.recipientsOfBatch(batch.id)) byRows[o.status] = (byRows[o.status] ?? 0) + 1;
  expect(Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0))).toEqual(byRows);
  expect(byRows).toEqual({ delivered: 1, accepted: 1, queued: 1, rejected: 1, unknown: 1 });
  expect(journal.batch(batch.id)?.state).toBe('accepted');
});
