// The simulated mobile network behind the gateway (the sandbox SMSC). Every accepted message becomes
// the SMS-SUBMIT PDUs a real SMSC would get (encoded by protocol/smart through ./encode.ts), stored in
// outbound_pdus; each part gets a delivery receipt after config.receiptDelayMs with an outcome that
// depends only on the recipient number (see receiptOutcome), kept in delivery_receipts and pushed as a
// SubmitDeliveryReceipt SOAP request to the account's push URL when one is set. Receipts wait in the
// database (status pending, due_at), so a restart or the other instance on the same data directory
// delivers them; each is claimed in a transaction and so delivered exactly once.
// Inbound (mobile-originated) messages are queued for the account whose number they are sent to and
// handed out once by CollectMessages.
import type { DatabaseSync } from 'node:sqlite';
import type { MOMessage } from '../../protocol/soap/operations.ts';
import { REPORT } from '../../protocol/reports.ts';
import { LIMITS } from '../../protocol/limits.ts';
import type { GatewayContext, MessageRow, NetworkLike } from '../context.ts';
import type { OutboundContent } from '../content.ts';
import { getAccount } from '../accounts.ts';
import { newMessageIdentifier } from '../submit.ts';
import { stmt, transaction } from '../store/db.ts';
import { encodeForNetwork, networkEncoder } from './encode.ts';
import type { NetworkPdu } from './encode.ts';
import { networkSink } from './batch-insert.ts';
import type { NetworkSink } from './batch-insert.ts';
import { PUSH_LEASE_MS, Pusher } from './push.ts';
import { collectInbound, readOutbound, readReceipts, storeSoapReceipt } from './records.ts';
import type { OutboundFilter, OutboundPduRow, ReceiptRow } from './records.ts';

export { OUTBOUND_PAGE_MAX } from './records.ts';
export type { OutboundPduRow, ReceiptRow } from './records.ts';

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

const SWEEP_MS = 1000;
/** Queue entries (send requests, ≤ LIMITS.maxRecipientsPerRequest messages each) claimed per drain transaction. */
const DRAIN_BATCH_ENTRIES = 4;
const DRAIN_BATCH_MESSAGES = DRAIN_BATCH_ENTRIES * LIMITS.maxRecipientsPerRequest;
/**
 * How long after a send request the queue is drained at the latest. The drain usually happens
 * sooner: while a large request waits for its number checks (idle main thread, see NumberChecker),
 * and before anything reads the network's state (outbound, receiptsFor).
 */
const DRAIN_DELAY_MS = 20;

export class NetworkSimulator implements NetworkLike {
  readonly ctx: GatewayContext;
  private readonly db: DatabaseSync;
  private wakeTimer: NodeJS.Timeout | null = null;
  private wakeDue = Infinity;
  private drainPending: NodeJS.Timeout | null = null;
  private readonly sweeper: NodeJS.Timeout;
  private readonly pusher: Pusher;
  private closed = false;

  constructor(ctx: GatewayContext) {
    this.ctx = ctx;
    this.db = ctx.db;
    this.pusher = new Pusher(ctx, () => this.deliverDue());
    this.sweeper = setInterval(
      () => {
        // entries left by a crash, a restart or the other instance on the same data directory
        this.drainQueue();
        this.deliverDue();
        this.pusher.retryDue(); // issue 17: failed receipt pushes, with back-off
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
      const sink = networkSink(this.db);
      this.store(message, encode(message.recipient), sink);
      sink.flush();
    });
    if (receiptOutcome(message.recipient) !== 'none')
      this.wakeAt(Date.now() + this.ctx.config.receiptDelayMs);
  }

