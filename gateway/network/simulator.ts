// The simulated mobile network behind the gateway (the sandbox SMSC). Every accepted message becomes
// the SMS-SUBMIT PDUs a real SMSC would get (encoded by protocol/smart through ./encode.ts), stored in
// outbound_pdus; each part gets a delivery receipt after config.receiptDelayMs with an outcome that
// depends only on the recipient number (see receiptOutcome), kept in delivery_receipts and pushed as a
// SubmitDeliveryReceipt SOAP request to the account's push URL when one is set. Receipts wait in the
// database (status pending, due_at), so a restart or the other instance on the same data directory
// delivers them; each is claimed in a transaction and so delivered exactly once.
// Inbound (mobile-originated) messages are queued for the account whose number they are sent to and
// handed out once by CollectMessages.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { buildRequestEnvelope, parseResponseEnvelope } from '../../protocol/soap/envelope.ts';
import { SOAP_CONTENT_TYPE } from '../../protocol/soap/namespaces.ts';
import type { MOMessage } from '../../protocol/soap/operations.ts';
import { bytesToHex } from '../../protocol/smart/bytes.ts';
import { REPORT } from '../../protocol/reports.ts';
import type { GatewayContext, MessageRow, NetworkLike } from '../context.ts';
import type { OutboundContent } from '../content.ts';
import { getAccount } from '../accounts.ts';
import { newMessageIdentifier } from '../submit.ts';
import { stmt, transaction } from '../store/db.ts';
import { encodeForNetwork, networkEncoder } from './encode.ts';
import type { NetworkPdu } from './encode.ts';

/** Receipt Report values of the simulator (spec 6.1 leaves them open). */
export const RECEIPT_REPORT = {
  delivered: Number(REPORT.success),
  failed: Number(REPORT.notDelivered),
} as const;

export type ReceiptOutcome = 'delivered' | 'failed' | 'none';

/**
 * Deterministic outcome by recipient number (documented in docs/GATEWAY.md):
 * ending 0000 → failed receipt (Report 76, not delivered); ending 0001 → never a receipt; anything else → delivered (0).
 */
export function receiptOutcome(recipient: string): ReceiptOutcome {
  if (recipient.endsWith('0000')) return 'failed';
  if (recipient.endsWith('0001')) return 'none';
  return 'delivered';
}

export interface InboundInput {
  /** the account's number the phone wrote to */
  sendTo: string;
  /** the phone's number */
  replyTo: string;
  message: string;
  timestamp?: Date;
  source: 'sandbox' | 'soap';
  /** When set, only this account's number is accepted (a caller without the operator permission). */
  onlyAccountId?: number;
}

export type InboundResult =
  { ok: true; messageIdentifier: string; accountId: number } | { ok: false; reason: string };

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

const SWEEP_MS = 1000;
/** Queue entries (send requests, ≤ 350 messages each) claimed per drain transaction. */
const DRAIN_BATCH_ENTRIES = 4;
const DRAIN_BATCH_MESSAGES = DRAIN_BATCH_ENTRIES * 350;
/**
 * How long after a send request the queue is drained at the latest. The drain usually happens
 * sooner: while a large request waits for its number checks (idle main thread, see NumberChecker),
 * and before anything reads the network's state (outbound, receiptsFor).
 */
const DRAIN_DELAY_MS = 20;
const PUSH_TIMEOUT_MS = 5000;

/**
 * The most PDUs one outbound() page (GET /sandbox/outbound) returns; a larger limit is cut to it.
 * The app's sandbox.outbound refuses a larger limit with this bound (main/services/validate-args.ts).
 */
export const OUTBOUND_PAGE_MAX = 5000;
const PUSH_CONCURRENCY = 8;

/**
 * Rows inserted up to BATCH_ROWS at a time with one multi-row INSERT … VALUES (…), (…): one call
 * into SQLite per batch instead of one per row (the drain stores two rows per message).
 */
const BATCH_ROWS = 64;
class BatchInsert {
  private readonly db: DatabaseSync;
  private readonly head: string;
  private readonly columns: number;
  private values: SQLInputValue[] = [];
  private rows = 0;

  constructor(db: DatabaseSync, head: string, columns: number) {
    this.db = db;
    this.head = head;
    this.columns = columns;
  }

  add(...row: SQLInputValue[]): void {
    this.values.push(...row);
    if (++this.rows === BATCH_ROWS) this.flush();
  }

