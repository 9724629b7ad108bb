// Campaigns (issue 12) on the outbox journal (./outbox-journal.ts): a send to more than one recipient
// together with its resends (outbox_jobs.resend_of, followed down from the first send) is one
// campaign. Each recipient's row is its LATEST attempt, so a number resent and delivered no longer
// counts as failed, and "resend to failed" can never pick a number whose resend is pending: it is
// worked out and journaled in one transaction, through the journal's resendToRecipients.
//
// Also here: at "Continue sending" (issue 17), recipients of the still-pending batches that opted
// out AFTER the send was journaled are taken out of those batches (never requested, never sent).
import type { AppDb } from './db.ts';
import { StoreError } from './errors.ts';
import { MESSAGE_COLUMNS, rowAs, rowsAs } from './rows.ts';
import type { MessageRow } from './rows.ts';
import type { OutboxJournal } from './outbox-journal.ts';
import { EMPTY_COUNTS, campaignRoot, toOutcome } from './outbox-reads.ts';
import type { Campaign, CampaignRow, OutboundStatus, OutboxJob, StatusCounts } from '../../preload/api.ts';

/** A send to more recipients than this is a campaign (no Inbox conversation per recipient either). */
export const CAMPAIGN_MIN_RECIPIENTS = 2;

/** The statuses "Resend to failed" sends again: the gateway refused, or a receipt said not delivered. */
export const FAILED_STATUSES: readonly OutboundStatus[] = ['rejected', 'failed'];

/** Splits numbers into those that may be sent to and those on the opt-out list. */
export type OptedOut = (numbers: readonly string[]) => { kept: string[]; skipped: string[] };

export const OPTED_OUT_REASON = 'not sent: the number opted out after the send was journaled';

/** The campaign's sends, first to last. */
function campaignJobIds(app: AppDb, rootId: number): number[] {
  return rowsAs<{ id: number }>(
    app.db
      .prepare(
        `WITH RECURSIVE tree(id) AS (SELECT ? UNION SELECT j.id FROM outbox_jobs j JOIN tree t ON j.resend_of = t.id)
         SELECT id FROM tree ORDER BY id`,
      )
      .all(rootId),
  ).map((r) => r.id);
}

/**
 * The campaign `jobId` belongs to: its first send, every send of it, one row per recipient (the
 * latest attempt, in the first send's order) and the counts of exactly those rows.
 */
export function readCampaign(
  app: AppDb,
  journal: OutboxJournal,
  jobId: number,
  options: { optedOut?: OptedOut; now?: number } = {},
): Campaign {
  const now = options.now ?? Date.now();
  const rootId = campaignRoot(app, jobId);
  const root = journal.job(rootId);
  if (!root) throw new StoreError('not-found', `no outbox job ${jobId}`);
  const jobIds = campaignJobIds(app, rootId);
  const byPeer = new Map<string, CampaignRow>();
  const rows = app.db.prepare(
    `SELECT ${MESSAGE_COLUMNS} FROM messages m JOIN outbox_batches b ON b.id = m.batch_id
      WHERE b.job_id = ? AND m.direction = 'out' ORDER BY b.seq, m.position`,
  );
  for (const id of jobIds) {
    for (const r of rowsAs<MessageRow>(rows.all(id))) {
      const before = byPeer.get(r.peer);
      // Re-inserting keeps the first send's order (Map keeps the first insertion's place).
      byPeer.set(r.peer, {
        ...toOutcome(r, now),
        jobId: id,
        attempts: (before?.attempts ?? 0) + 1,
        optedOut: false,
      });
    }
  }
  const list = [...byPeer.values()];
  if (options.optedOut) {
    const listed = new Set(options.optedOut(list.map((r) => r.to)).skipped);
    for (const r of list) r.optedOut = listed.has(r.to);
  }
  const counts: StatusCounts = { ...EMPTY_COUNTS };
  for (const r of list) counts[r.status] += 1;
  return { job: root, jobIds, rows: list, counts };
}

/**
 * "Resend to failed": one new send (resend_of the first send, each recipient's own merged text) to
 * the recipients whose latest attempt failed, without those `isOptedOut` says no to. Worked out
 * and journaled in one transaction, so a second click finds those recipients pending, not failed.
 */
