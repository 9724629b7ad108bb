// Issue 27 item 6 (app migration 059): a pending or claimed ('sending') batch keeps its lean
// recipients' numbers as one value on its row (`outbox_batches.lean`: its SendTo list as a JSON
// array, null where the recipient is a `messages` row), written in createJob's transaction, so on
// disk before the first request as the rows were (docs/ARCHITECTURE.md "nothing is lost"). Claiming
// the batch changes its row only. Its `outbox_recipients` rows (./outbox-lean.ts) are written once,
// when it ends: answered (./outbox-lean.ts LeanAnswers → insertAnswered here), made unknown or
// rejected (closeLeanValue). The journal's CPU per 100,000 recipients (`npm run bench -- --only
// send-path --quick`): ~620-660 ms with lean rows written pending and rewritten twice (migration
// 055), ~450-510 ms with the value, the rows written once, the numbers' lookup table written sorted
// and the counts kept per batch (docs/ARCHITECTURE.md "What a send costs").
//
// Readers see a batch's recipients still in its value through the view `outbox_lean_pending` (the
// columns of `outbox_recipients`: status the batch's state, sent_at its start), beside the table's
// rows: PENDING_LEAN_ARM below.
//
// A number listed while a batch holds it (a reply, a send to it alone) moves out of the value into
// `messages` as a thread row with the batch's state, in the statement that lists it: migration 059's
// triggers, beside migration 055's that move lean rows.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { stmt } from '../../storage/sqlite.ts';

/** The columns of `outbox_recipients` a row is written with from the view (its own state aside). */
const KEPT = 'batch_id, position, job_id, account_id, peer, text, sent_at, automatic';

/**
 * Where each lean number of the job is (app migration 059, `outbox_lean_peers`: what migration 055's
 * triggers find a listed number's recipients by; its account read through the batch's job since
 * migration 060), written once with the job, sorted by number: a b-tree filled in key order is
 * written page after page, where its numbers in SendTo order (or batch by batch as they end) would
 * rewrite a page for each of them (~0.2-0.7 s for 100,000).
 */
export function indexLeanPeers(db: DatabaseSync, jobId: number): void {
  stmt(
    db,
    `INSERT INTO outbox_lean_peers (peer, batch_id, position)
     SELECT p.value, b.id, p.key FROM outbox_batches b, json_each(b.lean) p
      WHERE b.job_id = ?1 AND b.lean IS NOT NULL AND p.value IS NOT NULL ORDER BY p.value`,
  ).run(jobId);
}

/** The lean recipients still in a batch's value `r` and its job `j`, as LEAN_FROM reads the table's rows. */
export const PENDING_FROM = 'outbox_lean_pending r JOIN outbox_jobs j ON j.id = r.job_id';

/** The value's numbers of the batch `?1`, read as lean rows (for a UNION ALL with the table's). */
export const PENDING_LEAN_ARM = (columns: string): string =>
  `SELECT ${columns} FROM outbox_lean_pending r WHERE r.batch_id = ?1`;

/**
 * Every recipient still in the batch's value becomes a row of `outbox_recipients` with `status`, the
 * reason and time (unknown, rejected), and the value is cleared.
 */
export function closeLeanValue(
  db: DatabaseSync,
  batchId: number,
  status: 'unknown' | 'rejected',
  reason: string,
  at: number,
): void {
  stmt(
    db,
    `INSERT INTO outbox_recipients (${KEPT}, status, report_text, answered_at)
     SELECT ${KEPT}, ?2, ?3, ?4 FROM outbox_lean_pending WHERE batch_id = ?1`,
  ).run(batchId, status, reason, at);
  clearLeanValue(db, batchId);
}

/**
 * The batch's lean rows counted by status (`outbox_lean_counts`, migration 059: what the job counts
 * read) after rows of it were written; its triggers keep the counts when a row changes or leaves.
 */
export function recountLean(db: DatabaseSync, batchId: number): void {
  stmt(
    db,
    `INSERT INTO outbox_lean_counts (batch_id, status, n)
     SELECT batch_id, status, count(*) FROM outbox_recipients WHERE batch_id = ?1 GROUP BY status
     ON CONFLICT (batch_id, status) DO UPDATE SET n = excluded.n`,
  ).run(batchId);
}

/**
 * `n` rows of the batch with `status` just written (the statement's own count of rows inserted):
 * added to its count, as recountLean would find them.
 */
export function countLean(db: DatabaseSync, batchId: number, status: string, n: number): void {
  if (n === 0) return;
  stmt(
    db,
    `INSERT INTO outbox_lean_counts (batch_id, status, n) VALUES (?, ?, ?)
     ON CONFLICT (batch_id, status) DO UPDATE SET n = n + excluded.n`,
  ).run(batchId, status, n);
}