  flush(): void {
    if (this.rows === 0) return;
    const tuple = `(${Array.from({ length: this.columns }, () => '?').join(', ')})`;
    stmt(this.db, `${this.head} VALUES ${Array.from({ length: this.rows }, () => tuple).join(', ')}`).run(
      ...this.values,
    );
    this.values = [];
    this.rows = 0;
  }
}

export class NetworkSimulator implements NetworkLike {
  readonly ctx: GatewayContext;
  private readonly db: DatabaseSync;
  private wakeTimer: NodeJS.Timeout | null = null;
  private wakeDue = Infinity;
  private drainPending: NodeJS.Timeout | null = null;
  private readonly sweeper: NodeJS.Timeout;
  private readonly pushes = new Set<Promise<void>>();
  private activePushes = 0;
  private readonly pushWaiters: Array<() => void> = [];
  private closed = false;

  constructor(ctx: GatewayContext) {
    this.ctx = ctx;
    this.db = ctx.db;
    this.sweeper = setInterval(
      () => {
        // entries left by a crash, a restart or the other instance on the same data directory
        this.drainQueue();
        this.deliverDue();
      },
      Math.min(SWEEP_MS, Math.max(ctx.config.receiptDelayMs, 20)),
    );
    this.sweeper.unref();
  }

  partsFor(content: OutboundContent): number {
    return Math.max(1, encodeForNetwork(content, '0').length);
  }

  /** Encodes the message, stores its PDUs and schedules a receipt per part (scheduler path). */
  dispatch(message: MessageRow): void {
    const encode = networkEncoder(message.content);
    transaction(this.db, () => {
      const sink = this.sink();
      this.store(message, encode(message.recipient), sink);
      sink.flush();
    });
    if (receiptOutcome(message.recipient) !== 'none')
      this.wakeAt(Date.now() + this.ctx.config.receiptDelayMs);
  }

  /** Multi-row inserts for PDUs and receipts (flush before the transaction ends). */
  private sink(): { pdus: BatchInsert; receipts: BatchInsert; flush(): void } {
    const pdus = new BatchInsert(
      this.db,
      `INSERT OR IGNORE INTO outbound_pdus (message_identifier, account_id, recipient, part, parts, dcs, pid, udh, user_data, pdu, summary)`,
      11,
    );
    const receipts = new BatchInsert(
      this.db,
      `INSERT INTO delivery_receipts (message_identifier, account_id, recipient, part, report, source, status, due_at)`,
      8,
    );
    return {
      pdus,
      receipts,
      flush() {
        pdus.flush();
        receipts.flush();
      },
    };
  }

  /** Stores the PDUs of one message and a pending receipt per part (through the caller's sink). */
  private store(
    message: { messageIdentifier: string; accountId: number; recipient: string },
    pdus: Array<NetworkPdu & { summaryJson: string }>,
    sink: { pdus: BatchInsert; receipts: BatchInsert },
  ): void {
    const outcome = receiptOutcome(message.recipient);
    const due = Date.now() + this.ctx.config.receiptDelayMs;
    for (let i = 0; i < pdus.length; i++) {
      const p = pdus[i]!;
      sink.pdus.add(
        message.messageIdentifier,
        message.accountId,
        message.recipient,
        i + 1,
        pdus.length,
        p.dcs,
        p.pid,
        p.udh,
        p.userData,
        p.pdu,
        p.summaryJson,
      );
      if (outcome !== 'none')
        sink.receipts.add(
          message.messageIdentifier,
          message.accountId,
          message.recipient,
          i + 1,
          outcome === 'delivered' ? RECEIPT_REPORT.delivered : RECEIPT_REPORT.failed,
          'network',
          'pending',
          due,
        );
    }
  }

  /** A send request committed a network_queue entry: drain it right after the answer is written. */
  drainSoon(): void {
    if (this.closed || this.drainPending) return;
    this.drainPending = setTimeout(() => {
      this.drainPending = null;
      this.drainQueue();
    }, DRAIN_DELAY_MS);
  }

  /**
   * Hands queued messages to the network, a few requests per transaction: the entries are claimed
   * (deleted), their messages encoded and stored with their receipts in one BEGIN IMMEDIATE
   * transaction, so each message reaches the network exactly once, also with two instances on one
   * data directory or after a crash. A message whose content cannot be encoded is marked failed
   * and refunded (report 100), as the scheduler does. Never throws; returns messages handed over.
   */
  drainQueue(): number {
    if (this.closed) return 0;
    let total = 0;
    try {
      for (;;) {
        const n = this.drainBatch();
        if (n <= 0) break;
        total += n;
        if (total >= DRAIN_BATCH_MESSAGES * 4) {
          // yield to requests; the rest follows on the next turn of the event loop
          this.drainSoon();
          break;
        }
      }
    } catch (err) {
      // e.g. SQLITE_BUSY beyond busy_timeout: the entries stay queued for the next sweep
      this.ctx.log.warn('network queue drain failed', { error: String(err) });
    }
    if (total > 0) this.wakeAt(Date.now() + this.ctx.config.receiptDelayMs);
    return total;
  }

