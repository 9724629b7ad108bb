// Delivery receipts of the outbox journal (./outbox-journal.ts): a receipt (SubmitDeliveryReceipt)
// sets its recipient's status to delivered or failed. A receipt can arrive before the send's answer
// that names its MessageIdentifier is recorded (the push receiver is faster than the sending loop):
// it is kept in early_receipts and applied when recordResults records that batch.
// A multi-part message gets a receipt per part, all with its MessageIdentifier and in any order
// (the gateway pushes several at a time): one part not delivered leaves the message failed, so a
// delivered receipt does not overwrite a failed one (KEEPS_FAILURE, in both paths below).
// Issue 27 item 6: a recipient is a `messages` row or a lean one (./outbox-lean.ts); both are looked
// up by MessageIdentifier, the newer (greater batch) taken when both have it.
import { classifyReport } from '../../protocol/reports.ts';
import type { AppDb } from './db.ts';
import { MESSAGE_COLUMNS, rowAs, rowsAs, toMessage } from './rows.ts';
import { stmt } from '../../storage/sqlite.ts';
import type { MessageRow } from './rows.ts';
import { leanByIdentifier, leanMessage } from './outbox-lean.ts';
import type { DeliveryReceiptInput, MessageRecord, OutboundStatus } from '../../domain/index.ts';

/** How long a receipt waits for its MessageIdentifier to be recorded. */
const EARLY_RECEIPT_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * The condition under which a receipt whose status is the bound parameter changes a row: anything
 * but a delivered receipt over a receipt that said a part was not delivered.
 */
const KEEPS_FAILURE = "(? = 'failed' OR receipt_report IS NULL OR status <> 'failed')";

/** MESSAGE_COLUMNS as a RETURNING clause names them (unqualified). */
const RETURNED_COLUMNS = MESSAGE_COLUMNS.replace(/\bm\./g, '');

/** A delivery receipt's effect: an error report means the handset was not reached. */
export function statusOfReceipt(report: string): OutboundStatus {
  return classifyReport(report) === 'error' ? 'failed' : 'delivered';
}

/**
 * Record a receipt for the newest outbound message with its MessageIdentifier and return that
 * message; for an identifier not recorded yet, keep the receipt and return null.
 */
export function recordReceipt(app: AppDb, receipt: DeliveryReceiptInput, now: number): MessageRecord | null {
  return app.transaction(() => {
    const row = rowAs<{ id: number; batch_id: number | null }>(
      stmt(
        app.db,
        // By batch, newest first, as the lean rows below: a lean row moved into `messages` since (a
        // reply) has a new id, greater than those of newer sends' rows (identifiers can come again).
        `SELECT id, batch_id FROM messages WHERE message_identifier = ? AND direction = 'out'
          ORDER BY batch_id DESC, id DESC LIMIT 1`,
      ).get(receipt.messageIdentifier),
    );
    const lean = leanByIdentifier(app.db, receipt.messageIdentifier);
    const report = receipt.report.trim();
    const status = statusOfReceipt(report);
    if (lean && (!row || (row.batch_id ?? 0) < lean.batch_id)) {
      stmt(
        app.db,
        `UPDATE outbox_recipients SET status = ?, receipt_report = ?, receipt_at = ?
          WHERE batch_id = ? AND position = ? AND ${KEEPS_FAILURE}`,
      ).run(status, report, receipt.at ?? now, lean.batch_id, lean.position, status);
      const m = leanMessage(app.db, lean.batch_id, lean.position);
      return m ? toMessage(m) : null;
    }
    if (!row) {
      // Receipts for identifiers that never show up (sent by another client of the account)
      // are not kept for ever.
      stmt(app.db, 'DELETE FROM early_receipts WHERE received_at < ?').run(now - EARLY_RECEIPT_TTL_MS);
      stmt(
        app.db,
        'INSERT INTO early_receipts (message_identifier, report, receipt_at, received_at) VALUES (?, ?, ?, ?)',
      ).run(receipt.messageIdentifier, report, receipt.at ?? now, now);
      return null;
    }
    // Issue 27: one statement writes the receipt and gives the message back (a campaign's receipts
    // arrive by the thousand while it is being sent).
    const updated =
      rowAs<MessageRow>(
        stmt(
          app.db,
          `UPDATE messages SET status = ?, receipt_report = ?, receipt_at = ?
            WHERE id = ? AND ${KEEPS_FAILURE} RETURNING ${RETURNED_COLUMNS}`,
        ).get(status, report, receipt.at ?? now, row.id, status),
      ) ??
      // a delivered part of a message with a part not delivered: the message stays as it is
      rowAs<MessageRow>(stmt(app.db, `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.id = ?`).get(row.id));
    return updated ? toMessage(updated) : null;
  });
}

/**
 * Apply (in arrival order) and drop the receipts that came before this batch's answer; how many.
 * Issue 27: with no early receipt at all (the usual case) the batch's 350 rows are not joined.
 */
export function applyEarlyReceipts(app: AppDb, batchId: number): number {
  if (stmt(app.db, 'SELECT 1 FROM early_receipts LIMIT 1').get() === undefined) return 0;
  // The batch's recipients in both tables (a lean one is a recipient with no listed conversation).
  const early = rowsAs<{ id: number; message_identifier: string; report: string; receipt_at: number }>(
    stmt(
      app.db,
      `SELECT e.id, e.message_identifier, e.report, e.receipt_at FROM early_receipts e
        WHERE e.message_identifier IN (SELECT message_identifier FROM messages WHERE batch_id = ?1
                                       UNION ALL SELECT message_identifier FROM outbox_recipients WHERE batch_id = ?1)
        ORDER BY e.id`,
    ).all(batchId),
  );
  const apply = stmt(
    app.db,
    `UPDATE messages SET status = ?, receipt_report = ?, receipt_at = ?
      WHERE batch_id = ? AND message_identifier = ? AND direction = 'out' AND ${KEEPS_FAILURE}`,
  );
  const applyLean = stmt(
    app.db,
    `UPDATE outbox_recipients SET status = ?, receipt_report = ?, receipt_at = ?
      WHERE batch_id = ? AND message_identifier = ? AND ${KEEPS_FAILURE}`,
  );
  const drop = stmt(app.db, 'DELETE FROM early_receipts WHERE id = ?');
  for (const e of early) {
    const status = statusOfReceipt(e.report);
    apply.run(status, e.report, e.receipt_at, batchId, e.message_identifier, status);
    applyLean.run(status, e.report, e.receipt_at, batchId, e.message_identifier, status);
    drop.run(e.id);
  }
  return early.length;
}

/**
 * Issue 27 item 6: receipts pushed together (what the push receiver read in one turn of the event
 * loop) recorded in one transaction, each by `record` in a savepoint of its own: one that fails
 * leaves the others recorded. Per receipt: its message, null (kept as early), or the error it failed
 * with. A commit that fails throws: none of them is recorded then.
 */
export function recordReceipts(
  app: AppDb,
  receipts: readonly DeliveryReceiptInput[],
  record: (receipt: DeliveryReceiptInput) => MessageRecord | null,
): Array<MessageRecord | null | Error> {
  return app.transaction(() =>
    receipts.map((r) => {
      try {
        return app.transaction(() => record(r));
      } catch (err) {
        return err instanceof Error ? err : new Error(String(err));
      }
    }),
  );
}
