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
import type { SharedBatch } from './sends-books.ts';

export interface SendsWrite {
  account: string;
  sends: readonly SharedSend[];
  recipients: readonly SharedRecipient[];
  /** Its book / Cc/Bcc batches (office migration 004). */
  batches: readonly SharedBatch[];
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
      if (w.batches.length > 0) await pushBatches(c, w.account, w.batches);
      if (w.recipients.length === 0) continue;
      const r = w.recipients;
      await c.query(
        `INSERT INTO send_recipients (account, send_id, peer, position, status, message_identifier, report,
                report_text, classification, receipt_report, receipt_at, sent_at, version, text, change)
         SELECT $1, s.id, u.peer, u.position, u.status, u.message_identifier, u.report, u.report_text,
                u.classification, u.receipt_report, u.receipt_at, u.sent_at, u.version, u.text,
                nextval('send_changes')
           FROM unnest($2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[],
                       $9::text[], $10::text[], $11::bigint[], $12::bigint[], $13::bigint[], $14::text[])
                AS u(send_uid, peer, position, status, message_identifier, report, report_text, classification,
                     receipt_report, receipt_at, sent_at, version, text)
           JOIN sends s ON s.account = $1 AND s.uid = u.send_uid
         ON CONFLICT (send_id, peer) DO UPDATE SET position = excluded.position, status = excluded.status,
                message_identifier = excluded.message_identifier, report = excluded.report,
                report_text = excluded.report_text, classification = excluded.classification,
                receipt_report = excluded.receipt_report, receipt_at = excluded.receipt_at,
                sent_at = excluded.sent_at, version = excluded.version, text = excluded.text,
                change = excluded.change
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
          r.map((x) => x.text ?? null),
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
    text: string | null;
  }>(
    `SELECT r.change, s.desk, s.uid AS send_uid, r.peer, r.position, r.status, r.message_identifier, r.report,
            r.report_text, r.classification, r.receipt_report, r.receipt_at, r.sent_at, r.version, r.text
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
    text: x.text,
    version: Number(x.version),
  }));
}

/** A desk's book / Cc/Bcc batches (inside pushSends' transaction): an older version never over a newer. */
async function pushBatches(c: ClientBase, account: string, b: readonly SharedBatch[]): Promise<void> {
  await c.query(
    `INSERT INTO send_batches (account, send_id, seq, state, created_at, started_at, finished_at, reason,
            unknown_cause, extra_fields, reach, extra_answered, extra_accepted, extra_rejected, version, change)
     SELECT $1, s.id, u.seq, u.state, u.created_at, u.started_at, u.finished_at, u.reason, u.unknown_cause,
            u.extra_fields, u.reach, u.answered, u.accepted, u.rejected, u.version, nextval('send_changes')
       FROM unnest($2::text[], $3::bigint[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[], $8::text[],
                   $9::text[], $10::text[], $11::bigint[], $12::bigint[], $13::bigint[], $14::bigint[], $15::bigint[])
            AS u(send_uid, seq, state, created_at, started_at, finished_at, reason, unknown_cause, extra_fields,
                 reach, answered, accepted, rejected, version)
       JOIN sends s ON s.account = $1 AND s.uid = u.send_uid
     ON CONFLICT (send_id, seq) DO UPDATE SET state = excluded.state, started_at = excluded.started_at,
            finished_at = excluded.finished_at, reason = excluded.reason, unknown_cause = excluded.unknown_cause,
            extra_fields = excluded.extra_fields, reach = excluded.reach, extra_answered = excluded.extra_answered,
            extra_accepted = excluded.extra_accepted, extra_rejected = excluded.extra_rejected,
            version = excluded.version, change = excluded.change
      WHERE send_batches.version < excluded.version`,
    [
      account,
      b.map((x) => x.sendUid),
      b.map((x) => x.seq),
      b.map((x) => x.state),
      b.map((x) => x.createdAt),
      b.map((x) => x.startedAt),
      b.map((x) => x.finishedAt),
      b.map((x) => x.reason),
      b.map((x) => x.unknownCause),
      b.map((x) => x.fields),
      b.map((x) => x.reach),
      b.map((x) => x.answered),
      b.map((x) => x.accepted),
      b.map((x) => x.rejected),
      b.map((x) => x.version),
    ],
  );
}

export interface BatchChange extends SharedBatch {
  change: number;
  desk: string;
}

/** The account's book / Cc/Bcc batch changes after `after`, oldest first (every desk's). */
export async function pullBatchChanges(
  c: ClientBase,
  account: string,
  after: number,
  limit: number,
): Promise<BatchChange[]> {
  const r = await c.query<Record<string, string | null>>(
    `SELECT b.change, s.desk, s.uid AS send_uid, b.seq, b.state, b.created_at, b.started_at, b.finished_at,
            b.reason, b.unknown_cause, b.extra_fields, b.reach, b.extra_answered, b.extra_accepted,
            b.extra_rejected, b.version
       FROM send_batches b JOIN sends s ON s.id = b.send_id
      WHERE b.account = $1 AND b.change > $2 ORDER BY b.change LIMIT $3`,
    [account, after, limit],
  );
  const num = (v: string | null | undefined): number | null =>
    v === null || v === undefined ? null : Number(v);
  const str = (v: string | null | undefined): string | null => v ?? null;
  return r.rows.map((x) => ({
    change: Number(x.change),
    desk: String(x.desk),
    sendUid: String(x.send_uid),
    seq: Number(x.seq),
    state: String(x.state),
    createdAt: Number(x.created_at),
    startedAt: num(x.started_at),
    finishedAt: num(x.finished_at),
    reason: str(x.reason),
    unknownCause: str(x.unknown_cause),
    fields: String(x.extra_fields),
    reach: num(x.reach),
    answered: num(x.extra_answered),
    accepted: num(x.extra_accepted),
    rejected: num(x.extra_rejected),
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
