// Issue 27 item 6: the journal's lean recipients (migration 055, `outbox_recipients`). A send to many
// keeps each recipient whose number has no listed conversation of the job's account here, one row of
// one b-tree keyed (batch, position), instead of a `messages` row (six indexes, an FTS row, the
// conversation trigger) and a campaign-only conversation. Migration 059: while its batch is pending
// or being sent, a lean recipient is a number in one value on the batch's row, its row written here
// once when the batch ends (./outbox-pending.ts). A batch's recipients are its `messages` rows, its
// rows here and its value, ordered by position (one SendTo list; ./outbox-journal.ts). When the
// number's conversation is listed (a reply, a message to it alone) the triggers of migrations 055
// and 059 move its rows (and take it out of a value) into `messages` as thread rows.
//
// What a lean recipient looks like where a message is shown (History's `history.messages`, a
// receipt's 'inbox:receipt' event): a MessageRecord read through LEAN_COLUMNS, with no conversation
// (conversationId 0: no conversation has that id) and an id of its own, LEAN_ID_BASE + batch × 2^20 +
// position: above any `messages` id (they count up from 1) and never negative (negative ids are other
// desks' shared rows in office mode, issue 28), stable while the row is lean. A batch holds at most
// 2^20 positions (a batch is one request of ≤ LIMITS.maxRecipientsPerRequest numbers; the skipped
// opted-out recipients of a job, moved to one batch, would need a job of over a million numbers).
import type { DatabaseSync } from 'node:sqlite';
import { stmt } from '../../storage/sqlite.ts';
import { rowAs, rowsAs } from './rows.ts';
import type { MessageRow } from './rows.ts';
import { PENDING_LEAN_ARM, closeLeanValue, countLean, insertAnswered } from './outbox-pending.ts';
import type { AnsweredGroup } from './outbox-pending.ts';

/** 2^52: a lean recipient's MessageRecord id is this plus batch × 2^20 plus position. */
export const LEAN_ID_BASE = 2 ** 52;
export const LEAN_ID_SQL = `(${LEAN_ID_BASE} + r.batch_id * 1048576 + r.position)`;

/** The lean recipient (batch, position) a MessageRecord id names, or null for a `messages` id. */
export function leanKey(id: number): { batchId: number; position: number } | null {
  if (!Number.isSafeInteger(id) || id < LEAN_ID_BASE) return null;
  const rest = id - LEAN_ID_BASE;
  return { batchId: Math.floor(rest / 1048576), position: rest % 1048576 };
}

/**
 * The columns of rows.ts's MESSAGE_COLUMNS read from a lean recipient `r` and its job `j` (LEAN_FROM):
 * what its thread row would be (the same values the triggers of migration 055 write when it moves).
 */
export const LEAN_COLUMNS =
  `${LEAN_ID_SQL} AS id, 0 AS conversation_id, 'out' AS direction, j.kind AS kind, r.peer AS peer, ` +
  `j.content ->> '$.replyTo' AS local, r.text AS text, j.created_at AS created_at, r.status AS status, ` +
  'r.job_id AS job_id, r.batch_id AS batch_id, r.position AS position, r.message_identifier AS message_identifier, ' +
  'r.report AS report, r.report_text AS report_text, r.classification AS classification, r.sent_at AS sent_at, ' +
  'r.answered_at AS answered_at, r.receipt_report AS receipt_report, r.receipt_at AS receipt_at, ' +
  'NULL AS sent_timestamp, NULL AS gateway_id, NULL AS dedupe_key, 1 AS read, r.automatic AS automatic, ' +
  'j.label AS label';
export const LEAN_FROM = 'outbox_recipients r JOIN outbox_jobs j ON j.id = r.job_id';

/** A batch's recipients written as rows (its `messages` rows and its lean rows), in no order. */
const BATCH_ROWS = `SELECT id, position, peer, sent_at FROM messages WHERE batch_id = ?1
  UNION ALL SELECT NULL, position, peer, sent_at FROM outbox_recipients WHERE batch_id = ?1`;

/**
 * A batch's recipients, both tables, in SendTo order: a `messages` row (its id) or a lean one (id
 * null, its key the batch and position).
 */
