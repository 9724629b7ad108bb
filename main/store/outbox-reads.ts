// The outbox journal's read side (./outbox-journal.ts extends it with the sending states): jobs,
// batches and recipients as the types of domain/, with each job's counts by status. Reads
// only; every change goes through the journal.
import type { StatementSync } from 'node:sqlite';
import type { AppDb } from './db.ts';
import { StoreError } from './errors.ts';
import { MESSAGE_COLUMNS, rowAs, rowsAs, toBatch } from './rows.ts';
import { LEAN_COLUMNS, LEAN_FROM, jobRecipientsSql, leanCounts } from './outbox-lean.ts';
import { PENDING_FROM, PENDING_LEAN_ARM } from './outbox-pending.ts';
import { stmt } from '../../storage/sqlite.ts';
import { FAILED_STATUSES, groupCounts } from '../../domain/status-groups.ts';
import type { BatchRow, MessageRow } from './rows.ts';
import type { ReportGroup } from '../../protocol/reports.ts';
import type {
  OutboundStatus,
  OutboxBatch,
  OutboxContent,
  OutboxJob,
  RecipientOutcome,
  StatusCounts,
  UnknownCause,
} from '../../domain/index.ts';

interface JobRow {
  id: number;
  created_at: number;
  content: string;
  resend_of: number | null;
  account_id: string | null;
}

/** Every status at 0 (a job's or a campaign's counts start here). */
export const EMPTY_COUNTS: StatusCounts = {
  pending: 0,
  sending: 0,
  accepted: 0,
  queued: 0,
  rejected: 0,
  unknown: 0,
  delivered: 0,
  failed: 0,
};

/** How many of `recipients` have each status. */
export function countByStatus(recipients: Iterable<{ status: OutboundStatus }>): StatusCounts {
  const counts: StatusCounts = { ...EMPTY_COUNTS };
  for (const r of recipients) counts[r.status] += 1;
  return counts;
}

export class OutboxReads {
  protected readonly app: AppDb;
  protected readonly batchRow: StatementSync;

  constructor(app: AppDb) {
    this.app = app;
    this.batchRow = app.db.prepare('SELECT * FROM outbox_batches WHERE id = ?');
  }

  job(jobId: number): OutboxJob | null {
    const row = rowAs<JobRow>(stmt(this.app.db, 'SELECT * FROM outbox_jobs WHERE id = ?').get(jobId));
    return row ? this.#toJob(row) : null;
  }

