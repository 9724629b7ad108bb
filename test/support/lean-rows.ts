// Issue 27 item 6: a send's recipients written straight into the journal's lean table
// (outbox_recipients, app migration 055) with the values a test chooses, as the journal writes them
// (a job, its batches, a row per recipient, no `messages` row, no conversation): what the migration's
// triggers and the other readers of the table (salvage, office sharing) are tested on.
import type { AppDb } from '../../main/store/db.ts';
import { contentLabel } from '../../protocol/content-label.ts';
import { recountLean } from '../../main/store/outbox-pending.ts';
import type { OutboxContent } from '../../preload/api.ts';

export interface LeanRecipient {
  peer: string;
  status?: string;
  messageIdentifier?: string | null;
  report?: string | null;
  receiptReport?: string | null;
  receiptAt?: number | null;
  sentAt?: number | null;
  answeredAt?: number | null;
  /** Its own text (a mail merge); the job's by default. */
  text?: string;
}

/**
 * A job of `accountId` ('' none) made at `at` with `content`, its recipients in batches of
 * `batchSize`, all in the lean table. Its job id and batch ids.
 */
export function putLeanJob(
  app: AppDb,
  args: {
    accountId: string | null;
    at: number;
    content: OutboxContent;
    recipients: readonly LeanRecipient[];
    batchSize?: number;
  },
): { jobId: number; batchIds: number[] } {
  const size = args.batchSize ?? 350;
  return app.transaction(() => {
    const db = app.db;
    const job = db
      .prepare(
        `INSERT INTO outbox_jobs (created_at, kind, text, content, account_id, label)
         VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .get(
        args.at,
        args.content.kind,
        args.content.text,
        JSON.stringify(args.content),
        args.accountId,
        contentLabel(args.content),
      ) as { id: number };
    const batchIds: number[] = [];
    const put = db.prepare(
      `INSERT INTO outbox_recipients (batch_id, position, job_id, account_id, peer, text, status,
              message_identifier, report, sent_at, answered_at, receipt_report, receipt_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // where each number is found when listed (app migration 059), as the journal writes it
    // (a file of an older schema has no such table)
    // (migration 060 keys it by number and batch: no account)
    const columns = (
      db.prepare("SELECT name FROM pragma_table_info('outbox_lean_peers')").all() as Array<{
        name: string;
      }>
    ).map((c) => c.name);
    const where =
      columns.length === 0
        ? { run: () => undefined }
        : columns.includes('account_id')
          ? db.prepare(
              'INSERT INTO outbox_lean_peers (account_id, peer, batch_id, position) VALUES (?, ?, ?, ?)',
            )
          : {
              run: (_account: string, peer: string, batch: number, position: number) =>
                db
                  .prepare('INSERT INTO outbox_lean_peers (peer, batch_id, position) VALUES (?, ?, ?)')
                  .run(peer, batch, position),
            };
    for (let start = 0, seq = 1; start < args.recipients.length; start += size, seq++) {
      const batch = db
        .prepare(
          "INSERT INTO outbox_batches (job_id, seq, state, created_at) VALUES (?, ?, 'accepted', ?) RETURNING id",
        )
        .get(job.id, seq, args.at) as { id: number };
      batchIds.push(batch.id);
      args.recipients.slice(start, start + size).forEach((r, position) => {
        where.run(args.accountId ?? '', r.peer, batch.id, position);
        put.run(
          batch.id,
          position,
          job.id,
          args.accountId ?? '',
          r.peer,
          r.text ?? args.content.text,
          r.status ?? 'accepted',
          r.messageIdentifier ?? null,
          r.report ?? null,
          r.sentAt ?? null,
          r.answeredAt ?? null,
          r.receiptReport ?? null,
          r.receiptAt ?? null,
        );
      });
    }
    // counted as the journal counts the rows it writes (app migration 059)
    if (db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'outbox_lean_counts'").get())
      for (const id of batchIds) recountLean(db, id);
    return { jobId: job.id, batchIds };
  });
}

/** The lean recipients of `jobId`, in their order: rows, and those still in a batch's value (migration 059). */
export const leanRows = (app: AppDb, jobId: number) =>
  app.db
    .prepare(
      `SELECT r.peer, r.status, r.batch_id AS batchId, r.position FROM (
         SELECT batch_id, position, peer, status, job_id FROM outbox_recipients
         UNION ALL SELECT batch_id, position, peer, status, job_id FROM outbox_lean_pending) r
        WHERE r.job_id = ? ORDER BY r.batch_id, r.position`,
    )
    .all(jobId) as Array<{ peer: string; status: string; batchId: number; position: number }>;
