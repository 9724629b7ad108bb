// The Inbox's CSV exports (split from ./conversations.ts): one conversation, or the messages of one
// account's conversations by date range and/or search (issue 25: never another account's).
// Issue 27 item 6: a send to many keeps the recipients with no listed conversation in the journal's
// lean table (./outbox-lean.ts), in no conversation. The export of all messages or of a date range
// includes them, with their send's time, as it included their rows in the campaign-only conversations
// sends made before: nothing sent leaves the export. A search's export is what search finds: not them
// (they have no search entry; History and the campaign view list them).
import type { DatabaseSync } from 'node:sqlite';
import Papa from 'papaparse';
import { buildFtsQuery } from './search.ts';
import { MESSAGE_COLUMNS, rowsAs } from './rows.ts';
import type { MessageRow } from './rows.ts';
import { LEAN_COLUMNS, LEAN_FROM } from './outbox-lean.ts';
import { PENDING_FROM } from './outbox-pending.ts';
import type { InboxExportArgs } from '../../domain/index.ts';

/** Conversation `conversationId` as CSV, oldest first (its account checked by the caller). */
export function exportConversationCsv(db: DatabaseSync, conversationId: number): string {
  return messagesCsv(
    rowsAs<MessageRow>(
      db
        .prepare(
          `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.conversation_id = ? ORDER BY m.created_at, m.id`,
        )
        .all(conversationId),
    ),
  );
}

/** The messages of `account`'s conversations as CSV, oldest first (ConversationsRepo.exportMessages). */
export function exportMessagesCsv(db: DatabaseSync, account: string, args: InboxExportArgs): string {
  const where = ['m.conversation_id IN (SELECT id FROM conversations WHERE account_id = ?)'];
  const params: Array<string | number> = [account];
  const lean = ['r.account_id = ?'];
  const leanParams: Array<string | number> = [account];
  if (args.from !== undefined) {
    where.push('m.created_at >= ?');
    params.push(args.from);
    lean.push('j.created_at >= ?');
    leanParams.push(args.from);
  }
  if (args.to !== undefined) {
    where.push('m.created_at < ?');
    params.push(args.to);
    lean.push('j.created_at < ?');
    leanParams.push(args.to);
  }
  if (args.query !== undefined) {
    const match = buildFtsQuery(args.query);
    if (match === null) return messagesCsv([]);
    where.push('m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)');
    params.push(match);
  }
  const messages = `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE ${where.join(' AND ')}`;
  const sql =
    args.query === undefined
      ? `SELECT * FROM (${messages} UNION ALL SELECT ${LEAN_COLUMNS} FROM ${LEAN_FROM} WHERE ${lean.join(' AND ')}
           UNION ALL SELECT ${LEAN_COLUMNS} FROM ${PENDING_FROM} WHERE ${lean.join(' AND ')})
          ORDER BY created_at, id`
      : `${messages} ORDER BY m.created_at, m.id`;
  return messagesCsv(
    rowsAs<MessageRow>(
      db.prepare(sql).all(...params, ...(args.query === undefined ? [...leanParams, ...leanParams] : [])),
    ),
  );
}

/** Messages as CSV, one a line, spreadsheet-safe (a cell starting with = + - @ is escaped). */
function messagesCsv(rows: MessageRow[]): string {
  const data = rows.map((r) => {
    const inbound = r.direction === 'in';
    return [
      new Date(r.created_at).toISOString(),
      inbound ? 'received' : 'sent',
      inbound ? r.peer : (r.local ?? ''),
      inbound ? (r.local ?? '') : r.peer,
      r.text,
      r.status,
      r.report ?? '',
      r.message_identifier ?? '',
    ];
  });
  const csv = Papa.unparse(
    {
      fields: ['Time (UTC)', 'Direction', 'From', 'To', 'Text', 'Status', 'Report', 'MessageIdentifier'],
      data,
    },
    { escapeFormulae: NOT_A_NUMBER_FORMULA, newline: '\r\n' },
  );
  return `${csv}\r\n`;
}

/**
 * A cell a spreadsheet would run as a formula (starting with = + - @, a tab or a return), unless it
 * is a whole number: report codes such as -3 export as numbers (issue 26), as the send reports do
 * (renderer/components/RecipientTable.tsx).
 */
const NOT_A_NUMBER_FORMULA = /^(?![-+]?\d+$)[=+\-@\t\r]/;
