// The outbound history of one account (`history.messages`, issue 25): its outbound messages newest
// first, by status or job. Issue 27 item 6: a send to many keeps a recipient with no listed
// conversation lean (./outbox-lean.ts), so the history reads both its `messages` rows (in the
// account's conversations) and its lean rows (of the account), as MessageRecords (LEAN_COLUMNS), those
// of a batch not ended yet from its value (migration 059, ./outbox-pending.ts).
import type { AppDb } from './db.ts';
import { MESSAGE_COLUMNS, rowsAs, toMessage } from './rows.ts';
import type { MessageRow } from './rows.ts';
import { LEAN_COLUMNS, LEAN_ID_SQL } from './outbox-lean.ts';
import { PENDING_FROM } from './outbox-pending.ts';
import type { HistoryFilter, MessageRecord, Page, ThreadCursor } from '../../domain/index.ts';

export function outboundHistory(
  app: AppDb,
  account: string,
  limit: number,
  args: { filter?: HistoryFilter; cursor?: ThreadCursor | null } = {},
): Page<MessageRecord, ThreadCursor> {
  const where = [
    "m.direction = 'out'",
    'm.conversation_id IN (SELECT id FROM conversations WHERE account_id = ?)',
  ];
  // The lean rows are read from the account's jobs newest first (outbox_jobs_account_time), so a page
  // stops early; a job of no account ('') has account_id NULL.
  const lean = [
    account === '' ? "(j.account_id IS NULL OR j.account_id = '')" : 'j.account_id = ?',
    'r.account_id = ?',
  ];
  const params: Array<string | number> = [account];
  const leanParams: Array<string | number> = account === '' ? [account] : [account, account];
  const statuses = args.filter?.status === undefined ? [] : [args.filter.status].flat();
  if (statuses.length > 0) {
    const list = statuses.map(() => '?').join(', ');
    where.push(`m.status IN (${list})`);
    lean.push(`r.status IN (${list})`);
    params.push(...statuses);
    leanParams.push(...statuses);
    // The partial index messages_status (migration 015) holds rows past sending; SQLite uses it
    // only when the query states its condition word for word.
    if (statuses.every((s) => s !== 'pending' && s !== 'sending'))
      where.push("m.status NOT IN ('pending', 'sending')");
  }
  if (args.filter?.jobId !== undefined) {
    where.push('m.job_id = ?');
    lean.push('j.id = ?');
    params.push(args.filter.jobId);
    leanParams.push(args.filter.jobId);
  }
  if (args.cursor) {
    where.push('(m.created_at, m.id) < (?, ?)');
    params.push(args.cursor.createdAt, args.cursor.id);
    // A lean row's id is computed (LEAN_COLUMNS): its time bounds the rows read, the id the page.
    lean.push(`j.created_at <= ? AND (j.created_at, ${LEAN_ID_SQL}) < (?, ?)`);
    leanParams.push(args.cursor.createdAt, args.cursor.createdAt, args.cursor.id);
  }
  const rows = rowsAs<MessageRow>(
    app.db
      .prepare(
        `SELECT * FROM (
           SELECT * FROM (SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE ${where.join(' AND ')}
                           ORDER BY m.created_at DESC, m.id DESC LIMIT ?)
           UNION ALL
           SELECT * FROM (SELECT ${LEAN_COLUMNS} FROM outbox_jobs j CROSS JOIN outbox_batches b CROSS JOIN outbox_recipients r
                           WHERE b.job_id = j.id AND r.batch_id = b.id AND ${lean.join(' AND ')}
                           ORDER BY j.created_at DESC, id DESC LIMIT ?)
           UNION ALL
           SELECT * FROM (SELECT ${LEAN_COLUMNS} FROM ${PENDING_FROM} WHERE ${lean.join(' AND ')}
                           ORDER BY j.created_at DESC, id DESC LIMIT ?))
          ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .all(...params, limit + 1, ...leanParams, limit + 1, ...leanParams, limit + 1, limit + 1),
  );
  const items = rows.slice(0, limit).map(toMessage);
  const last = items[items.length - 1];
  return { items, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null };
}
