// Campaigns (issue 12) on the outbox journal (./outbox-journal.ts): a send to more than one recipient
// together with its resends (outbox_jobs.resend_of, followed down from the first send) is one
// campaign. Each recipient's row is its LATEST attempt, so a number resent and delivered no longer
// counts as failed, and "resend to failed" can never pick a number whose resend is pending: it is
// worked out and journaled in one transaction, through the journal's resendToRecipients.
//
// The journal writes every state (a resend journaled, opted-out recipients skipped at "Continue
// sending", issue 27); campaigns only read, and ask the journal.
import type { AppDb } from './db.ts';
import { StoreError } from './errors.ts';
import { rowsAs } from './rows.ts';
import type { OptedOut, OutboxJournal } from './outbox-journal.ts';
import { campaignRoot, countByStatus, jobRecipientRows, toOutcome } from './outbox-reads.ts';
import { FAILED_STATUSES } from '../../domain/status-groups.ts';
import type { Campaign, CampaignRow, OutboxJob } from '../../domain/index.ts';

/** A send to more recipients than this is a campaign (no Inbox conversation per recipient either). */
export const CAMPAIGN_MIN_RECIPIENTS = 2;

/** The statuses "Resend to failed" sends again: the gateway refused, or a receipt said not delivered. */
export { FAILED_STATUSES } from '../../domain/status-groups.ts';

export type { OptedOut } from './outbox-journal.ts';
export { OPTED_OUT_REASON } from './outbox-journal.ts';

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
  for (const id of jobIds) {
    // Its `messages` rows and its lean ones (issue 27 item 6), in journal order.
    for (const r of jobRecipientRows(app, id)) {
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
  return { job: root, jobIds, rows: list, counts: countByStatus(list) };
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

/** The campaigns of the app's journal, as the services ask for them (they hold no database handle). */
export class OutboxCampaigns {
  readonly #app: AppDb;
  readonly #journal: OutboxJournal;

  constructor(app: AppDb, journal: OutboxJournal) {
    this.#app = app;
    this.#journal = journal;
  }

  read(jobId: number, options: { optedOut?: OptedOut; now?: number } = {}): Campaign {
    return readCampaign(this.#app, this.#journal, jobId, options);
  }

  resendFailed(jobId: number, isOptedOut: OptedOut): { job: OutboxJob; optedOut: number } {
    return resendFailed(this.#app, this.#journal, jobId, isOptedOut);
  }
}
