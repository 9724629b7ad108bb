// The outbox journal's bulk writes (issue 15): a campaign of 100,000 recipients writes 100,000
// outbound message rows (each with its FTS row and conversation trigger) and, for a send to many,
// a campaign-only conversation per recipient. One statement per row cost ~50 µs each in node:sqlite
// (the statement and its triggers run once per call); a statement of ROWS rows costs ~10 µs a row.
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
 * The conversation id of each of `peers` (distinct conversation keys) of `account` (the job's; ''
 * none, issue 25) for a send to many: a missing conversation is created campaign-only (not listed
 * in the Inbox, issue 12); an existing one is left as it is (listed stays listed). Same effect as
 * ConversationsRepo.ensure(account, peer, at, true) per peer.
 */
export function ensureCampaignConversations(
  db: DatabaseSync,
  account: string,
  peers: readonly string[],
  at: number,
): Map<string, number> {
  const ids = new Map<string, number>();
  for (let start = 0; start < peers.length; start += ROWS) {
    const chunk = peers.slice(start, start + ROWS);
    const insertArgs: Array<string | number> = [];
    for (const peer of chunk) insertArgs.push(account, peer, at);
    // The new ones come back from the insert itself (issue 27: a new campaign's conversations are
    // not looked up again); only the peers that had a conversation already are read.
    const created = stmt(
      db,
      multiRow(
        'INSERT INTO conversations (account_id, peer, last_activity_at, campaign_only) VALUES',
        '(?, ?, ?, 1)',
        chunk.length,
        'ON CONFLICT (account_id, peer) DO NOTHING RETURNING id, peer',
      ),
    ).all(...insertArgs) as Array<{ id: number; peer: string }>;
    for (const r of created) ids.set(r.peer, r.id);
    if (created.length === chunk.length) continue;
    const existing = chunk.filter((peer) => !ids.has(peer));
    const rows = stmt(
      db,
      `SELECT id, peer FROM conversations WHERE account_id = ? AND peer IN (${existing.map(() => '?').join(', ')})`,
    ).all(account, ...existing) as Array<{ id: number; peer: string }>;
    for (const r of rows) ids.set(r.peer, r.id);
  }
  return ids;
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
