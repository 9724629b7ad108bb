// Scheduled sending (SendTimeDelay / SendTimeAbsolute). Jobs live in the database, so they survive
// a restart: on start every overdue job is sent at once. A job is claimed, its message marked
// dispatched and handed to the network (which stores its PDUs and receipts) in one BEGIN IMMEDIATE
// transaction, so when a primary and a secondary instance share a data directory each scheduled
// message is dispatched by exactly one of them, exactly once, even if a process dies midway.
import type { GatewayContext, MessageRow, SchedulerLike } from './context.ts';
import { transaction } from './store/db.ts';
import { loadMessageRow } from './messages.ts';
import { dispatchWithin } from './submit.ts';
import { REPORT } from '../protocol/reports.ts';

export class Scheduler implements SchedulerLike {
  private timer: NodeJS.Timeout | null = null;
  private pending: NodeJS.Immediate | null = null;
  private closed = false;
  private readonly ctx: GatewayContext;
  private readonly intervalMs: number;

  constructor(ctx: GatewayContext, opts: { intervalMs?: number } = {}) {
    this.ctx = ctx;
    this.intervalMs = opts.intervalMs ?? 1000;
  }

  start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
    this.tick();
  }

  /** Check for due jobs soon (called after a job was added or the clock may have moved). */
  poke(): void {
    if (this.closed || this.pending) return;
    this.pending = setImmediate(() => {
      this.pending = null;
      this.tick();
    });
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.pending) clearImmediate(this.pending);
    this.timer = null;
    this.pending = null;
  }

  private tick(): void {
    if (this.closed) return;
    try {
      this.runDue();
    } catch (err) {
      this.ctx.log.error('scheduler tick failed', { error: String(err) });
    }
  }

  /** Claims and dispatches every job due at `now`; returns how many were dispatched. */
  runDue(now = Date.now()): number {
    const { db, config } = this.ctx;
    // Cheap read first: most ticks find nothing and must not take the write lock.
    const any = db
      .prepare('SELECT 1 FROM scheduled_jobs WHERE claimed_by IS NULL AND due_at <= ? LIMIT 1')
      .get(now);
    if (!any) return 0;
    const claimedAt = new Date(now).toISOString();
    const rows = transaction(db, () => {
      const due = db
        .prepare(
          'SELECT message_id FROM scheduled_jobs WHERE claimed_by IS NULL AND due_at <= ? ORDER BY due_at LIMIT 500',
        )
        .all(now) as Array<{ message_id: number }>;
      const claim = db.prepare(
        'UPDATE scheduled_jobs SET claimed_by = ?, claimed_at = ? WHERE message_id = ? AND claimed_by IS NULL',
      );
      const refund = db.prepare('UPDATE accounts SET credit = credit + ? WHERE id = ?');
      const fail = db.prepare(
        "UPDATE messages SET status = 'failed', report = ?, cost = 0, dispatched_at = NULL WHERE id = ?",
      );
      const mark = db.prepare(
        "UPDATE messages SET status = 'dispatched', dispatched_at = ? WHERE id = ? AND status = 'scheduled'",
      );
      const out: MessageRow[] = [];
      for (const { message_id } of due) {
        if (claim.run(config.instance, claimedAt, message_id).changes !== 1) continue;
        if (mark.run(claimedAt, message_id).changes !== 1) continue; // cancelled or deleted meanwhile
        const row = loadMessageRow(db, message_id);
        if (!row) continue;
        // Claim, status and the network's rows commit together: exactly once, even across a crash.
        if (dispatchWithin(this.ctx, row) !== null) {
          refund.run(row.cost, row.chargedAccountId);
          fail.run(REPORT.serverError, message_id);
          continue;
        }
        out.push(row);
      }
      return out;
    });
    if (rows.length > 0)
      this.ctx.log.info('scheduled messages dispatched', { count: rows.length, instance: config.instance });
    return rows.length;
  }
}
