// Issue 28, office mode: a conversation thread shows the messages other desks of the office sent to
// its number on the same account, among this desk's own messages and the replies, each with the
// name of the desk that sent it (docs/OFFICE.md "Sends"). They are not rows of this desk's
// `messages` (another desk's send is a job without batches or messages here, so the journal can
// never send it): they are read from what that desk shared (office_send_recipients, migrations 048
// and 052) and merged into the thread's keyset pages, ordered as the store orders a thread
// (created_at, id, newest first). Their ids are negative (minus the shared row's rowid), so they
// never meet a message id of this desk and sort after this desk's messages of the same moment.
import type { AppDb } from '../store/db.ts';
import { clampLimit } from '../store/conversations.ts';
import { rowsAs } from '../store/rows.ts';
import { contentLabel } from '../../protocol/content-label.ts';
import { stmt } from '../../storage/sqlite.ts';
import type { MessageRecord, OutboxContent, Page, ThreadCursor } from '../../preload/api.ts';
import type { ReportGroup } from '../../protocol/reports.ts';

interface OtherRow {
  rid: number;
  job_id: number;
  peer: string;
  status: string;
  message_identifier: string | null;
  report: string | null;
  report_text: string | null;
  classification: string | null;
  receipt_report: string | null;
  receipt_at: number | null;
  sent_at: number | null;
  text: string | null;
  created_at: number;
  job_text: string;
  content: string;
  desk_name: string;
}

/** Other desks' messages to `peer` on `accountId`, newest first, after `cursor` (at most `limit`). */
export function otherDesksMessages(
  app: AppDb,
  args: {
    accountId: string;
    conversationId: number;
    peer: string;
    cursor: ThreadCursor | null;
    limit: number;
  },
): MessageRecord[] {
  const c = args.cursor;
  const rows = rowsAs<OtherRow>(
    stmt(
      app.db,
      `SELECT r.rowid AS rid, r.job_id, r.peer, r.status, r.message_identifier, r.report, r.report_text,
              r.classification, r.receipt_report, r.receipt_at, r.sent_at, r.text, j.created_at,
              j.text AS job_text, j.content, s.desk_name
         FROM office_send_recipients r
         JOIN outbox_jobs j ON j.id = r.job_id
         JOIN office_sends s ON s.job_id = r.job_id
        WHERE r.peer = ? AND j.account_id = ? AND (j.created_at, -r.rowid) < (?, ?)
        ORDER BY j.created_at DESC, r.rowid ASC LIMIT ?`,
    ).all(
      args.peer,
      args.accountId,
      c?.createdAt ?? Number.MAX_SAFE_INTEGER,
      c?.id ?? Number.MAX_SAFE_INTEGER,
      args.limit,
    ),
  );
  return rows.map((r) => {
    const content = JSON.parse(r.content) as OutboxContent;
    return {
      id: -r.rid,
      conversationId: args.conversationId,
      direction: 'out',
      kind: content.kind,
      peer: r.peer,
      local: content.replyTo ?? null,
      text: r.text ?? r.job_text,
      createdAt: r.created_at,
      status: r.status as MessageRecord['status'],
      read: true,
      jobId: r.job_id,
      batchId: null,
      messageIdentifier: r.message_identifier,
      report: r.report,
      reportText: r.report_text,
      classification: r.classification as ReportGroup | null,
      sentAt: r.sent_at,
      answeredAt: null,
      receiptReport: r.receipt_report,
      receiptAt: r.receipt_at,
      sentTimestamp: null,
      gatewayId: null,
      label: contentLabel(content),
      sentFrom: r.desk_name,
    };
  });
}

const newerFirst = (a: MessageRecord, b: MessageRecord): number => b.createdAt - a.createdAt || b.id - a.id;

/**
 * A page of this desk's thread (`local`, as the store read it with `args`) with other desks' messages
 * of the same stretch merged in: the page holds the newest `limit` of both after the cursor, and its
 * cursor (the last message's createdAt and id) reads on from there in both.
 */
export interface ThreadArgs {
  accountId: string;
  conversationId: number;
  peer: string;
  cursor?: ThreadCursor | null;
  limit?: number;
}

export function mergeThread(
  app: AppDb,
  local: Page<MessageRecord, ThreadCursor>,
  args: ThreadArgs,
): Page<MessageRecord, ThreadCursor> {
  const limit = clampLimit(args.limit);
  const others = otherDesksMessages(app, {
    accountId: args.accountId,
    conversationId: args.conversationId,
    peer: args.peer,
    cursor: args.cursor ?? null,
    limit: limit + 1,
  });
  if (others.length === 0) return local;
  const all = [...local.items, ...others].sort(newerFirst);
  const items = all.slice(0, limit);
  const more = all.length > limit || local.next !== null;
  const last = items.at(-1);
  return { items, next: more && last ? { createdAt: last.createdAt, id: last.id } : null };
}
