// Issue 28, sends shared between desks (docs/OFFICE.md "Sends"): a desk joining an office shares the
// sends it made before — on its own, or in another office database (a restored one has a new id) —
// of the account signed in. They are queued as if the journal had just written them, in the queues
// its TEMP triggers fill (office_send_changes, office_batch_changes: migrations 048 and 052), a few
// sends at a time, oldest first, and written like any change (5,000 recipients a statement).
import type { AppDb } from '../store/db.ts';
import { rowAs, rowsAs } from '../store/rows.ts';
import { stmt } from '../../storage/sqlite.ts';
import { queueLean } from './sends-lean.ts';

/**
 * This desk's sends of `accountId` after job `afterJob` up to `untilJob`, oldest first, at most `jobs`
 * of them, queued: each outbound message (a `messages` row or a lean one, sends-lean.ts) and each
 * book / Cc/Bcc batch. Another desk's sends kept here have neither: none of them is queued. The last
 * job queued, or null when there was none. Call inside a transaction.
 */
export function queueExisting(
  app: AppDb,
  args: { accountId: string; afterJob: number; untilJob: number; jobs: number },
): number | null {
  const db = app.db;
  const ids = rowsAs<{ id: number }>(
    stmt(
      db,
      'SELECT id FROM outbox_jobs WHERE account_id = ? AND id > ? AND id <= ? ORDER BY id LIMIT ?',
    ).all(args.accountId, args.afterJob, args.untilJob, args.jobs),
  ).map((r) => r.id);
  const last = ids.at(-1);
  if (last === undefined) return null;
  const list = JSON.stringify(ids);
  stmt(
    db,
    `INSERT INTO office_send_changes (message_id)
     SELECT id FROM messages WHERE job_id IN (SELECT value FROM json_each(?)) AND direction = 'out' ORDER BY id`,
  ).run(list);
  // its recipients kept in the journal's lean table (app migration 055) too
  queueLean(app, ids);
  stmt(
    db,
    `INSERT INTO office_batch_changes (batch_id)
     SELECT id FROM outbox_batches WHERE job_id IN (SELECT value FROM json_each(?)) AND extra_fields IS NOT NULL
      ORDER BY id`,
  ).run(list);
  return last;
}

/** The newest job's id (0: none). */
export const newestJob = (app: AppDb): number =>
  rowAs<{ n: number | null }>(stmt(app.db, 'SELECT max(id) AS n FROM outbox_jobs').get())?.n ?? 0;
