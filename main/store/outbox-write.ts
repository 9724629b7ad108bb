// The outbox journal's bulk writes (issue 15): the outbound message rows of a job (each with its FTS
// row and conversation trigger); a send to many writes them only for its numbers with a listed
// conversation, the others lean (issue 27 item 6, ./outbox-lean.ts). One statement per row cost
// ~50 µs each in node:sqlite (the statement and its triggers run once per call); a statement of ROWS
// rows costs ~10 µs a row.
// Everything here runs inside the caller's transaction (./outbox-journal.ts createJob), so the job
// is still journaled whole or not at all.
import type { DatabaseSync } from 'node:sqlite';
import { stmt } from '../../storage/sqlite.ts';
import { contentLabel } from '../../protocol/content-label.ts';
import type { Content } from '../../protocol/content.ts';

/** Rows per statement: at most 50 × 10 values, far below SQLite's variable limit (32,766). */
const ROWS = 50;

/** One outbound recipient of a job, as createJob journals it ('pending', read). */
export interface OutboundRow {
  conversationId: number;
  peer: string;
  text: string;
  batchId: number;
  position: number;
}

const sqls = new Map<string, string>();
/** `head` followed by `rows` copies of `one`, comma-separated; built once per shape. */
function multiRow(head: string, one: string, rows: number, tail = ''): string {
  const key = `${head}\u0000${one}\u0000${rows}\u0000${tail}`;
  let sql = sqls.get(key);
  if (sql === undefined) {
    sql = `${head} ${Array.from({ length: rows }, () => one).join(', ')} ${tail}`;
    sqls.set(key, sql);
  }
  return sql;
}

/**
 * Issue 27 item 6: the conversation id of each of `peers` (distinct conversation keys) of `account`
 * (the job's; '' none, issue 25) that is listed in the Inbox (campaign_only = 0): a send to many
 * journals those recipients as `messages` rows (their thread shows the send) and the others lean
 * (./outbox-lean.ts), making no conversation for them. One statement: json_each hands the numbers
 * to SQLite, each looked up in the conversations' (account_id, peer) index.
 */
export function listedConversations(
  db: DatabaseSync,
  account: string,
  peers: readonly string[],
): Map<string, number> {
  // CROSS JOIN: from the numbers to their conversations, never a scan of the account's conversations.
  const rows = stmt(
    db,
    `SELECT c.id, c.peer FROM json_each(?) p CROSS JOIN conversations c
      WHERE c.account_id = ? AND c.peer = p.value AND c.campaign_only = 0`,
  ).all(JSON.stringify(peers), account) as Array<{ id: number; peer: string }>;
  return new Map(rows.map((r) => [r.peer, r.id]));
}

/**
 * Writes the outbound messages of a job ('pending'), ROWS per statement: its kind, ReplyTo and
 * label (what a rich message is, protocol/content-label.ts, issue 26) on every row.
 */
export function insertOutboundMessages(
  db: DatabaseSync,
  job: { id: number; content: Content; at: number },
  rows: readonly OutboundRow[],
): void {
  const { kind } = job.content;
  const replyTo = job.content.replyTo ?? null;
  const label = contentLabel(job.content);
  for (let start = 0; start < rows.length; start += ROWS) {
    const end = Math.min(rows.length, start + ROWS);
    const args: Array<string | number | null> = [];
    for (let i = start; i < end; i++) {
      const r = rows[i]!;
      args.push(
        r.conversationId,
        kind,
        r.peer,
        replyTo,
        r.text,
        job.at,
        job.id,
        r.batchId,
        r.position,
        label,
      );
    }
    stmt(
      db,
      multiRow(
        `INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status, job_id, batch_id, position, read, label) VALUES`,
        "(?, 'out', ?, ?, ?, ?, ?, 'pending', ?, ?, ?, 1, ?)",
        end - start,
      ),
    ).run(...args);
  }
}