export function resendFailed(
  app: AppDb,
  journal: OutboxJournal,
  jobId: number,
  isOptedOut: OptedOut,
): { job: OutboxJob; optedOut: number } {
  return app.transaction(() => {
    const c = readCampaign(app, journal, jobId);
    const failed = c.rows.filter((r) => FAILED_STATUSES.includes(r.status)).map((r) => r.to);
    if (failed.length === 0)
      throw new StoreError('invalid-state', 'no recipient of this campaign has failed (any more)');
    const { kept, skipped } = isOptedOut(failed);
    if (kept.length === 0)
      throw new StoreError(
        'invalid-state',
        `every failed recipient is on the opt-out list (${skipped.length}); nothing was sent`,
      );
    return { job: journal.resendToRecipients(c.job.id, kept), optedOut: skipped.length };
  });
}

/**
 * Before "Continue sending": recipients of the job's pending batches on `optedOut` are never
 * requested. A batch left with only such recipients becomes 'rejected' (one with Cc/Bcc stays
 * pending for them); otherwise they move to a new 'rejected' batch of the same job (a batch's rows
 * stay its SendTo list). Returns how many.
 */
export function skipOptedOutPending(
  app: AppDb,
  jobId: number,
  isOptedOut: OptedOut,
  now = Date.now(),
): number {
  return app.transaction(() => {
    const pending = rowsAs<{ id: number; extra_fields: string | null }>(
      app.db
        .prepare(
          "SELECT id, extra_fields FROM outbox_batches WHERE job_id = ? AND state = 'pending' ORDER BY seq",
        )
        .all(jobId),
    );
    const peersOf = app.db.prepare('SELECT id, peer FROM messages WHERE batch_id = ? ORDER BY position');
    const reject = app.db.prepare(
      "UPDATE messages SET status = 'rejected', report_text = ?, answered_at = ? WHERE id = ?",
    );
    const move = app.db.prepare('UPDATE messages SET batch_id = ?, position = ? WHERE id = ?');
    let skippedTotal = 0;
    let newBatch: number | null = null;
    let newPosition = 0;
    for (const b of pending) {
      const rows = rowsAs<{ id: number; peer: string }>(peersOf.all(b.id));
      const skipped = new Set(isOptedOut(rows.map((r) => r.peer)).skipped);
      if (skipped.size === 0) continue;
      const out = rows.filter((r) => skipped.has(r.peer));
      skippedTotal += out.length;
      for (const r of out) reject.run(OPTED_OUT_REASON, now, r.id);
      // Issue 16: a batch that also carries Cc/Bcc stays pending for them, without its numbers.
      if (out.length === rows.length && b.extra_fields === null) {
        app.db
          .prepare("UPDATE outbox_batches SET state = 'rejected', finished_at = ?, reason = ? WHERE id = ?")
          .run(now, OPTED_OUT_REASON, b.id);
        continue;
      }
      if (newBatch === null) {
        const seq =
          (rowAs<{ s: number }>(
            app.db.prepare('SELECT max(seq) AS s FROM outbox_batches WHERE job_id = ?').get(jobId),
          )?.s ?? 0) + 1;
        newBatch =
          rowAs<{ id: number }>(
            app.db
              .prepare(
                "INSERT INTO outbox_batches (job_id, seq, state, created_at, finished_at, reason) VALUES (?, ?, 'rejected', ?, ?, ?) RETURNING id",
              )
              .get(jobId, seq, now, now, OPTED_OUT_REASON),
          )?.id ?? null;
        if (newBatch === null) throw new StoreError('invalid-state', 'the skipped batch was not journaled');
      }
      for (const r of out) move.run(newBatch, newPosition++, r.id);
    }
    return skippedTotal;
  });
}

/**
 * Issue 16: a claimed ('sending') batch that must not go after all — its book's member or a Cc/Bcc
 * number opted out after the send was journaled, or the book could not be read to check it — is
 * 'rejected' with the reason, its numbers too, never requested.
 */
export function refuseClaimedBatch(app: AppDb, batchId: number, reason: string, now = Date.now()): void {
  app.transaction(() => {
    const changed = app.db
      .prepare(
        "UPDATE outbox_batches SET state = 'rejected', finished_at = ?, reason = ? WHERE id = ? AND state = 'sending'",
      )
      .run(now, reason, batchId).changes;
    if (Number(changed) === 0)
      throw new StoreError('invalid-state', `outbox batch ${batchId} is not being sent: not refused`);
    app.db
      .prepare("UPDATE messages SET status = 'rejected', report_text = ?, answered_at = ? WHERE batch_id = ?")
      .run(reason, now, batchId);
  });
}
