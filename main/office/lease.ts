// One collector per account (issue 28): a lease row in the office database. The desk holding it
// renews it every third of its length; any desk may take a lease past its expiry. PostgreSQL's
// clock decides expiry (desks' clocks may differ); the holder counts its own lease from the moment
// it asked to renew, so it stops collecting before the server could give the lease to another desk
// (a desk that loses the network stops collecting by itself). A desk that closes releases it.
import type { ClientBase } from 'pg';

/** Takes or renews the lease of `account` for `ttlMs`; true when this desk now holds it. */
export async function claimLease(
  c: ClientBase,
  account: string,
  desk: string,
  ttlMs: number,
): Promise<boolean> {
  const r = await c.query(
    `INSERT INTO collector_leases (account, desk, expires_at)
     VALUES ($1, $2, now() + $3 * interval '1 millisecond')
     ON CONFLICT (account) DO UPDATE SET desk = excluded.desk, expires_at = excluded.expires_at
       WHERE collector_leases.desk = excluded.desk OR collector_leases.expires_at < now()
     RETURNING desk`,
    [account, desk, ttlMs],
  );
  return r.rowCount === 1;
}

export async function releaseLease(c: ClientBase, account: string, desk: string): Promise<void> {
  await c.query('DELETE FROM collector_leases WHERE account = $1 AND desk = $2', [account, desk]);
}

/** Which desk holds the account's lease now (null: none, or expired). */
export async function leaseHolder(c: ClientBase, account: string): Promise<string | null> {
  const r = await c.query<{ desk: string }>(
    'SELECT desk FROM collector_leases WHERE account = $1 AND expires_at > now()',
    [account],
  );
  return r.rows[0]?.desk ?? null;
}
