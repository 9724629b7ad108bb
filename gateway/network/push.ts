// The simulated network's pushes to an account's push URL: SubmitDeliveryReceipt for a delivery
// receipt and DeliverMessage for an inbound message, SOAP over HTTP, at most PUSH_CONCURRENCY at a
// time; each outcome is recorded in the database (pushed_at/push_error, or the inbound message
// counted as collected).
import type { DatabaseSync } from 'node:sqlite';
import { buildRequestEnvelope, parseResponseEnvelope } from '../../protocol/soap/envelope.ts';
import { SOAP_CONTENT_TYPE } from '../../protocol/soap/namespaces.ts';
import type { GatewayContext } from '../context.ts';
import { stmt } from '../store/db.ts';

const PUSH_TIMEOUT_MS = 5000;
const PUSH_CONCURRENCY = 8;

export class Pusher {
  private readonly ctx: GatewayContext;
  private readonly db: DatabaseSync;
  private readonly pushes = new Set<Promise<void>>();
  private activePushes = 0;
  private readonly pushWaiters: Array<() => void> = [];
  private closed = false;

  constructor(ctx: GatewayContext) {
    this.ctx = ctx;
    this.db = ctx.db;
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
    void p.finally(() => this.pushes.delete(p));
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

  /** Stops recording outcomes and waits for the pushes under way. */
  async close(): Promise<void> {
    this.closed = true;
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
