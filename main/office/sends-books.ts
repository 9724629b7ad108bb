// Sends shared between desks (issue 28, docs/OFFICE.md "Sends"): the parts of a send that have no
// recipient rows — a batch that carried a server address book or the first request's Cc/Bcc
// (issue 16, store/outbox-extras.ts) — kept as batch-level records (app migration 052), so that a
// send to books only, or the book and Cc/Bcc parts of a send, appear at every desk with their reach,
// state and what the gateway answered for them.
//
// - This desk's: TEMP triggers (created with the journal's, SendsLocal.watchJournal) note every such
//   batch the journal writes or changes in office_batch_changes, in the journal's own transaction;
//   `changes` reads them with the batch as the store gives it now (store.outbox.batch).
// - Other desks': office_send_batches, one row per batch as its desk last shared it (the columns of
//   outbox_batches, so the store's own `toBatch` reads it). They are no rows of outbox_batches: the
//   journal of this desk never sees them, so nothing of them can be claimed, sent or recovered here.
import type { AppDb } from '../store/db.ts';
import { rowAs, rowsAs, toBatch } from '../store/rows.ts';
import type { BatchRow } from '../store/rows.ts';
import { stmt } from '../../storage/sqlite.ts';
import type { OutboxBatch, UnknownCause } from '../../preload/api.ts';

/** A book / Cc/Bcc batch of a send as the office database keeps it. */
export interface SharedBatch {
  sendUid: string;
  seq: number;
  state: string;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  reason: string | null;
  unknownCause: string | null;
  /** The batch's extra form fields (SendToAddressBook, SendCc, …), JSON. */
  fields: string;
  reach: number | null;
  answered: number | null;
  accepted: number | null;
  rejected: number | null;
  /** The sending desk's change counter: an older write never replaces a newer one. */
  version: number;
}

/** The batch columns whose change is shared (the `answer` held meanwhile is not). */
const WATCHED =
  'state, started_at, finished_at, reason, unknown_cause, extra_answered, extra_accepted, extra_rejected';

/** The TEMP triggers that queue this desk's book / Cc/Bcc batches (office mode only). */
export const BOOK_TRIGGERS = `
  CREATE TEMP TRIGGER IF NOT EXISTS office_batch_journaled AFTER INSERT ON main.outbox_batches
    WHEN NEW.extra_fields IS NOT NULL
    BEGIN INSERT INTO main.office_batch_changes (batch_id) VALUES (NEW.id); END;
  CREATE TEMP TRIGGER IF NOT EXISTS office_batch_changed AFTER UPDATE OF ${WATCHED} ON main.outbox_batches
    WHEN NEW.extra_fields IS NOT NULL
    BEGIN INSERT INTO main.office_batch_changes (batch_id) VALUES (NEW.id); END;`;

/** This desk's queued batch changes, each batch as the store gives it now (several changes: one write). */
export function bookChanges(
  app: AppDb,
  limit: number,
  batchOf: (id: number) => OutboxBatch | null,
): { upTo: number; batches: Array<{ batch: OutboxBatch; version: number }> } | null {
  const rows = rowsAs<{ seq: number; batch_id: number }>(
    stmt(app.db, 'SELECT seq, batch_id FROM office_batch_changes ORDER BY seq LIMIT ?').all(limit),
  );
  const last = rows.at(-1);
  if (last === undefined) return null;
  const version = new Map<number, number>();
  for (const r of rows) version.set(r.batch_id, r.seq);
  const batches: Array<{ batch: OutboxBatch; version: number }> = [];
  for (const [id, v] of version) {
    const batch = batchOf(id);
    if (batch?.extras) batches.push({ batch, version: v });
  }
  return { upTo: last.seq, batches };
}

export function booksWritten(app: AppDb, seq: number): void {
  stmt(app.db, 'DELETE FROM office_batch_changes WHERE seq <= ?').run(seq);
}

export function booksPending(app: AppDb): number {
  return rowAs<{ n: number }>(stmt(app.db, 'SELECT count(*) AS n FROM office_batch_changes').get())?.n ?? 0;
}

export const hasBooksPending = (app: AppDb): boolean =>
  stmt(app.db, 'SELECT 1 AS n FROM office_batch_changes LIMIT 1').get() !== undefined;

/** This desk's batch as shared. */
export function toSharedBatch(sendUid: string, b: OutboxBatch, version: number): SharedBatch {
  const x = b.extras;
  return {
    sendUid,
    seq: b.seq,
    state: b.state,
    createdAt: b.createdAt,
    startedAt: b.startedAt,
    finishedAt: b.finishedAt,
    reason: b.reason,
    unknownCause: b.unknownCause,
    fields: JSON.stringify(x?.fields ?? {}),
    reach: x?.reach ?? null,
    answered: x?.answered ?? null,
    accepted: x?.accepted ?? null,
    rejected: x?.rejected ?? null,
    version,
  };
}

/** Another desk's batches as it last shared them, written over. Call inside a transaction. */
export function putBooks(app: AppDb, jobId: number, batches: readonly SharedBatch[]): void {
  const put = stmt(
    app.db,
    `INSERT INTO office_send_batches (job_id, seq, state, created_at, started_at, finished_at, reason,
            unknown_cause, extra_fields, reach, extra_answered, extra_accepted, extra_rejected)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (job_id, seq) DO UPDATE SET state = excluded.state, started_at = excluded.started_at,
            finished_at = excluded.finished_at, reason = excluded.reason, unknown_cause = excluded.unknown_cause,
            extra_fields = excluded.extra_fields, reach = excluded.reach, extra_answered = excluded.extra_answered,
            extra_accepted = excluded.extra_accepted, extra_rejected = excluded.extra_rejected`,
  );
  for (const b of batches)
    put.run(
      jobId,
      b.seq,
      b.state,
      b.createdAt,
      b.startedAt,
      b.finishedAt,
      b.reason,
      b.unknownCause,
      b.fields,
      b.reach,
      b.answered,
      b.accepted,
      b.rejected,
    );
}

/** Another desk's send's book / Cc/Bcc batches, in its order (no numbers: they are its recipients). */
export function booksOf(app: AppDb, jobId: number): OutboxBatch[] {
  return rowsAs<BatchRow>(
    stmt(app.db, 'SELECT * FROM office_send_batches WHERE job_id = ? ORDER BY seq').all(jobId),
  ).map((r) => toBatch(r, []));
}

/**
 * What another desk's send reaches through books and Cc/Bcc (as OutboxJob.extraReach: absent
 * without any, null when one was not sized) and why its unknown ones are unknown.
 */
export function booksSummary(
  app: AppDb,
  jobId: number,
): { extraReach?: number | null; unknownCauses: UnknownCause[] } {
  const x = rowAs<{ n: number; reach: number | null; sized: number }>(
    stmt(
      app.db,
      'SELECT count(*) AS n, sum(reach) AS reach, count(reach) AS sized FROM office_send_batches WHERE job_id = ?',
    ).get(jobId),
  );
  if (!x || x.n === 0) return { unknownCauses: [] };
  const unknownCauses = rowsAs<{ cause: UnknownCause }>(
    stmt(
      app.db,
      `SELECT coalesce(unknown_cause, 'failed') AS cause FROM office_send_batches
        WHERE job_id = ? AND state = 'unknown' GROUP BY cause ORDER BY count(*) DESC, cause`,
    ).all(jobId),
  ).map((r) => r.cause);
  return { extraReach: x.sized === x.n ? (x.reach ?? 0) : null, unknownCauses };
}
