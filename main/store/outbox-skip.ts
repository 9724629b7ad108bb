// "Continue sending" (issue 12) on the outbox journal (./outbox-journal.ts, which calls it: the
// journal writes every batch state, issue 27): the recipients of a job's pending batches that opted
// out since it was journaled are never requested. Split from the journal by size.
import type { AppDb } from './db.ts';
import { StoreError } from './errors.ts';
import { rowAs, rowsAs } from './rows.ts';
import { stmt } from '../../storage/sqlite.ts';
import { BATCH_RECIPIENTS } from './outbox-lean.ts';
import { clearLeanValue, dropFromValue, recountLean } from './outbox-pending.ts';

export const OPTED_OUT_REASON = 'not sent: the number opted out after the send was journaled';

/** Splits numbers into those that may be sent to and those on the opt-out list. */
export type OptedOut = (numbers: readonly string[]) => { kept: string[]; skipped: string[] };

/**
 * Recipients of the job's pending batches on `isOptedOut` are never requested. A batch left with
 * only such recipients becomes 'rejected' (one with Cc/Bcc stays pending for them); otherwise they
 * move to a new 'rejected' batch of the same job (a batch's rows stay its SendTo list). Returns how
 * many. Lean recipients (issue 27 item 6, ./outbox-lean.ts) are moved by their key (batch, position).
 */
export function skipOptedOutPending(app: AppDb, jobId: number, isOptedOut: OptedOut, now: number): number {
  return app.transaction(() => {
    const pending = rowsAs<{ id: number; extra_fields: string | null }>(
      app.db
        .prepare(
          "SELECT id, extra_fields FROM outbox_batches WHERE job_id = ? AND state = 'pending' ORDER BY seq",
        )
        .all(jobId),
    );
    // A lean recipient (id null, ./outbox-lean.ts) is rejected and moved by its key (batch, position).
    const peersOf = stmt(app.db, BATCH_RECIPIENTS);
    const reject = app.db.prepare(
      "UPDATE messages SET status = 'rejected', report_text = ?, answered_at = ?, batch_id = ?, position = ? WHERE id = ?",
    );
    // A pending batch's lean recipients are in its value (migration 059): written rejected at their place.
    const rejectLean = stmt(
      app.db,
      `INSERT INTO outbox_recipients (batch_id, position, job_id, account_id, peer, text, sent_at, automatic,
                                      status, report_text, answered_at)
       SELECT ?3, ?4, job_id, account_id, peer, text, sent_at, automatic, 'rejected', ?1, ?2
         FROM outbox_lean_pending WHERE batch_id = ?5 AND position = ?6`,
    );
    // ...and where its number is found when listed (outbox_lean_peers) moves with it.
    const moveLeanPeer = stmt(
      app.db,
      'UPDATE outbox_lean_peers SET batch_id = ?1, position = ?2 WHERE peer = ?3 AND batch_id = ?4',
    );
    let skippedTotal = 0;
    let newBatch: number | null = null;
    let newPosition = 0;
    for (const b of pending) {
      const rows = rowsAs<{ id: number | null; position: number; peer: string }>(peersOf.all(b.id));
      const skipped = new Set(isOptedOut(rows.map((r) => r.peer)).skipped);
      if (skipped.size === 0) continue;
      const out = rows.filter((r) => skipped.has(r.peer));
      skippedTotal += out.length;
      // Issue 16: a batch that also carries Cc/Bcc stays pending for them, without its numbers.
      const whole = out.length === rows.length && b.extra_fields === null;
      if (whole)
        app.db
          .prepare("UPDATE outbox_batches SET state = 'rejected', finished_at = ?, reason = ? WHERE id = ?")
          .run(now, OPTED_OUT_REASON, b.id);
      else if (newBatch === null) {
        const seq =
          (rowAs<{ s: number }>(
            app.db.prepare('SELECT max(seq) AS s FROM outbox_batches WHERE job_id = ?').get(jobId),
          )?.s ?? 0) + 1;
        newBatch =
          rowAs<{ id: number }>(
            app.db
              .prepare(
                "INSERT INTO outbox_batches (job_id, seq, state, created_at, finished_at, reason) VALUES (?, ?, 'rejected', ?, ?, ?) RETURNING id",
              )
              .get(jobId, seq, now, now, OPTED_OUT_REASON),
          )?.id ?? null;
        if (newBatch === null) throw new StoreError('invalid-state', 'the skipped batch was not journaled');
      }
      for (const r of out) {
        // Rejected where it is (the whole batch), else moved to the new 'rejected' batch.
        const [batch, position] = whole || newBatch === null ? [b.id, r.position] : [newBatch, newPosition++];
        if (r.id === null) {
          rejectLean.run(OPTED_OUT_REASON, now, batch, position, b.id, r.position);
          moveLeanPeer.run(batch, position, r.peer, b.id);
        } else reject.run(OPTED_OUT_REASON, now, batch, position, r.id);
      }
      // The value keeps the numbers still to send (none when the whole batch was rejected).
      if (whole) clearLeanValue(app.db, b.id);
      else
        dropFromValue(
          app.db,
          b.id,
          out.filter((r) => r.id === null).map((r) => r.position),
        );
    }
    if (newBatch !== null) recountLean(app.db, newBatch);
    return skippedTotal;
  });
}