export const BATCH_RECIPIENTS = `${BATCH_ROWS}
  UNION ALL ${PENDING_LEAN_ARM('NULL, r.position, r.peer, r.sent_at')} ORDER BY position`;

/**
 * The outbound recipients of the jobs whose id is `jobIs` (an SQL condition, e.g. '= ?1'), each
 * read as `columns` of `r`: its `messages` rows, its lean rows and the numbers still in its batches'
 * values (migration 059), in no order.
 */
export function jobRecipientsSql(columns: string, jobIs: string): string {
  return `SELECT ${columns} FROM messages r WHERE r.job_id ${jobIs} AND r.direction = 'out'
  UNION ALL SELECT ${columns} FROM outbox_batches b JOIN outbox_recipients r ON r.batch_id = b.id
   WHERE b.job_id ${jobIs}
  UNION ALL SELECT ${columns} FROM outbox_lean_pending r WHERE r.job_id ${jobIs}`;
}

/** A batch's recipients as BATCH_RECIPIENTS gives them. */
export interface BatchRecipient {
  id: number | null;
  position: number;
  peer: string;
  sent_at: number | null;
}

/**
 * A batch's recipients in SendTo order, by index: its numbers, their positions, the `messages` row
 * of each (null for a lean one) and its send time. Arrays rather than an object per recipient: a
 * claimed batch's recipients are held until its answer is stored, a request later (issue 27 item 6).
 */
export interface BatchRecipients {
  peers: string[];
  positions: number[];
  ids: Array<number | null>;
  sentAt: Array<number | null>;
}

/** Recipients read as rows (BatchRecipient, in SendTo order) as BatchRecipients. */
function byIndex(rows: readonly BatchRecipient[]): BatchRecipients {
  return {
    peers: rows.map((r) => r.peer),
    positions: rows.map((r) => r.position),
    ids: rows.map((r) => r.id),
    sentAt: rows.map((r) => r.sent_at),
  };
}

/** A batch's recipients as BATCH_RECIPIENTS reads them (both tables and its value). */
export function batchRecipients(db: DatabaseSync, batchId: number): BatchRecipients {
  return byIndex(rowsAs<BatchRecipient>(stmt(db, BATCH_RECIPIENTS).all(batchId)));
}

/**
 * A claimed batch's recipients as BATCH_RECIPIENTS gives them, its value (`lean`, the row just
 * claimed) parsed here rather than walked by SQL and handed over row by row (~70 ms per 100,000).
 */
export function claimedRecipients(
  db: DatabaseSync,
  batchId: number,
  lean: string | null | undefined,
  sentAt: number | null,
): BatchRecipients {
  const rows = rowsAs<BatchRecipient>(stmt(db, BATCH_ROWS).all(batchId));
  if (lean === null || lean === undefined) return byIndex(rows.sort((a, b) => a.position - b.position));
  const value = JSON.parse(lean) as Array<string | null>;
  if (rows.length > 0) {
    for (const [position, peer] of value.entries())
      if (peer !== null) rows.push({ id: null, position, peer, sent_at: sentAt });
    return byIndex(rows.sort((a, b) => a.position - b.position));
  }
  const peers: string[] = [];
  const positions: number[] = [];
  for (let position = 0; position < value.length; position++) {
    const peer = value[position];
    if (peer === null || peer === undefined) continue;
    peers.push(peer);
    positions.push(position);
  }
  const ids = new Array<number | null>(peers.length).fill(null);
  return { peers, positions, ids, sentAt: new Array<number | null>(peers.length).fill(sentAt) };
}

/**
 * Every recipient of the batch set to `status` with the reason and time (unknown, rejected): its
 * `messages` rows, and its lean ones written from the batch's value (./outbox-pending.ts).
 */
export function closeBatchRecipients(
  db: DatabaseSync,
  batchId: number,
  status: 'unknown' | 'rejected',
  reason: string,
  at: number,
): void {
  stmt(db, 'UPDATE messages SET status = ?, report_text = ?, answered_at = ? WHERE batch_id = ?').run(
    status,
    reason,
    at,
    batchId,
  );
  closeLeanValue(db, batchId, status, reason, at);
}