  /**
   * The PDUs of a queued message (content as stored JSON), with one encoder per distinct content of
   * a drain batch. Throws when the content cannot be encoded (the message then fails, refunded).
   */
  encodeQueued(
    contentJson: string,
    recipient: string,
    encoders: Map<string, ReturnType<typeof networkEncoder>>,
  ): Array<NetworkPdu & { summaryJson: string }> {
    let encode = encoders.get(contentJson);
    if (encode === undefined) {
      encode = networkEncoder(JSON.parse(contentJson) as OutboundContent);
      encoders.set(contentJson, encode);
    }
    return encode(recipient);
  }

  private drainBatch(): number {
    const db = this.db;
    // Cheap read first: most sweeps find nothing and must not take the write lock.
    if (!stmt(db, 'SELECT 1 FROM network_queue LIMIT 1').get()) return 0;
    return transaction(db, () => {
      const entries = stmt(
        db,
        'SELECT id, first_message_id, last_message_id FROM network_queue ORDER BY id LIMIT ?',
      ).all(DRAIN_BATCH_ENTRIES) as Array<{ id: number; first_message_id: number; last_message_id: number }>;
      const rowsOf = stmt(
        db,
        `SELECT id, message_identifier, account_id, charged_account_id, recipient, content, cost
           FROM messages WHERE id BETWEEN ? AND ? AND status = 'dispatched' ORDER BY id`,
      );
      const claim = stmt(db, 'DELETE FROM network_queue WHERE id = ?');
      const fail = stmt(
        db,
        "UPDATE messages SET status = 'failed', report = ?, cost = 0, dispatched_at = NULL WHERE id = ?",
      );
      const refund = stmt(db, 'UPDATE accounts SET credit = credit + ? WHERE id = ?');
      const encoders = new Map<string, ReturnType<typeof networkEncoder>>();
      const sink = this.sink();
      let handed = 0;
      for (const e of entries) {
        claim.run(e.id);
        const rows = rowsOf.all(e.first_message_id, e.last_message_id) as Array<{
          id: number;
          message_identifier: string;
          account_id: number;
          charged_account_id: number;
          recipient: string;
          content: string;
          cost: number;
        }>;
        for (const r of rows) {
          let pdus: Array<NetworkPdu & { summaryJson: string }>;
          try {
            pdus = this.encodeQueued(r.content, r.recipient, encoders);
          } catch (err) {
            this.ctx.log.error('dispatch failed', {
              messageIdentifier: r.message_identifier,
              error: String(err),
            });
            fail.run(REPORT.serverError, r.id);
            refund.run(r.cost, r.charged_account_id);
            continue;
          }
          this.store(
            { messageIdentifier: r.message_identifier, accountId: r.account_id, recipient: r.recipient },
            pdus,
            sink,
          );
          handed++;
        }
      }
      sink.flush();
      return entries.length === 0 ? -1 : Math.max(handed, 1);
    });
  }

  /** One timer for the earliest pending receipt (not one per message: a 350-recipient request is one wake-up). */
  private wakeAt(due: number): void {
    if (this.closed) return;
    if (this.wakeTimer && this.wakeDue <= due) return;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeDue = due;
    this.wakeTimer = setTimeout(
      () => {
        this.wakeTimer = null;
        this.wakeDue = Infinity;
        this.deliverDue();
      },
      Math.max(0, due - Date.now()) + 2,
    );
    this.wakeTimer.unref();
  }

  /** Delivers every pending receipt that is due (claimed one by one, so never twice). Never throws. */
  deliverDue(): void {
    if (this.closed) return;
    try {
      this.deliverDueOrThrow();
    } catch (err) {
      // e.g. SQLITE_BUSY beyond busy_timeout: the receipts stay pending for the next sweep
      this.ctx.log.warn('receipt delivery failed', { error: String(err) });
    }
  }

