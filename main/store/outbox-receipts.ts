// Delivery receipts of the outbox journal (./outbox-journal.ts): a receipt (SubmitDeliveryReceipt)
// sets its recipient's status to delivered or failed. A receipt can arrive before the send's answer
// that names its MessageIdentifier is recorded (the push receiver is faster than the sending loop):
// it is kept in early_receipts and applied when recordResults records that batch.
// A multi-part message gets a receipt per part, all with its MessageIdentifier and in any order
// (the gateway pushes several at a time): one part not delivered leaves the message failed, so a
// delivered receipt does not overwrite a failed one (KEEPS_FAILURE, in both paths below).
import { classifyReport } from '../../protocol/reports.ts';
import type { AppDb } from './db.ts';
import { MESSAGE_COLUMNS, rowAs, rowsAs, toMessage } from './rows.ts';
import { stmt } from '../../storage/sqlite.ts';
import type { MessageRow } from './rows.ts';
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
    const row = rowAs<{ id: number }>(
      stmt(
        app.db,
        `SELECT id FROM messages WHERE message_identifier = ? AND direction = 'out' ORDER BY id DESC LIMIT 1`,
      ).get(receipt.messageIdentifier),
    );
    const report = receipt.report.trim();
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
    const status = statusOfReceipt(report);
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
  const early = rowsAs<{ id: number; message_identifier: string; report: string; receipt_at: number }>(
    stmt(
      app.db,
      `SELECT e.id, e.message_identifier, e.report, e.receipt_at FROM early_receipts e
         JOIN messages m ON m.message_identifier = e.message_identifier
        WHERE m.batch_id = ? ORDER BY e.id`,
    ).all(batchId),
  );
  const apply = stmt(
    app.db,
    `UPDATE messages SET status = ?, receipt_report = ?, receipt_at = ?
      WHERE batch_id = ? AND message_identifier = ? AND direction = 'out' AND ${KEEPS_FAILURE}`,
  );
  const drop = stmt(app.db, 'DELETE FROM early_receipts WHERE id = ?');
  for (const e of early) {
    const status = statusOfReceipt(e.report);
    apply.run(status, e.report, e.receipt_at, batchId, e.message_identifier, status);
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