/** The batch's value cleared: its rows are written (and counted). */
export function clearLeanValue(db: DatabaseSync, batchId: number): void {
  recountLean(db, batchId);
  stmt(db, 'UPDATE outbox_batches SET lean = NULL, lean_count = 0 WHERE id = ? AND lean IS NOT NULL').run(
    batchId,
  );
}

/** How many of those statements (one per row count) a connection keeps: a send uses one or two. */
const ANSWERED_KEPT = 8;
const answeredStatements = new WeakMap<DatabaseSync, Map<number, StatementSync>>();

/**
 * The INSERT of `n` answered rows, each (position, number, MessageIdentifier) bound as values of its
 * own (anonymous parameters: node:sqlite binds numbered ones much more slowly). Where the rows came
 * as one JSON list (`json_each`, `->>` three times a row), SQLite parsed each row's array three
 * times: ~50 ms of CPU per 100,000 (issue 27 item 6). The batch's own values (job, account, text, send
 * time, auto-reply mark) are read once and bound too: joined, they were read again for every row, and
 * `lean_text` lies past the held answer and the value, in the row's overflow pages (~20 ms).
 */
function answeredInsert(db: DatabaseSync, n: number): StatementSync {
  let kept = answeredStatements.get(db);
  if (kept === undefined) {
    kept = new Map();
    answeredStatements.set(db, kept);
  }
  let s = kept.get(n);
  if (s === undefined) {
    if (kept.size >= ANSWERED_KEPT) kept.delete(kept.keys().next().value as number);
    s = db.prepare(
      `INSERT INTO outbox_recipients (${KEPT}, status, report, report_text, classification, answered_at,
                                      message_identifier)
       SELECT ?, v.column1, ?, ?, v.column2, ?, ?, ?, ?, ?, ?, ?, ?, v.column3
         FROM (VALUES ${Array.from({ length: n }, () => '(?, ?, ?)').join(', ')}) v`,
    );
    kept.set(n, s);
  }
  return s;
}

/** The lean recipients of one outcome: position, number and MessageIdentifier each, in one flat list. */
export interface AnsweredGroup {
  status: string;
  report: string | null;
  reportText: string | null;
  classification: string | null;
  rows: Array<number | string | null>;
}

/**
 * Answered lean recipients of a batch, written once: one INSERT per outcome `group`, the job,
 * account, text, send time and auto-reply mark the batch's (as its value reads them:
 * outbox_lean_pending), read once for all of them. Returns how many rows were inserted per status.
 */
export function insertAnswered(
  db: DatabaseSync,
  batchId: number,
  at: number,
  groups: Iterable<AnsweredGroup>,
): Map<string, number> {
  const inserted = new Map<string, number>();
  // A batch is one request (≤ LIMITS.maxRecipientsPerRequest numbers, ./outbox-jobs.ts): 3 values a
  // row and 11 more stay far under SQLite's 32,766 parameters.
  const batch = stmt(
    db,
    `SELECT b.job_id AS job, coalesce(j.account_id, '') AS account, b.lean_text AS text, b.started_at AS sent,
            (j.auto_reply_rule IS NOT NULL) AS automatic
       FROM outbox_batches b JOIN outbox_jobs j ON j.id = b.job_id WHERE b.id = ?`,
  ).get(batchId) as
    { job: number; account: string; text: string | null; sent: number | null; automatic: number } | undefined;
  if (batch === undefined) return inserted;
  for (const { status, report, reportText, classification, rows } of groups) {
    const { changes } = answeredInsert(db, rows.length / 3).run(
      batchId,
      batch.job,
      batch.account,
      batch.text,
      batch.sent,
      batch.automatic,
      status,
      report,
      reportText,
      classification,
      at,
      ...rows,
    );
    inserted.set(status, (inserted.get(status) ?? 0) + Number(changes));
  }
  return inserted;
}

/**
 * Recipients of a pending batch's value moved out of it (the opted-out skip): `positions` set to
 * null in the value, its count lowered.
 */
export function dropFromValue(db: DatabaseSync, batchId: number, positions: readonly number[]): void {
  if (positions.length === 0) return;
  stmt(
    db,
    `UPDATE outbox_batches SET lean_count = lean_count - ?2,
            lean = (SELECT json_group_array(CASE WHEN p.key IN (SELECT value FROM json_each(?3)) THEN NULL
                                                 ELSE p.value END ORDER BY p.key)
                      FROM json_each(lean) p)
      WHERE id = ?1`,
  ).run(batchId, positions.length, JSON.stringify(positions));
}
