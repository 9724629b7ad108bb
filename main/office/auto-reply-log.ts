// Office mode (issue 28, docs/OFFICE.md "Contacts, groups, templates and auto-reply rules"): the
// keyword auto-replies' limits held across the desks of an account. Only the collecting desk
// answers, but the collector changes (a desk closes, crashes, loses the network): the per-day log
// each desk keeps in its own store would start over at the next one. So before it answers, the
// collecting desk claims the reply in the office database (office migration 005) — one per number
// per rule per UTC day, and at most the daily cap for the account — under a per-account advisory
// lock (two desks during a hand-over cannot both take the last one). The desk's own log is claimed
// as well (services/auto-replies.ts): the office database unreachable, it alone decides, as on a
// desk of its own.
import type { ClientBase } from 'pg';
import { rowAs } from '../store/rows.ts';
import type { AppDb } from '../store/db.ts';
import { utcDay } from '../store/auto-replies.ts';
import type { OfficeLocal } from './local.ts';

/** pg_advisory_xact_lock's first key of the log ("MSGR"); the second is the account's hash. */
const LOG_LOCK = 0x4d534752;

/**
 * Claims the reply of rule `rule` (its uid) to `number` on the UTC day of `now` for `account` (its
 * office key): false when the number had it today (at any desk) or the account's cap is reached.
 */
export async function claimSharedReply(
  c: ClientBase,
  a: { account: string; rule: string; number: string; desk: string; cap: number; now: number },
): Promise<boolean> {
  const day = utcDay(a.now);
  await c.query('BEGIN');
  try {
    await c.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOG_LOCK, a.account]);
    const sent = await c.query<{ n: string }>(
      'SELECT count(*) AS n FROM auto_reply_log WHERE account = $1 AND day = $2',
      [a.account, day],
    );
    let took = false;
    if (Number(sent.rows[0]?.n ?? 0) < a.cap) {
      const r = await c.query(
        `INSERT INTO auto_reply_log (account, rule, number, day, desk) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT DO NOTHING`,
        [a.account, a.rule, a.number, day, a.desk],
      );
      took = r.rowCount === 1;
    }
    await c.query('COMMIT');
    return took;
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** The uid of local rule `id` (its name in the office database), null if it is gone. */
export function ruleUid(app: AppDb, id: number): string | null {
  return (
    rowAs<{ uid: string | null }>(app.db.prepare('SELECT uid FROM auto_reply_rules WHERE id = ?').get(id))
      ?.uid ?? null
  );
}

/**
 * Replies each rule of `accountId` (local id → count) sent on the UTC day of `now` at every desk of the
 * office (the Automation view's "sent today"): the office database's log read by `key` (the account's
 * office key), its rule uids named by the local rules' ids.
 */
export async function sharedSentToday(
  c: ClientBase,
  app: AppDb,
  accountId: string,
  key: string,
  now: number,
): Promise<Map<number, number>> {
  const r = await c.query<{ rule: string; n: string }>(
    'SELECT rule, count(*) AS n FROM auto_reply_log WHERE account = $1 AND day = $2 GROUP BY rule',
    [key, utcDay(now)],
  );
  const ids = new Map(
    (
      app.db.prepare('SELECT id, uid FROM auto_reply_rules WHERE account_id = ?').all(accountId) as Array<{
        id: number;
        uid: string;
      }>
    ).map((x) => [x.uid, x.id]),
  );
  const out = new Map<number, number>();
  for (const row of r.rows) {
    const id = ids.get(row.rule);
    if (id !== undefined) out.set(id, Number(row.n));
  }
  return out;
}

/** A reply this desk's log alone allowed (the office database away): to write to the office's log. */
interface AloneReply {
  account: string;
  rule: string;
  number: string;
  day: string;
  desk: string;
}
/** office_state's key of the replies answered while the office database was away, oldest first. */
const ALONE_KEY = 'auto-reply-log:alone';
const aloneOf = (local: OfficeLocal): AloneReply[] =>
  JSON.parse(local.get(ALONE_KEY) ?? '[]') as AloneReply[];

/**
 * Reply `a` was answered on this desk's log alone (the office database could not say): kept, so
 * that it is in the office's log once it is back, and a desk that collects next the same day does
 * not answer the number again.
 */
export function keepAlone(local: OfficeLocal, a: Omit<AloneReply, 'day'> & { now: number }): void {
  const list = aloneOf(local);
  list.push({ account: a.account, rule: a.rule, number: a.number, day: utcDay(a.now), desk: a.desk });
  local.set(ALONE_KEY, JSON.stringify(list));
}

/** The replies kept by keepAlone written to the office database's log (where it has none of them). */
export async function shareAlone(c: ClientBase, local: OfficeLocal): Promise<void> {
  const list = aloneOf(local);
  if (list.length === 0) return;
  await c.query(
    `INSERT INTO auto_reply_log (account, rule, number, day, desk)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) ON CONFLICT DO NOTHING`,
    [
      list.map((x) => x.account),
      list.map((x) => x.rule),
      list.map((x) => x.number),
      list.map((x) => x.day),
      list.map((x) => x.desk),
    ],
  );
  // (kept meanwhile: after those written)
  const rest = aloneOf(local).slice(list.length);
  if (rest.length === 0) local.delete(ALONE_KEY);
  else local.set(ALONE_KEY, JSON.stringify(rest));
}
