// The simulated network's pushes to an account's push URL: SubmitDeliveryReceipt for a delivery
// receipt and DeliverMessage for an inbound message, SOAP over HTTP, at most PUSH_CONCURRENCY at a
// time; each outcome is recorded in the database (pushed_at/push_error, or the inbound message
// counted as collected).
//
// Issue 17: a receipt whose push failed, or that fell due while the account had no push URL (the
// app stopped), is pushed again, as webhook senders do: after PUSH_RETRY_BASE_MS, doubling, at most
// PUSH_RETRY_MAX_DELAY_MS apart, at most MAX_PUSH_ATTEMPTS times (about a day and a half in all),
// each time to the account's push URL of that moment. `retryDue` runs from the network's sweeper.
import type { DatabaseSync } from 'node:sqlite';
import { Agent, request } from 'undici';
import { buildRequestEnvelope, parseResponseEnvelope } from '../../protocol/soap/envelope.ts';
import { charsetOf } from '../../protocol/soap/xml-encoding.ts';
import { SOAP_CONTENT_TYPE } from '../../protocol/soap/namespaces.ts';
import type { GatewayContext } from '../context.ts';
import { stmt, transaction } from '../store/db.ts';
import { getAccount } from '../accounts.ts';

const PUSH_TIMEOUT_MS = 5000;
const PUSH_CONCURRENCY = 8;
/**
 * Pushes queued or under way at most (issue 15): due receipts beyond this stay pending in the
 * database and are claimed as pushes finish (`onRoom`), so a campaign of 100,000 never holds
 * 100,000 waiting pushes in memory (nor makes close() wait for them all).
 */
export const PUSH_BACKLOG_MAX = PUSH_CONCURRENCY * 8;
/**
 * A claimed receipt's lease: claiming sets next_push_at this far ahead, and recordAttempt replaces it
 * with the outcome. A gateway that stops (kill -9, a crash, a clean stop with pushes queued) between
 * claiming and recording leaves the lease, so retryDue pushes it once the lease runs out instead of
 * never. Longer than the longest a claimed push can wait: a full backlog at PUSH_CONCURRENCY, each
 * push up to PUSH_TIMEOUT_MS.
 */
export const PUSH_LEASE_MS = 2 * (PUSH_BACKLOG_MAX / PUSH_CONCURRENCY + 1) * PUSH_TIMEOUT_MS;
export const PUSH_RETRY_BASE_MS = 5000;
export const PUSH_RETRY_MAX_DELAY_MS = 60 * 60 * 1000;
export const MAX_PUSH_ATTEMPTS = 40;

/** The delay before attempt `attempts + 1` (attempts made so far ≥ 1). */
export function pushRetryDelay(attempts: number): number {
  return Math.min(PUSH_RETRY_MAX_DELAY_MS, PUSH_RETRY_BASE_MS * 2 ** Math.min(20, attempts - 1));
}

export class Pusher {
  private readonly ctx: GatewayContext;
  private readonly db: DatabaseSync;
  private readonly pushes = new Set<Promise<void>>();
  private activePushes = 0;
  private readonly pushWaiters: Array<() => void> = [];
  private closed = false;
  private readonly onRoom: () => void;
  /**
   * The pushes' connections, kept alive between pushes (as fetch's global dispatcher did), closed
   * with the pusher. undici's request, not fetch: a push is one small POST whose whole answer is
   * read, and fetch's WHATWG streams cost about as much CPU again per push (issue 27 item 6).
   */
  private readonly agent = new Agent({ connections: PUSH_CONCURRENCY });
  /** Receipts taken by the receiver, recorded together once per turn of the event loop (recordTaken). */
  private taken: Array<{ id: number; at: string }> = [];
  private takenTimer: NodeJS.Immediate | null = null;

  /** `onRoom`: called when the backlog fell to half of PUSH_BACKLOG_MAX (claim more receipts). */
  constructor(ctx: GatewayContext, onRoom: () => void = () => {}) {
    this.ctx = ctx;
    this.db = ctx.db;
    this.onRoom = onRoom;
  }

  /** How many more pushes may be queued now. */
  room(): number {
    return PUSH_BACKLOG_MAX - this.pushes.size;
  }

  /** Runs pushes at most PUSH_CONCURRENCY at a time (a push receiver is a small endpoint, not a farm). */
  track(job: () => Promise<void>): void {
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
    void p.finally(() => {
      this.pushes.delete(p);
      if (!this.closed && this.pushes.size === PUSH_BACKLOG_MAX / 2) this.onRoom();
    });
  }

  /** POSTs SubmitDeliveryReceipt to the account's push URL and records the outcome. */
  async receipt(
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
    const error = await postSoap(this.agent, url, 'SubmitDeliveryReceipt', envelope);
    if (this.closed) return;
    this.recordAttempt(receiptId, error);
    this.ctx.log.info('receipt pushed', {
      messageIdentifier: r.message_identifier,
      url,
      error: error ?? undefined,
    });
  }

