// Reading stored outbound messages (table messages) as MessageRow.
import type { DatabaseSync } from 'node:sqlite';
import type { MessageRow } from './context.ts';
import type { OutboundContent } from './content.ts';

interface Row {
  id: number;
  message_identifier: string;
  account_id: number;
  charged_account_id: number;
  recipient: string;
  reply_to: string | null;
  delivery_option: string;
  content: string;
  parts: number;
  cost: number;
  status: string;
  library_number: string | null;
  scheduled_at: string | null;
  created_at: string;
}

export function toMessageRow(r: Row): MessageRow {
  return {
    id: r.id,
    messageIdentifier: r.message_identifier,
    accountId: r.account_id,
    chargedAccountId: r.charged_account_id,
    recipient: r.recipient,
    replyTo: r.reply_to,
    deliveryOption: r.delivery_option,
    content: JSON.parse(r.content) as OutboundContent,
    parts: r.parts,
    cost: r.cost,
    status: r.status,
    libraryNumber: r.library_number,
    scheduledAt: r.scheduled_at,
    createdAt: r.created_at,
  };
}

export function loadMessageRow(db: DatabaseSync, id: number): MessageRow | null {
  const r = db.prepare('SELECT * FROM messages WHERE id = ?').get(id) as Row | undefined;
  return r ? toMessageRow(r) : null;
}

export function findMessage(db: DatabaseSync, messageIdentifier: string): MessageRow | null {
  const r = db.prepare('SELECT * FROM messages WHERE message_identifier = ?').get(messageIdentifier) as
    Row | undefined;
  return r ? toMessageRow(r) : null;
}

/** An account's outbound history, newest first. */
export function listMessages(db: DatabaseSync, accountId: number, limit = 100): MessageRow[] {
  const rows = db
    .prepare('SELECT * FROM messages WHERE account_id = ? ORDER BY id DESC LIMIT ?')
    .all(accountId, limit) as unknown as Row[];
  return rows.map(toMessageRow);
}