  /** Jobs, newest first. */
  jobs(args: { limit?: number; beforeId?: number } = {}): OutboxJob[] {
    const limit = Math.max(1, Math.min(500, args.limit ?? 50));
    const rows = rowsAs<JobRow>(
      this.app.db
        .prepare('SELECT * FROM outbox_jobs WHERE id < ? ORDER BY id DESC LIMIT ?')
        .all(args.beforeId ?? Number.MAX_SAFE_INTEGER, limit),
    );
    return rows.map((r) => this.#toJob(r));
  }

  batch(batchId: number): OutboxBatch | null {
    const row = rowAs<BatchRow>(this.batchRow.get(batchId));
    return row ? this.toBatch(row) : null;
  }

  /**
   * A batch as stored now, its recipients given (they never change once journaled): the sending
   * loop's progress event reads only the batch's row, not its 350 numbers again (issue 15).
   */
  batchWith(batch: Pick<OutboxBatch, 'id' | 'recipients'>): OutboxBatch | null {
    const row = rowAs<BatchRow>(this.batchRow.get(batch.id));
    return row ? toBatch(row, [...batch.recipients]) : null;
  }

  batches(jobId: number): OutboxBatch[] {
    return rowsAs<BatchRow>(
      this.app.db.prepare('SELECT * FROM outbox_batches WHERE job_id = ? ORDER BY seq').all(jobId),
    ).map((r) => this.toBatch(r));
  }

  /** Batches in 'unknown' (after a crash or a lost answer), oldest first. */
  unknownBatches(): OutboxBatch[] {
    return rowsAs<BatchRow>(
      this.app.db.prepare("SELECT * FROM outbox_batches WHERE state = 'unknown' ORDER BY id").all(),
    ).map((r) => this.toBatch(r));
  }

  /** A job's own numbers (its outbound rows' peers, lean ones too), without their outcomes. */
  numbersOf(jobId: number): Set<string> {
    return new Set(
      rowsAs<{ peer: string }>(stmt(this.app.db, jobRecipientsSql('r.peer', '= ?1')).all(jobId)).map(
        (r) => r.peer,
      ),
    );
  }

  /** Every recipient of a job with its outcome, in journal order. */
  recipients(jobId: number): RecipientOutcome[] {
    return jobRecipientRows(this.app, jobId).map((r) => toOutcome(r));
  }

  recipientsOfBatch(batchId: number): RecipientOutcome[] {
    return rowsAs<OutcomeRow>(
      stmt(
        this.app.db,
        `SELECT ${OUTCOME_COLUMNS}, m.position FROM messages m WHERE m.batch_id = ?1
         UNION ALL SELECT ${LEAN_OUTCOME_COLUMNS}, r.position FROM outbox_recipients r WHERE r.batch_id = ?1
         UNION ALL ${PENDING_LEAN_ARM(`${LEAN_OUTCOME_COLUMNS}, r.position`)}
         ORDER BY position`,
      ).all(batchId),
    ).map((r) => toOutcome(r));
  }

  protected mustBatch(batchId: number): OutboxBatch {
    const b = this.batch(batchId);
    if (!b) throw new StoreError('not-found', `no outbox batch ${batchId}`);
    return b;
  }

  protected mustJob(jobId: number): OutboxJob {
    const j = this.job(jobId);
    if (!j) throw new StoreError('not-found', `no outbox job ${jobId}`);
    return j;
  }

  protected toBatch(row: BatchRow): OutboxBatch {
    return toBatch(
      row,
      rowsAs<{ peer: string }>(stmt(this.app.db, BATCH_PEERS).all(row.id)).map((r) => r.peer),
    );
  }

  #toJob(row: JobRow): OutboxJob {
    const counts: StatusCounts = { ...EMPTY_COUNTS };
    let recipientCount = 0;
    for (const c of [
      ...rowsAs<{ status: string; n: number }>(
        stmt(this.app.db, 'SELECT status, count(*) AS n FROM messages WHERE job_id = ? GROUP BY status').all(
          row.id,
        ),
      ),
      ...leanCounts(this.app.db, row.id),
    ]) {
      if (c.status in counts) counts[c.status as OutboundStatus] += c.n;
      recipientCount += c.n;
    }
    const batchCount =
      rowAs<{ n: number }>(
        stmt(this.app.db, 'SELECT count(*) AS n FROM outbox_batches WHERE job_id = ?').get(row.id),
      )?.n ?? 0;
    const extra = rowAs<{ n: number; reach: number | null; sized: number }>(
      stmt(
        this.app.db,
        'SELECT count(*) AS n, sum(reach) AS reach, count(reach) AS sized FROM outbox_batches WHERE job_id = ? AND extra_fields IS NOT NULL',
      ).get(row.id),
    );
    const retried = groupCounts(counts).failed > 0 ? failedRetried(this.app, row.id) : 0;
    // Issue 25: why its unknown batches are unknown, the cause of the most batches first.
    const unknownCauses =
      counts.unknown > 0 || (extra?.n ?? 0) > 0
        ? rowsAs<{ cause: UnknownCause }>(
            stmt(
              this.app.db,
              `SELECT coalesce(b.unknown_cause, 'failed') AS cause FROM outbox_batches b
                WHERE b.job_id = ? AND b.state = 'unknown'
                GROUP BY cause ORDER BY count(*) DESC, cause`,
            ).all(row.id),
          ).map((r) => r.cause)
        : [];
    return {
      id: row.id,
      createdAt: row.created_at,
      content: JSON.parse(row.content) as OutboxContent,
      resendOf: row.resend_of,
      accountId: row.account_id,
      recipientCount,
      batchCount,
      counts,
      ...(extra && extra.n > 0 ? { extraReach: extra.sized === extra.n ? (extra.reach ?? 0) : null } : {}),
      ...(retried > 0 ? { failedRetried: retried } : {}),
      unknownCauses,
    };
  }
}

/** A batch's numbers in SendTo order: its `messages` rows and its lean ones (./outbox-lean.ts). */
export const BATCH_PEERS = `SELECT peer, position FROM messages WHERE batch_id = ?1
  UNION ALL SELECT peer, position FROM outbox_recipients WHERE batch_id = ?1
  UNION ALL ${PENDING_LEAN_ARM('r.peer, r.position')} ORDER BY position`;

/**
 * Every recipient of a job as message rows (its `messages` rows and its lean ones, LEAN_COLUMNS), in
 * journal order (batch, position).
 */
export function jobRecipientRows(app: AppDb, jobId: number): MessageRow[] {
  return rowsAs<MessageRow>(
    stmt(
      app.db,
      `SELECT ${MESSAGE_COLUMNS}, b.seq AS seq FROM messages m JOIN outbox_batches b ON b.id = m.batch_id
        WHERE b.job_id = ?1 AND m.direction = 'out'
       UNION ALL SELECT ${LEAN_COLUMNS}, b.seq AS seq FROM outbox_batches b CROSS JOIN ${LEAN_FROM}
        WHERE b.job_id = ?1 AND r.batch_id = b.id
       UNION ALL SELECT ${LEAN_COLUMNS}, b.seq AS seq FROM outbox_batches b CROSS JOIN ${PENDING_FROM}
        WHERE b.job_id = ?1 AND r.batch_id = b.id
       ORDER BY seq, position`,
    ).all(jobId),
  );
}