  /**
   * Pushes an inbound message as DeliverMessage to the account's push URL. When the receiver takes it,
   * it counts as collected (CollectMessages will not return it again); otherwise it stays queued.
   */
  async inbound(
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
    const error = await postSoap(this.agent, url, 'DeliverMessage', envelope);
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

  /** Records a push attempt of a receipt: pushed, or the next attempt scheduled (or given up). */
  recordAttempt(receiptId: number, error: string | null): void {
    try {
      if (error === null) {
        // Taken: recorded with the others taken in this turn, in one transaction (a commit per
        // receipt was most of a push's database time). Until then its lease keeps it from retryDue;
        // a stop before it is recorded pushes it again once the lease runs out, as for any stop
        // between a push and its record.
        this.taken.push({ id: receiptId, at: new Date().toISOString() });
        this.takenTimer ??= setImmediate(() => this.recordTaken());
        return;
      }
      const row = stmt(this.db, 'SELECT push_attempts FROM delivery_receipts WHERE id = ?').get(receiptId) as
        { push_attempts: number } | undefined;
      const attempts = (row?.push_attempts ?? 0) + 1;
      const next =
        error === null || attempts >= MAX_PUSH_ATTEMPTS ? null : Date.now() + pushRetryDelay(attempts);
      stmt(
        this.db,
        'UPDATE delivery_receipts SET pushed_at = ?, push_error = ?, push_attempts = ?, next_push_at = ? WHERE id = ?',
      ).run(error === null ? new Date().toISOString() : null, error, attempts, next, receiptId);
      if (error !== null && next === null)
        this.ctx.log.warn('receipt push given up', { receiptId, attempts, error });
    } catch {
      /* the store closed meanwhile */
    }
  }

  /** Records the receipts taken since the last call: pushed, no next attempt (one statement each, no read first). */
  private recordTaken(): void {
    if (this.takenTimer) clearImmediate(this.takenTimer);
    this.takenTimer = null;
    const taken = this.taken;
    this.taken = [];
    if (taken.length === 0) return;
    try {
      transaction(this.db, () => {
        const record = stmt(
          this.db,
          'UPDATE delivery_receipts SET pushed_at = ?, push_error = NULL, push_attempts = push_attempts + 1, next_push_at = NULL WHERE id = ?',
        );
        for (const t of taken) record.run(t.at, t.id);
      });
    } catch {
      /* the store closed meanwhile: their leases run out and they are pushed again */
    }
  }

  /** Pushes again the receipts whose next attempt is due (claimed first: one instance each). */
  retryDue(): void {
    if (this.closed) return;
    let due: Array<{
      id: number;
      message_identifier: string;
      account_id: number | null;
      recipient: string;
      report: number;
      timestamp: string | null;
    }>;
    try {
      due = stmt(
        this.db,
        'SELECT id, message_identifier, account_id, recipient, report, timestamp FROM delivery_receipts WHERE next_push_at IS NOT NULL AND next_push_at <= ? ORDER BY next_push_at LIMIT 100',
      ).all(Date.now()) as typeof due;
    } catch {
      return;
    }
    const now = Date.now();
    for (const r of due) {
      // Claimed with a new lease (one instance each; a stop before the outcome is recorded retries).
      const claimed = stmt(
        this.db,
        'UPDATE delivery_receipts SET next_push_at = ? WHERE id = ? AND next_push_at IS NOT NULL AND next_push_at <= ?',
      ).run(now + PUSH_LEASE_MS, r.id, now);
      if (Number(claimed.changes) === 0) continue;
      const account = r.account_id === null ? null : getAccount(this.db, r.account_id);
      const url = account?.pushUrl;
      const timestamp = r.timestamp ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      if (account && url) this.track(() => this.receipt(r.id, url, account.username, r, timestamp));
      else this.recordAttempt(r.id, 'no push URL');
    }
  }

  /** Stops recording outcomes and waits for the pushes under way. */
  async close(): Promise<void> {
    this.closed = true;
    this.recordTaken(); // before anything else can close the store
    await Promise.allSettled([...this.pushes]);
    await this.agent.close();
  }
}

/**
 * POSTs a SOAP request to a push URL. Returns null when the receiver took it (HTTP 2xx and, when the
 * answer is a response envelope, Report 0), else the reason.
 */
async function postSoap(
  agent: Agent,
  url: string,
  op: 'SubmitDeliveryReceipt' | 'DeliverMessage',
  envelope: string,
): Promise<string | null> {
  try {
    const res = await request(url, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': SOAP_CONTENT_TYPE, soapaction: '""' },
      body: envelope,
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    const body = new Uint8Array(await res.body.arrayBuffer());
    if (res.statusCode < 200 || res.statusCode > 299) return `HTTP ${res.statusCode}`;
    let report: number | undefined;
    try {
      // in the encoding the answer declares (issue 24)
      const type = res.headers['content-type'];
      const charset = charsetOf(Array.isArray(type) ? type.join(', ') : type);
      report = parseResponseEnvelope(op, body, { charset }).Report;
    } catch {
      return null; // a 2xx answer that is not our response envelope still means "received"
    }
    return report === 0 ? null : `Report ${report}`;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