  private deliverDueOrThrow(): void {
    let due: Array<{
      id: number;
      message_identifier: string;
      account_id: number;
      recipient: string;
      report: number;
      part: number;
    }>;
    try {
      due = stmt(
        this.db,
        "SELECT id, message_identifier, account_id, recipient, report, part FROM delivery_receipts WHERE status = 'pending' AND due_at <= ? ORDER BY id LIMIT 500",
      ).all(Date.now()) as typeof due;
    } catch (err) {
      this.ctx.log.warn('receipt sweep failed', { error: String(err) });
      return;
    }
    for (const r of due) {
      const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const claimed = transaction(this.db, () => {
        const res = stmt(
          this.db,
          "UPDATE delivery_receipts SET status = 'delivered', timestamp = ? WHERE id = ? AND status = 'pending'",
        ).run(timestamp, r.id);
        if (Number(res.changes) === 0) return false;
        stmt(
          this.db,
          `UPDATE messages SET status = CASE WHEN ? = 0 AND status <> 'failed' THEN 'delivered' ELSE 'failed' END
             WHERE message_identifier = ? AND status IN ('dispatched', 'delivered')`,
        ).run(r.report, r.message_identifier);
        return true;
      });
      if (!claimed) continue;
      const account = getAccount(this.db, r.account_id);
      const url = account?.pushUrl;
      if (account && url) this.track(() => this.push(r.id, url, account.username, r, timestamp));
    }
    // the next pending receipt (this instance's or the other's) gets the single wake-up timer
    const next = stmt(
      this.db,
      "SELECT MIN(due_at) AS due FROM delivery_receipts WHERE status = 'pending'",
    ).get() as { due: number | null } | undefined;
    if (next?.due !== null && next?.due !== undefined) this.wakeAt(next.due);
  }

  /** Runs pushes at most PUSH_CONCURRENCY at a time (a push receiver is a small endpoint, not a farm). */
  private track(job: () => Promise<void>): void {
    const run = async (): Promise<void> => {
      while (this.activePushes >= PUSH_CONCURRENCY) await new Promise<void>((r) => this.pushWaiters.push(r));
      this.activePushes++;
      try {
        await job();
      } finally {
        this.activePushes--;
        this.pushWaiters.shift()?.();
      }
    };
    const p = run();
    this.pushes.add(p);
    void p.finally(() => this.pushes.delete(p));
  }

  /** POSTs SubmitDeliveryReceipt to the account's push URL and records the outcome. */
  private async push(
    receiptId: number,
    url: string,
    username: string,
    r: { message_identifier: string; recipient: string; report: number },
    timestamp: string,
  ): Promise<void> {
    const envelope = buildRequestEnvelope(
      'SubmitDeliveryReceipt',
      {
        Username: username,
        Timestamp1: timestamp,
        SentTo: r.recipient,
        MessageIdentifier: r.message_identifier,
        Report: r.report,
      },
      this.ctx.profile,
    );
    const error = await postSoap(url, 'SubmitDeliveryReceipt', envelope);
    if (this.closed) return;
    try {
      stmt(this.db, 'UPDATE delivery_receipts SET pushed_at = ?, push_error = ? WHERE id = ?').run(
        error === null ? new Date().toISOString() : null,
        error,
        receiptId,
      );
    } catch {
      /* the store closed meanwhile */
    }
    this.ctx.log.info('receipt pushed', {
      messageIdentifier: r.message_identifier,
      url,
      error: error ?? undefined,
    });
  }

  /** Stores a receipt received through SOAP SubmitDeliveryReceipt. */
  storeReceipt(input: {
    messageIdentifier: string;
    accountId: number;
    recipient: string;
    report: number;
    timestamp: string;
  }): void {
    transaction(this.db, () => {
      stmt(
        this.db,
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
        this.db,
        `UPDATE messages SET status = CASE WHEN ? = 0 THEN 'delivered' ELSE 'failed' END
           WHERE message_identifier = ? AND status IN ('dispatched', 'delivered', 'failed')`,
      ).run(input.report, input.messageIdentifier);
    });
  }

