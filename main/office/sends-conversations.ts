// Issue 28, office mode: another desk's send makes or updates this desk's Inbox conversations as it
// did at the desk that sent it (docs/OFFICE.md "Sends"). There, a send to one number lists (or
// updates) its conversation and a campaign's recipients get unlisted ones (main/store/outbox-jobs.ts
// createJob, outbox-write.ts ensureCampaignConversations); the messages' insert trigger (app
// migration 001) sets each conversation's last activity and last message. Here the send has no
// `messages` rows (sends-local.ts), so as its recipients are stored, in the same transaction, a send to
// one number lists its conversation under the send's account (when its number is first stored), and
// any conversation of a number already here (listed or not) takes the send's time as its last activity
// and the recipient as its last message when it is the newest — the reference is minus the shared
// row's rowid, as its thread message id (sends-thread.ts), which never meets a message id; the
// conversation list reads it (main/store/conversations.ts). Unread counts are not touched (outbound).
import type { AppDb } from '../store/db.ts';
import { rowAs, rowsAs } from '../store/rows.ts';
import { stmt } from '../../storage/sqlite.ts';

/**
 * Of `peers` (call before storing them), those whose conversations mirrorConversations is to see: a
 * single recipient when it is not stored here yet (a send to one number lists its conversation once:
 * a state or receipt of it coming later does not bring back a conversation deleted here meanwhile);
 * several are a campaign's, whose update is idempotent (only a conversation it changes is written), so
 * they are not looked up one by one.
 */
export function newPeers(app: AppDb, jobId: number, peers: readonly string[]): readonly string[] {
  if (peers.length !== 1) return peers;
  const known = stmt(app.db, 'SELECT 1 FROM office_send_recipients WHERE job_id = ? AND peer = ?').get(
    jobId,
    peers[0]!,
  );
  return known === undefined ? peers : [];
}

/**
 * Whether another desk's send `jobId` is a campaign as createJob decides it: more than one recipient,
 * a server book or Cc/Bcc, or a resend of a send that was one (its parent or its campaign's first).
 */
function isCampaignHere(app: AppDb, jobId: number): boolean {
  const one = stmt(
    app.db,
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM office_send_recipients WHERE job_id = ?1 LIMIT 2)) > 1
         OR EXISTS (SELECT 1 FROM office_send_batches WHERE job_id = ?1) AS campaign`,
  );
  const jobs = new Set<number>([jobId]);
  let id: number | null = jobId;
  for (let depth = 0; id !== null && depth < 10_000; depth++) {
    id =
      rowAs<{ resend_of: number | null }>(
        stmt(app.db, 'SELECT resend_of FROM outbox_jobs WHERE id = ?').get(id),
      )?.resend_of ?? null;
    if (id !== null) jobs.add(id);
  }
  return [...jobs].some((j) => rowAs<{ campaign: number }>(one.get(j))?.campaign === 1);
}

/**
 * The conversations of another desk's send `jobId` whose recipients `peers` (as newPeers gave them)
 * were just stored here (call after storing them, inside the same transaction).
 */
export function mirrorConversations(app: AppDb, jobId: number, peers: readonly string[]): void {
  if (peers.length === 0) return;
  const job = rowAs<{ account_id: string | null; created_at: number }>(
    stmt(app.db, 'SELECT account_id, created_at FROM outbox_jobs WHERE id = ?').get(jobId),
  );
  if (!job || job.account_id === null) return;
  // the recipients just stored (?3: the job, ?4: their numbers), each with its reference
  const fresh = `SELECT r.peer, -r.rowid AS ref FROM office_send_recipients r
                  WHERE r.job_id = ?3 AND r.peer IN (SELECT value FROM json_each(?4))`;
  if (isCampaignHere(app, jobId)) {
    // a campaign lists nothing: a conversation already here shows it as its last message
    stmt(
      app.db,
      `UPDATE conversations SET last_activity_at = max(last_activity_at, ?1),
              last_message_id = CASE WHEN ?1 >= last_activity_at THEN f.ref ELSE last_message_id END
         FROM (${fresh}) AS f
        WHERE conversations.account_id = ?2 AND conversations.peer = f.peer
          AND (?1 > last_activity_at OR (?1 = last_activity_at AND last_message_id IS NOT f.ref))`,
    ).run(job.created_at, job.account_id, jobId, JSON.stringify(peers));
    return;
  }
  // a send to one number: its conversation listed (as ConversationsRepo.ensure lists it at the sender)
  stmt(
    app.db,
    `INSERT INTO conversations (account_id, peer, last_activity_at, last_message_id)
     SELECT ?1, f.peer, ?2, f.ref FROM (${fresh}) AS f WHERE true
     ON CONFLICT (account_id, peer) DO UPDATE SET campaign_only = 0,
            last_activity_at = max(last_activity_at, excluded.last_activity_at),
            last_message_id = CASE WHEN excluded.last_activity_at >= last_activity_at
                                   THEN excluded.last_message_id ELSE last_message_id END`,
  ).run(job.account_id, job.created_at, jobId, JSON.stringify(peers));
}

/**
 * Other desks' sends stored here before this desk kept their conversations (a desk updated while in
 * office mode): each mirrored as if just stored, oldest first, so the newest is each conversation's
 * last message. Call once, inside a transaction.
 */
export function mirrorStored(app: AppDb): void {
  const peersOf = stmt(app.db, 'SELECT peer FROM office_send_recipients WHERE job_id = ? ORDER BY position');
  for (const { job_id } of rowsAs<{ job_id: number }>(
    stmt(
      app.db,
      'SELECT s.job_id FROM office_sends s JOIN outbox_jobs j ON j.id = s.job_id ORDER BY j.created_at, j.id',
    ).all(),
  ))
    mirrorConversations(
      app,
      job_id,
      rowsAs<{ peer: string }>(peersOf.all(job_id)).map((r) => r.peer),
    );
}