  /** Stores the PDUs of one message and a pending receipt per part (through the caller's sink). */
  private store(
    message: { messageIdentifier: string; accountId: number; recipient: string },
    pdus: Array<NetworkPdu & { summaryJson: string }>,
    sink: NetworkSink,
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
      const sink = networkSink(this.db);
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
    // Issue 15: at most as many as the pusher has room for (the rest stays pending until pushes
    // finish), claimed in one transaction, each account read once; oldest due first in the order of
    // the delivery_receipts_due index (ORDER BY id sorted every due receipt to take a few).
    const limit = Math.min(500, this.pusher.room());
    if (limit <= 0) return;
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
        "SELECT id, message_identifier, account_id, recipient, report, part FROM delivery_receipts WHERE status = 'pending' AND due_at <= ? ORDER BY due_at, id LIMIT ?",
      ).all(Date.now(), limit) as typeof due;
    } catch (err) {
      this.ctx.log.warn('receipt sweep failed', { error: String(err) });
      return;
    }
    const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    // Claimed (pending → delivered) together, so each is delivered once, also with two instances,
    // each with a lease (PUSH_LEASE_MS): pushed again later if this process stops before its push
    // is recorded.
    const lease = Date.now() + PUSH_LEASE_MS;
    const claimed =
      due.length === 0
        ? []
        : transaction(this.db, () =>
            due.filter((r) => {
              const res = stmt(
                this.db,
                "UPDATE delivery_receipts SET status = 'delivered', timestamp = ?, next_push_at = ? WHERE id = ? AND status = 'pending'",
              ).run(timestamp, lease, r.id);
              if (Number(res.changes) === 0) return false;
              stmt(
                this.db,
                `UPDATE messages SET status = CASE WHEN ? = 0 AND status <> 'failed' THEN 'delivered' ELSE 'failed' END
                   WHERE message_identifier = ? AND status IN ('dispatched', 'delivered')`,
              ).run(r.report, r.message_identifier);
              return true;
            }),
          );
    const accounts = new Map<number, ReturnType<typeof getAccount>>();
    for (const r of claimed) {
      if (!accounts.has(r.account_id)) accounts.set(r.account_id, getAccount(this.db, r.account_id));
      const account = accounts.get(r.account_id);
      const url = account?.pushUrl;
      if (account && url)
        this.pusher.track(() => this.pusher.receipt(r.id, url, account.username, r, timestamp));
      // No push URL now (the app stopped): tried again later, when it may be back (issue 17).
      else if (account) this.pusher.recordAttempt(r.id, 'no push URL');
    }
    // the next pending receipt (this instance's or the other's) gets the single wake-up timer
    const next = stmt(
      this.db,
      "SELECT MIN(due_at) AS due FROM delivery_receipts WHERE status = 'pending'",
    ).get() as { due: number | null } | undefined;
    if (next?.due !== null && next?.due !== undefined) this.wakeAt(next.due);
  }

  /** Stores a receipt received through SOAP SubmitDeliveryReceipt. */
  storeReceipt(input: {
    messageIdentifier: string;
    accountId: number;
    recipient: string;
    report: number;
    timestamp: string;
  }): void {
    storeSoapReceipt(this.db, input);
  }

  receiptsFor(messageIdentifier: string): ReceiptRow[] {
    this.drainQueue();
    return readReceipts(this.db, messageIdentifier);
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
      this.pusher.track(() =>
        this.pusher.inbound(url, account.username, id, {
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
   * A page (COLLECT_PAGE_MAX) of the account's uncollected inbound messages, turned into the answer by
   * `answer` and marked collected in one transaction (each once; nothing marked when `answer` throws).
   */
  collect<T>(accountId: number, answer: (items: MOMessage[]) => T, limit?: number): T {
    return collectInbound(this.db, accountId, answer, limit);
  }

  /** PDUs the network received, oldest first (GET /sandbox/outbound), at most OUTBOUND_PAGE_MAX. */
  outbound(filter: OutboundFilter = {}): OutboundPduRow[] {
    this.drainQueue(); // what was accepted is what the network has received
    return readOutbound(this.db, filter);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    if (this.drainPending) clearTimeout(this.drainPending);
    await this.pusher.close();
  }
}