/** The failed group's statuses as an SQL list (constants of domain/status-groups.ts, never user input). */
const FAILED_IN = FAILED_STATUSES.map((s) => `'${s}'`).join(', ');

/**
 * Issue 26: how many of a send's failed recipients (rejected or failed) a later send of its
 * campaign (the first send and its resends, outbox_jobs.resend_of) tried again. Their latest
 * attempt is that later one, so History counts them failed there, not here. Job ids grow with
 * time: a later attempt is a row (`messages` or lean) of a job of the same campaign with a greater
 * id, to the same number (a campaign's sends are all its account's: the number is the conversation).
 */
export function failedRetried(app: AppDb, jobId: number): number {
  return (
    rowAs<{ n: number }>(
      stmt(
        app.db,
        `WITH RECURSIVE up(id, parent) AS (
           SELECT id, resend_of FROM outbox_jobs WHERE id = ?1
           UNION ALL SELECT j.id, j.resend_of FROM outbox_jobs j JOIN up ON j.id = up.parent),
         tree(id) AS (
           SELECT id FROM up WHERE parent IS NULL
           UNION SELECT j.id FROM outbox_jobs j JOIN tree t ON j.resend_of = t.id),
         later(peer) AS (${jobRecipientsSql('r.peer', 'IN (SELECT id FROM tree WHERE id > ?1)')}),
         failed(peer) AS (
           SELECT m.peer FROM messages m
            WHERE m.job_id = ?1 AND m.direction = 'out' AND m.status IN (${FAILED_IN})
           UNION ALL SELECT r.peer FROM outbox_batches b JOIN outbox_recipients r ON r.batch_id = b.id
            WHERE b.job_id = ?1 AND r.status IN (${FAILED_IN}))
         SELECT count(*) AS n FROM failed WHERE peer IN (SELECT peer FROM later)`,
      ).get(jobId),
    )?.n ?? 0
  );
}

/**
 * Issue 17: an accepted recipient without a delivery receipt this long after the send is shown as
 * "no receipt yet" rather than left "accepted" as if nothing were missing (receipts can be lost).
 */
export const RECEIPT_OVERDUE_MS = 60 * 60 * 1000;

/** The columns an outcome is made of (issue 15: a batch's outcomes read only these). */
export const OUTCOME_COLUMNS =
  'm.peer, m.status, m.message_identifier, m.report, m.report_text, m.classification, m.receipt_report, ' +
  'm.receipt_at, m.sent_at';
const LEAN_OUTCOME_COLUMNS = OUTCOME_COLUMNS.replace(/\bm\./g, 'r.');
type OutcomeRow = Pick<
  MessageRow,
  | 'peer'
  | 'status'
  | 'message_identifier'
  | 'report'
  | 'report_text'
  | 'classification'
  | 'receipt_report'
  | 'receipt_at'
  | 'sent_at'
>;

export function toOutcome(row: OutcomeRow, now = Date.now()): RecipientOutcome {
  return {
    receiptOverdue:
      row.status === 'accepted' &&
      row.receipt_report === null &&
      row.sent_at !== null &&
      now - row.sent_at > RECEIPT_OVERDUE_MS,
    to: row.peer,
    status: row.status as OutboundStatus,
    messageIdentifier: row.message_identifier,
    report: row.report,
    reportText: row.report_text,
    classification: row.classification as ReportGroup | null,
    receiptReport: row.receipt_report,
    receiptAt: row.receipt_at,
  };
}

// Campaigns (./outbox-campaigns.ts) are read here too: the journal and the campaigns both need
// them, and the campaigns build on the journal (issue 27: no import circle between the two).
/** A send to more than one recipient, or through a server book or Cc/Bcc: no Inbox conversations. */
export const isCampaign = (job: OutboxJob): boolean => job.recipientCount > 1 || job.extraReach !== undefined;

/** The first send of the campaign `jobId` belongs to (itself when it is no resend). */
export function campaignRoot(app: AppDb, jobId: number): number {
  let id = jobId;
  for (let depth = 0; depth < 10_000; depth++) {
    const row = rowAs<{ resend_of: number | null }>(
      app.db.prepare('SELECT resend_of FROM outbox_jobs WHERE id = ?').get(id),
    );
    if (!row) {
      if (id === jobId) throw new StoreError('not-found', `no outbox job ${jobId}`);
      return id;
    }
    if (row.resend_of === null) return id;
    id = row.resend_of;
  }
  return id;
}