  receiptsFor(messageIdentifier: string): ReceiptRow[] {
    this.drainQueue();
    const rows = stmt(
      this.db,
      'SELECT * FROM delivery_receipts WHERE message_identifier = ? ORDER BY part, id',
    ).all(messageIdentifier) as Array<Record<string, unknown>>;
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

  /** Queues a mobile-originated message for the account whose number is sendTo. */
  injectInbound(input: InboundInput): InboundResult {
    const sendTo = input.sendTo.trim().replace(/^\+/, '');
    const row = stmt(this.db, 'SELECT id FROM accounts WHERE number = ?').get(sendTo) as
      { id: number } | undefined;
    if (!row || (input.onlyAccountId !== undefined && row.id !== input.onlyAccountId))
      return { ok: false, reason: `no account has the number ${sendTo}` };
    if (input.message === '') return { ok: false, reason: 'Message is empty' };
    const id = newMessageIdentifier();
    const timestamp = (input.timestamp ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    stmt(
      this.db,
      'INSERT INTO inbound_messages (message_identifier, account_id, send_to, reply_to, message, timestamp, source) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(id, row.id, sendTo, input.replyTo.trim(), input.message, timestamp, input.source);
    this.ctx.log.info('inbound queued', { messageIdentifier: id, accountId: row.id, source: input.source });
    const account = getAccount(this.db, row.id);
    const url = account?.pushUrl;
    if (account && url) {
      this.track(() =>
        this.pushInbound(url, account.username, id, {
          sendTo,
          replyTo: input.replyTo.trim(),
          message: input.message,
          timestamp,
        }),
      );
    }
    return { ok: true, messageIdentifier: id, accountId: row.id };
  }

  /**
   * Pushes an inbound message as DeliverMessage to the account's push URL. When the receiver takes it,
   * it counts as collected (CollectMessages will not return it again); otherwise it stays queued.
   */
  private async pushInbound(
    url: string,
    username: string,
    id: string,
    m: { sendTo: string; replyTo: string; message: string; timestamp: string },
  ): Promise<void> {
    const envelope = buildRequestEnvelope(
      'DeliverMessage',
      {
        Username: username,
        Recipient: { SendTo: m.sendTo },
        Message: { TextMessage: m.message },
        ReplyTo: m.replyTo,
        Timestamp1: m.timestamp,
      },
      this.ctx.profile,
    );
    const error = await postSoap(url, 'DeliverMessage', envelope);
    if (this.closed) return;
    if (error === null) {
      try {
        stmt(
          this.db,
          'UPDATE inbound_messages SET collected = 1, collected_at = ? WHERE message_identifier = ? AND collected = 0',
        ).run(new Date().toISOString(), id);
      } catch {
        /* the store closed meanwhile */
      }
    }
    this.ctx.log.info('inbound pushed', { messageIdentifier: id, url, error: error ?? undefined });
  }

  /** The account's uncollected inbound messages, marked collected in the same transaction (each once). */
  collect(accountId: number): MOMessage[] {
    return transaction(this.db, () => {
      const rows = stmt(
        this.db,
        'SELECT id, send_to, reply_to, message, timestamp FROM inbound_messages WHERE account_id = ? AND collected = 0 ORDER BY id',
      ).all(accountId) as Array<{
        id: number;
        send_to: string;
        reply_to: string;
        message: string;
        timestamp: string;
      }>;
      const mark = stmt(this.db, 'UPDATE inbound_messages SET collected = 1, collected_at = ? WHERE id = ?');
      const now = new Date().toISOString();
      for (const r of rows) mark.run(now, r.id);
      return rows.map((r) => ({
        SendTo: r.send_to,
        ReplyTo: r.reply_to,
        Timestamp1: r.timestamp,
        Message: { TextMessage: r.message },
      }));
    });
  }

  /** PDUs the network received, oldest first (GET /sandbox/outbound), at most OUTBOUND_PAGE_MAX. */
  outbound(
    filter: {
      accountId?: number;
      messageIdentifier?: string;
      recipient?: string;
      afterId?: number;
      limit?: number;
    } = {},
  ): OutboundPduRow[] {
    this.drainQueue(); // what was accepted is what the network has received
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
    const rows = stmt(
      this.db,
      `SELECT * FROM outbound_pdus WHERE ${where.join(' AND ')} ORDER BY id LIMIT ?`,
    ).all(...args) as Array<Record<string, unknown>>;
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

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    if (this.drainPending) clearTimeout(this.drainPending);
    await Promise.allSettled([...this.pushes]);
  }
}

/**
 * POSTs a SOAP request to a push URL. Returns null when the receiver took it (HTTP 2xx and, when the
 * answer is a response envelope, Report 0), else the reason.
 */
async function postSoap(
  url: string,
  op: 'SubmitDeliveryReceipt' | 'DeliverMessage',
  envelope: string,
): Promise<string | null> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': SOAP_CONTENT_TYPE, soapaction: '""' },
      body: envelope,
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    const body = await res.text();
    if (!res.ok) return `HTTP ${res.status}`;
    let report: number | undefined;
    try {
      report = parseResponseEnvelope(op, body).Report;
    } catch {
      return null; // a 2xx answer that is not our response envelope still means "received"
    }
    return report === 0 ? null : `Report ${report}`;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