/**
 * The answers of a batch's lean recipients, gathered by outcome as recordResults reads them, then
 * written once (their numbers were the batch's value, ./outbox-pending.ts): one statement per
 * distinct outcome (a whole batch accepted is one), each of its recipients' position, number and
 * MessageIdentifier bound as values (./outbox-pending.ts insertAnswered). Taking the numbers from the
 * value and the identifiers from a list by position cost ~1.6× as much as one JSON list of them
 * (~190 ms of CPU per 100,000); a statement per row more again.
 */
export class LeanAnswers {
  readonly #groups = new Map<string, AnsweredGroup>();
  /** The group of the recipient added last (a batch's answers mostly share one outcome). */
  #last: AnsweredGroup | null = null;

  add(
    position: number,
    peer: string,
    messageIdentifier: string | null,
    status: string,
    report: string | null,
    reportText: string | null,
    classification: string | null,
  ): void {
    let g = this.#last;
    if (
      g === null ||
      g.status !== status ||
      g.report !== report ||
      g.reportText !== reportText ||
      g.classification !== classification
    ) {
      const key = `${status}\u0000${report ?? '\u0001'}\u0000${reportText ?? '\u0001'}\u0000${classification ?? '\u0001'}`;
      g = this.#groups.get(key) ?? null;
      if (g === null) {
        g = { status, report, reportText, classification, rows: [] };
        this.#groups.set(key, g);
      }
      this.#last = g;
    }
    g.rows.push(position, peer, messageIdentifier);
  }

  /**
   * The rows written, and counted by status (`outbox_lean_counts`) from how many rows each statement
   * inserted: one upsert per status, where counting the batch's rows again by SQL cost ~14 ms per
   * 100,000 (test/unit/store/lean-invariants.test.ts: the counts equal the rows).
   */
  store(db: DatabaseSync, batchId: number, at: number): void {
    for (const [status, n] of insertAnswered(db, batchId, at, this.#groups.values()))
      countLean(db, batchId, status, n);
  }
}

/** The newest lean recipient with this MessageIdentifier: its key, or undefined. */
export function leanByIdentifier(
  db: DatabaseSync,
  messageIdentifier: string,
): { batch_id: number; position: number } | undefined {
  return rowAs<{ batch_id: number; position: number }>(stmt(db, LEAN_BY_IDENTIFIER).get(messageIdentifier));
}
/** Its statement: the table's MessageIdentifier index only (a number in a batch's value has none). */
export const LEAN_BY_IDENTIFIER =
  'SELECT batch_id, position FROM outbox_recipients WHERE message_identifier = ? ORDER BY batch_id DESC LIMIT 1';

/** A lean recipient as a message row (LEAN_COLUMNS), or undefined. */
export function leanMessage(db: DatabaseSync, batchId: number, position: number): MessageRow | undefined {
  return rowAs<MessageRow>(
    stmt(db, `SELECT ${LEAN_COLUMNS} FROM ${LEAN_FROM} WHERE r.batch_id = ? AND r.position = ?`).get(
      batchId,
      position,
    ),
  );
}

/**
 * A job's lean recipients' counts by status, O(batches): a batch still 'pending' or 'sending' holds
 * them in its value (migration 059), all with its state, counted by its `lean_count`; an ended
 * batch's rows by `outbox_lean_counts` (written with them, kept by triggers). The progress events
 * read this while a campaign is sent (main/services/send-progress.ts): reading every row's status
 * cost ~10-17 ms per 100,000 each time.
 */
export function leanCounts(db: DatabaseSync, jobId: number): Array<{ status: string; n: number }> {
  return rowsAs<{ status: string; n: number }>(stmt(db, LEAN_COUNTS).all(jobId));
}
export const LEAN_COUNTS = `SELECT state AS status, sum(lean_count) AS n FROM outbox_batches
   WHERE job_id = ?1 AND lean IS NOT NULL GROUP BY state
  UNION ALL
  SELECT c.status, sum(c.n) AS n FROM outbox_batches b JOIN outbox_lean_counts c ON c.batch_id = b.id
   WHERE b.job_id = ?1 GROUP BY c.status`;
