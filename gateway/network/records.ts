// What the simulated network has recorded, read and written without its timers: the PDUs it received
// (outbound_pdus), delivery receipts (delivery_receipts) and the inbound messages CollectMessages hands
// out (inbound_messages). NetworkSimulator drains its queue first and then calls these.
import type { DatabaseSync } from 'node:sqlite';
import type { MOMessage } from '../../protocol/soap/operations.ts';
import { bytesToHex } from '../../protocol/smart/bytes.ts';
import { stmt, transaction } from '../store/db.ts';
import { OUTBOUND_PAGE_MAX } from './page.ts';

export { OUTBOUND_PAGE_MAX };

export interface OutboundPduRow {
  id: number;
  messageIdentifier: string;
  accountId: number;
  recipient: string;
  part: number;
  parts: number;
  dcs: number;
  pid: number;
  udh: string;
  userData: string;
  pdu: string;
  summary: unknown;
  createdAt: string;
}

export interface ReceiptRow {
  messageIdentifier: string;
  recipient: string;
  part: number;
  report: number;
  source: 'network' | 'soap';
  status: string;
  timestamp: string | null;
  pushedAt: string | null;
  pushError: string | null;
}

export interface OutboundFilter {
  accountId?: number;
  messageIdentifier?: string;
  recipient?: string;
  afterId?: number;
  limit?: number;
}

/** Stores a receipt received through SOAP SubmitDeliveryReceipt. */
export function storeSoapReceipt(
  db: DatabaseSync,
  input: {
    messageIdentifier: string;
    accountId: number;
    recipient: string;
    report: number;
    timestamp: string;
  },
): void {
  transaction(db, () => {
    stmt(
      db,
      `INSERT INTO delivery_receipts (message_identifier, account_id, recipient, part, report, source, status, due_at, timestamp)
         VALUES (?, ?, ?, 1, ?, 'soap', 'delivered', ?, ?)`,
    ).run(
      input.messageIdentifier,
      input.accountId,
      input.recipient,
      input.report,
      Date.now(),
      input.timestamp,
    );
    stmt(
      db,
      `UPDATE messages SET status = CASE WHEN ? = 0 THEN 'delivered' ELSE 'failed' END
         WHERE message_identifier = ? AND status IN ('dispatched', 'delivered', 'failed')`,
    ).run(input.report, input.messageIdentifier);
  });
}

export function readReceipts(db: DatabaseSync, messageIdentifier: string): ReceiptRow[] {
  const rows = stmt(db, 'SELECT * FROM delivery_receipts WHERE message_identifier = ? ORDER BY part, id').all(
    messageIdentifier,
  ) as Array<Record<string, unknown>>;
  return rows.map((r) => ({
    messageIdentifier: String(r['message_identifier']),
    recipient: String(r['recipient']),
    part: Number(r['part']),
    report: Number(r['report']),
    source: r['source'] as 'network' | 'soap',
    status: String(r['status']),
    timestamp: (r['timestamp'] as string | null) ?? null,
    pushedAt: (r['pushed_at'] as string | null) ?? null,
    pushError: (r['push_error'] as string | null) ?? null,
  }));
}

/**
 * Most messages one CollectMessages answer carries (issue 16): the rest wait for the next call. A page
 * bounds the answer the client must read and the messages at risk if it is lost on the way.
 */
export const COLLECT_PAGE_MAX = 1_000;

/**
 * The account's oldest uncollected inbound messages (at most `limit`), marked collected in the same
 * transaction (each once). `answer` turns the page into what is sent (the SOAP envelope) inside that
 * transaction, before the mark: when it throws, nothing is marked and the messages stay queued.
 */
export function collectInbound<T>(
  db: DatabaseSync,
  accountId: number,
  answer: (items: MOMessage[]) => T,
  limit: number = COLLECT_PAGE_MAX,
): T {
  return transaction(db, () => {
    const rows = stmt(
      db,
      'SELECT id, send_to, reply_to, message, timestamp FROM inbound_messages WHERE account_id = ? AND collected = 0 ORDER BY id LIMIT ?',
    ).all(accountId, limit) as Array<{
      id: number;
      send_to: string;
      reply_to: string;
      message: string;
      timestamp: string;
    }>;
    const out = answer(
      rows.map((r) => ({
        SendTo: r.send_to,
        ReplyTo: r.reply_to,
        Timestamp1: r.timestamp,
        Message: { TextMessage: r.message },
      })),
    );
    const mark = stmt(db, 'UPDATE inbound_messages SET collected = 1, collected_at = ? WHERE id = ?');
    const now = new Date().toISOString();
    for (const r of rows) mark.run(now, r.id);
    return out;
  });
}

/** PDUs the network received, oldest first, at most OUTBOUND_PAGE_MAX. */
export function readOutbound(db: DatabaseSync, filter: OutboundFilter): OutboundPduRow[] {
  const where: string[] = ['id > ?'];
  const args: Array<string | number> = [filter.afterId ?? 0];
  if (filter.accountId !== undefined) {
    where.push('account_id = ?');
    args.push(filter.accountId);
  }
  if (filter.messageIdentifier) {
    where.push('message_identifier = ?');
    args.push(filter.messageIdentifier);
  }
  if (filter.recipient) {
    where.push('recipient = ?');
    args.push(filter.recipient);
  }
  args.push(Math.min(Math.max(filter.limit ?? 500, 1), OUTBOUND_PAGE_MAX));
  const rows = stmt(db, `SELECT * FROM outbound_pdus WHERE ${where.join(' AND ')} ORDER BY id LIMIT ?`).all(
    ...args,
  ) as Array<Record<string, unknown>>;
  return rows.map((r) => ({
    id: Number(r['id']),
    messageIdentifier: String(r['message_identifier']),
    accountId: Number(r['account_id']),
    recipient: String(r['recipient']),
    part: Number(r['part']),
    parts: Number(r['parts']),
    dcs: Number(r['dcs']),
    pid: Number(r['pid']),
    udh: bytesToHex(r['udh'] as Uint8Array),
    userData: bytesToHex(r['user_data'] as Uint8Array),
    pdu: bytesToHex(r['pdu'] as Uint8Array),
    summary: JSON.parse(String(r['summary'])) as unknown,
    createdAt: String(r['created_at']),
  }));
}
