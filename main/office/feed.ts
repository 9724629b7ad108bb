// The office database's two feeds, inbound replies and opt-out list changes: written by
// `pushPending` (a desk's queued writes, idempotent by uid) and read in id order by `pullInbound`
// / `pullOptOuts`. Writers take one transaction-level advisory lock, so ids commit in the order
// they are given and a reader's cursor (the highest id it has imported) never passes a row that
// is still to commit. Every write ends with NOTIFY on OFFICE_CHANNEL (payload: the account), which
// PostgreSQL delivers at commit to every desk that LISTENs.
import type { ClientBase } from 'pg';
import type { OutboxRow, SharedInbound, SharedOptOut } from './local.ts';

export const OFFICE_CHANNEL = 'messenger_office';
/** pg_advisory_xact_lock key of the feed writers ("MSGRFEED"). */
export const FEED_LOCK = 0x4d53475246454544n;

/**
 * Time spent in the feeds' queries by this process, ms, and when the last write ended
 * (performance.now()): bench/office.ts reports PostgreSQL's share.
 */
export const feedTimings = { writeMs: 0, readMs: 0, lastWriteAt: 0 };

async function timed<T>(kind: 'writeMs' | 'readMs', fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  try {
    return await fn();
  } finally {
    const now = performance.now();
    feedTimings[kind] += now - t;
    if (kind === 'writeMs') feedTimings.lastWriteAt = now;
  }
}

export interface InboundRow extends SharedInbound {
  id: number;
  desk: string;
}

export interface OptOutRow extends SharedOptOut {
  id: number;
}

/** Writes `rows` (a desk's queued writes, in order) in one transaction; repeats change nothing. */
export function pushPending(c: ClientBase, desk: string, rows: readonly OutboxRow[]): Promise<void> {
  return timed('writeMs', () => write(c, desk, rows));
}

async function write(c: ClientBase, desk: string, rows: readonly OutboxRow[]): Promise<void> {
  const accounts = new Set(rows.map((r) => r.account));
  await c.query('BEGIN');
  try {
    await c.query('SELECT pg_advisory_xact_lock($1)', [FEED_LOCK.toString()]);
    const inbound = rows.filter((r) => r.kind === 'inbound');
    if (inbound.length > 0) {
      const cols: string[][] = [[], [], [], [], [], [], [], []];
      const at: number[] = [];
      for (const r of inbound) {
        const m = JSON.parse(r.payload) as SharedInbound;
        [r.account, m.uid, m.sender, m.recipient, m.body, m.kind, m.gatewayTimestamp, desk].forEach((v, i) =>
          cols[i]?.push(v),
        );
        at.push(m.receivedAt);
      }
      // one statement for the whole batch (unnest of arrays), in the order queued
      await c.query(
        `INSERT INTO inbound (account, uid, sender, recipient, body, kind, gateway_timestamp, desk, received_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[])
         ON CONFLICT (account, uid) DO NOTHING`,
        [...cols, at],
      );
    }
    for (const r of rows) {
      if (r.kind !== 'optout') continue;
      const o = JSON.parse(r.payload) as SharedOptOut;
      const added = await c.query(
        `INSERT INTO opt_out_changes (account, uid, number, action, source, keyword, at, desk)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (uid) DO NOTHING RETURNING id`,
        [r.account, o.uid, o.number, o.action, o.source, o.keyword, o.at, desk],
      );
      if (added.rowCount === 0) continue;
      if (o.action === 'add')
        await c.query(
          `INSERT INTO opt_outs (account, number, source, keyword, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (account, number) DO NOTHING`,
          [r.account, o.number, o.source, o.keyword, o.at],
        );
      else await c.query('DELETE FROM opt_outs WHERE account = $1 AND number = $2', [r.account, o.number]);
    }
    for (const a of accounts) await c.query('SELECT pg_notify($1, $2)', [OFFICE_CHANNEL, a]);
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** The account's replies after `after`, oldest first. */
export async function pullInbound(
  c: ClientBase,
  account: string,
  after: number,
  limit: number,
): Promise<InboundRow[]> {
  const r = await timed('readMs', () =>
    c.query<{
      id: string;
      uid: string;
      sender: string;
      recipient: string;
      body: string;
      kind: string;
      gateway_timestamp: string;
      received_at: string;
      desk: string;
    }>(
      `SELECT id, uid, sender, recipient, body, kind, gateway_timestamp, received_at, desk FROM inbound
      WHERE account = $1 AND id > $2 ORDER BY id LIMIT $3`,
      [account, after, limit],
    ),
  );
  return r.rows.map((x) => ({
    id: Number(x.id),
    uid: x.uid,
    sender: x.sender,
    recipient: x.recipient,
    body: x.body,
    kind: x.kind,
    gatewayTimestamp: x.gateway_timestamp,
    receivedAt: Number(x.received_at),
    desk: x.desk,
  }));
}

/** The account's opt-out list changes after `after`, oldest first. */
export async function pullOptOuts(
  c: ClientBase,
  account: string,
  after: number,
  limit: number,
): Promise<OptOutRow[]> {
  const r = await c.query<{
    id: string;
    uid: string;
    number: string;
    action: 'add' | 'remove';
    source: 'keyword' | 'manual';
    keyword: string | null;
    at: string;
  }>(
    `SELECT id, uid, number, action, source, keyword, at FROM opt_out_changes
      WHERE account = $1 AND id > $2 ORDER BY id LIMIT $3`,
    [account, after, limit],
  );
  return r.rows.map((x) => ({ ...x, id: Number(x.id), at: Number(x.at) }));
}
