// The office database's feed of sends (issue 28, migration 002): each desk writes its own sends and
// their recipients' states (`pushSends`, idempotent: a send by uid, a recipient by send and number,
// an older version never over a newer one) and every desk follows the account's recipient changes
// in `change` order (`pullSendChanges`), reading the sends it does not hold yet (`sendsByUid`).
// A whole batch is one statement (unnest of arrays, as feed.ts writes replies): a send to 100,000
// numbers is a few dozen statements, not 100,000. Writers take the feed writers' advisory lock, so
// `change` values commit in order and a desk's cursor never passes a change still to commit.
import type { ClientBase } from 'pg';
import { FEED_LOCK, OFFICE_CHANNEL } from './feed.ts';
import type { SharedReceipt, SharedRecipient, SharedSend } from './sends-local.ts';

export interface SendsWrite {
  account: string;
  sends: readonly SharedSend[];
  recipients: readonly SharedRecipient[];
}

/** Writes a desk's sends and recipient states in one transaction; repeats change nothing. */
export async function pushSends(c: ClientBase, desk: string, writes: readonly SendsWrite[]): Promise<void> {
  await c.query('BEGIN');
  try {
    await c.query('SELECT pg_advisory_xact_lock($1)', [FEED_LOCK.toString()]);
    for (const w of writes) {
      if (w.sends.length > 0)
        await c.query(
          `INSERT INTO sends (account, uid, desk, created_at, content, resend_of)
           SELECT $1, u.uid, $2, u.created_at, u.content, u.resend_of
             FROM unnest($3::text[], $4::bigint[], $5::text[], $6::text[]) AS u(uid, created_at, content, resend_of)
           ON CONFLICT (account, uid) DO NOTHING`,
          [
            w.account,
            desk,
            w.sends.map((s) => s.uid),
            w.sends.map((s) => s.createdAt),
            w.sends.map((s) => s.content),
            w.sends.map((s) => s.resendOf),
          ],
        );
      if (w.recipients.length === 0) continue;
      const r = w.recipients;
      await c.query(
        `INSERT INTO send_recipients (account, send_id, peer, position, status, message_identifier, report,
                report_text, classification, receipt_report, receipt_at, sent_at, version, change)
         SELECT $1, s.id, u.peer, u.position, u.status, u.message_identifier, u.report, u.report_text,
                u.classification, u.receipt_report, u.receipt_at, u.sent_at, u.version, nextval('send_changes')
           FROM unnest($2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[],
                       $9::text[], $10::text[], $11::bigint[], $12::bigint[], $13::bigint[])
                AS u(send_uid, peer, position, status, message_identifier, report, report_text, classification,
                     receipt_report, receipt_at, sent_at, version)
           JOIN sends s ON s.account = $1 AND s.uid = u.send_uid
         ON CONFLICT (send_id, peer) DO UPDATE SET position = excluded.position, status = excluded.status,
                message_identifier = excluded.message_identifier, report = excluded.report,
                report_text = excluded.report_text, classification = excluded.classification,
                receipt_report = excluded.receipt_report, receipt_at = excluded.receipt_at,
                sent_at = excluded.sent_at, version = excluded.version, change = excluded.change
          WHERE send_recipients.version < excluded.version`,
        [
          w.account,
          r.map((x) => x.sendUid),
          r.map((x) => x.peer),
          r.map((x) => x.position),
          r.map((x) => x.status),
          r.map((x) => x.messageIdentifier),
          r.map((x) => x.report),
          r.map((x) => x.reportText),
          r.map((x) => x.classification),
          r.map((x) => x.receiptReport),
          r.map((x) => x.receiptAt),
          r.map((x) => x.sentAt),
          r.map((x) => x.version),
        ],
      );
    }
    for (const a of new Set(writes.map((w) => w.account)))
      await c.query('SELECT pg_notify($1, $2)', [OFFICE_CHANNEL, a]);
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

export interface RecipientChange extends SharedRecipient {
  change: number;
  desk: string;
}

/** The account's recipient changes after `after`, oldest first (every desk's, this one's too). */
export async function pullSendChanges(
  c: ClientBase,
  account: string,
  after: number,
  limit: number,
): Promise<RecipientChange[]> {
  const r = await c.query<{
    change: string;
    desk: string;
    send_uid: string;
    peer: string;
    position: string;
    status: string;
    message_identifier: string | null;
    report: string | null;
    report_text: string | null;
    classification: string | null;
    receipt_report: string | null;
    receipt_at: string | null;
    sent_at: string | null;
    version: string;
  }>(
    `SELECT r.change, s.desk, s.uid AS send_uid, r.peer, r.position, r.status, r.message_identifier, r.report,
            r.report_text, r.classification, r.receipt_report, r.receipt_at, r.sent_at, r.version
       FROM send_recipients r JOIN sends s ON s.id = r.send_id
      WHERE r.account = $1 AND r.change > $2 ORDER BY r.change LIMIT $3`,
    [account, after, limit],
  );
  const num = (v: string | null): number | null => (v === null ? null : Number(v));
  return r.rows.map((x) => ({
    change: Number(x.change),
    desk: x.desk,
    sendUid: x.send_uid,
    peer: x.peer,
    position: Number(x.position),
    status: x.status,
    messageIdentifier: x.message_identifier,
    report: x.report,
    reportText: x.report_text,
    classification: x.classification,
    receiptReport: x.receipt_report,
    receiptAt: num(x.receipt_at),
    sentAt: num(x.sent_at),
    version: Number(x.version),
  }));
}

/** The account's sends by uid, with the name of the desk that sent each. */
export async function sendsByUid(
  c: ClientBase,
  account: string,
  uids: readonly string[],
): Promise<Array<SharedSend & { desk: string; deskName: string }>> {
  const r = await c.query<{
    uid: string;
    desk: string;
    desk_name: string;
    created_at: string;
    content: string;
    resend_of: string | null;
  }>(
    `SELECT s.uid, s.desk, coalesce(d.name, s.desk) AS desk_name, s.created_at, s.content, s.resend_of
       FROM sends s LEFT JOIN desks d ON d.id = s.desk
      WHERE s.account = $1 AND s.uid = ANY($2::text[]) ORDER BY s.id`,
    [account, uids],
  );
  return r.rows.map((x) => ({
    uid: x.uid,
    desk: x.desk,
    deskName: x.desk_name,
    createdAt: Number(x.created_at),
    content: x.content,
    resendOf: x.resend_of,
  }));
}

/** Receipts pushed to a desk that does not hold their send, shared (idempotent by uid). */
export async function pushReceipts(
  c: ClientBase,
  desk: string,
  rows: ReadonlyArray<SharedReceipt & { account: string }>,
): Promise<void> {
  await c.query('BEGIN');
  try {
    await c.query('SELECT pg_advisory_xact_lock($1)', [FEED_LOCK.toString()]);
    await c.query(
      `INSERT INTO receipts (account, uid, message_identifier, report, at, desk)
       SELECT u.account, u.uid, u.mi, u.report, u.at, $1
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[]) AS u(account, uid, mi, report, at)
       ON CONFLICT (uid) DO NOTHING`,
      [
        desk,
        rows.map((r) => r.account),
        rows.map((r) => r.uid),
        rows.map((r) => r.messageIdentifier),
        rows.map((r) => r.report),
        rows.map((r) => r.at),
      ],
    );
    for (const a of new Set(rows.map((r) => r.account)))
      await c.query('SELECT pg_notify($1, $2)', [OFFICE_CHANNEL, a]);
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** The account's shared receipts after `after` that another desk passed on, oldest first. */
export async function pullReceipts(
  c: ClientBase,
  account: string,
  after: number,
  limit: number,
): Promise<Array<SharedReceipt & { id: number; desk: string }>> {
  const r = await c.query<{
    id: string;
    uid: string;
    message_identifier: string;
    report: string;
    at: string | null;
    desk: string;
  }>(
    `SELECT id, uid, message_identifier, report, at, desk FROM receipts
      WHERE account = $1 AND id > $2 ORDER BY id LIMIT $3`,
    [account, after, limit],
  );
  return r.rows.map((x) => ({
    id: Number(x.id),
    uid: x.uid,
    messageIdentifier: x.message_identifier,
    report: x.report,
    at: x.at === null ? null : Number(x.at),
    desk: x.desk,
  }));
}
