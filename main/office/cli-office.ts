// Issue 28: `messenger inbox` (main/services/cli-replies.ts) on a data folder that is a desk of an
// office. Only the desk holding an account's collector lease may call CollectMessages (lease.ts): a
// reply the CLI took from the gateway while another desk collects would be kept from every other
// desk, and the app on the folder does not share what it did not store itself. So on such a folder
// the CLI either refuses, with a sentence saying why and who collects (the gateway keeps the
// replies), or takes the lease for its run (as the folder's desk), queues each reply it stores in the
// same transaction as the app does, writes the queue to the office database and gives the lease
// back when it ends (what it could not write waits in the folder's queue: the app writes it at its
// next connection).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { AccountSummary } from '../../preload/api.ts';
import type { OpenedAppStore } from '../store/app-store.ts';
import { OFFICE_PASSWORD_ENV, clientConfig, parseOfficeUrl, shownUrl } from './connection.ts';
import { pushPending } from './feed.ts';
import { claimLease, leaseHolder, releaseLease } from './lease.ts';
import { OfficeLocal } from './local.ts';
import { why } from './step-holds.ts';
import type { Office } from './office.ts';

/** The office database of the folder for the CLI (the app's --office; the stored setting otherwise). */
export const OFFICE_URL_ENV = 'MESSENGER_OFFICE';
/** How long the CLI's lease lasts, renewed every RENEW_MS while it runs. */
const LEASE_MS = 60_000;
const RENEW_MS = 15_000;
/** The longest a query may wait for the office database's answer (a renewal too: RENEW_MS + it < LEASE_MS). */
const QUERY_TIMEOUT_MS = 10_000;
const URL_KEY = 'setting:url';

/** As the app's office (office.ts): replies just stored and opt-out changes queued, inside their transaction. */
export interface CliOffice extends Pick<Office, 'inboundStored' | 'optOutChanged'> {
  sync(): Promise<void>;
  /** Null while the lease is held; else why the CLI must stop collecting. */
  lost(): string | null;
  /** Writes the queue, gives the lease back. */
  close(): Promise<void>;
}

/**
 * The CLI's office mode on the folder: null when the folder is no desk of an office (it never ran in
 * office mode) or `account` is not one of its gateway accounts (the CLI collects as before);
 * `{ refused }` with the sentence to say when it must not collect.
 */
export async function openCliOffice(
  store: OpenedAppStore,
  account: AccountSummary | null,
  env: Record<string, string | undefined>,
  log: (m: string) => void,
): Promise<CliOffice | { refused: string } | null> {
  const local = new OfficeLocal(store.app);
  const desk = local.get('desk_id');
  if (desk === null || account === null || account.sandbox) return null;
  const given = env[OFFICE_URL_ENV] || local.get(URL_KEY);
  if (given === null || given === undefined)
    return {
      refused: `this data folder is a desk of an office (office mode), where one desk collects each account's replies and shares them; set ${OFFICE_URL_ENV}=postgres://USER@HOST:PORT/DATABASE (and ${OFFICE_PASSWORD_ENV}) for the CLI to collect for the office, or collect with the app`,
    };
  const parsed = parseOfficeUrl(given);
  if (!parsed.ok) return { refused: `the office database URL ${parsed.reason}` };
  const shown = shownUrl(parsed.target);
  const envPassword = env[OFFICE_PASSWORD_ENV];
  // query_timeout (as the app's pool, pool.ts): a network gone silent fails a lease renewal (the CLI
  // then stops collecting, before the lease can pass to another desk) and the end of the run, instead
  // of waiting for TCP to give up on the dead connection (minutes)
  const c = new pg.Client({
    ...clientConfig(parsed.target, parsed.target.password ?? (envPassword || undefined), env),
    query_timeout: QUERY_TIMEOUT_MS,
  });
  let lostWhy: string | null = null;
  c.on('error', (err) => {
    lostWhy ??= `the office database ${shown} went away (${why(err)})`;
  });
  // (the app's office key of the account: office.ts accountKey)
  const key = `${account.username}@${account.primaryUrl}`;
  // the lease is the CLI's own, not the folder's desk's: the app on this folder, started meanwhile,
  // cannot take it as its own and collect at the same time
  const holderId = `${desk}:cli`;
  const refuse = async (sentence: string): Promise<{ refused: string }> => {
    await c.end().catch(() => undefined);
    return { refused: sentence };
  };
  try {
    await c.connect();
    const holder = await leaseHolder(c, key);
    // (holderId: a run of the CLI on this folder that was stopped, Ctrl-C, before it gave the lease
    // back: its own, taken on as a run on this folder takes it)
    if (holder !== null && holder !== holderId) {
      if (holder === desk)
        return await refuse(
          `the app on this data folder collects the replies of ${key} for the office (it holds the collector's lease): they are in its Inbox`,
        );
      const name = (await c.query<{ name: string }>('SELECT name FROM desks WHERE id = $1', [holder])).rows[0]
        ?.name;
      return await refuse(
        `the desk "${name ?? holder}" collects the replies of ${key} for the office (it holds the collector's lease) and shares them with every desk: not collecting here`,
      );
    }
    if (!(await claimLease(c, key, holderId, LEASE_MS)))
      return await refuse(`another desk has just taken the collector's lease of ${key}: not collecting here`);
  } catch (err) {
    return refuse(
      `the office database ${shown} cannot be reached (${why(err)}): not collecting, so that no reply is kept from the office's other desks`,
    );
  }
  log(`office: the CLI collects for ${key} as this folder's desk (lease taken)`);
  const renew = setInterval(() => {
    claimLease(c, key, holderId, LEASE_MS).then(
      (mine) => {
        if (!mine) lostWhy ??= `the collector's lease of ${key} was taken by another desk`;
      },
      (err: unknown) => {
        lostWhy ??= `the collector's lease of ${key} could not be renewed (${why(err)})`;
      },
    );
  }, RENEW_MS);
  renew.unref();
  return {
    inboundStored(messages, accountId) {
      if (accountId === account.id) local.queueInbound(desk, key, messages);
    },
    optOutChanged(accountId, numbers, action, source, keyword) {
      if (accountId !== account.id) return;
      const at = Date.now();
      for (const number of numbers)
        local.queue('optout', key, { uid: `${desk}:${randomUUID()}`, number, action, source, keyword, at });
    },
    sync: async () => undefined, // (written at close)
    lost: () => lostWhy,
    async close() {
      clearInterval(renew);
      try {
        for (;;) {
          const rows = local.pending(1000);
          if (rows.length === 0) break;
          await pushPending(c, desk, rows);
          local.done(rows.map((r) => r.id));
        }
        await releaseLease(c, key, holderId);
      } catch (err) {
        log(
          `office: ${local.pendingCount()} replies or opt-out changes wait in this folder's queue (the app writes them at its next connection): ${why(err)}`,
        );
      } finally {
        await c.end().catch(() => undefined);
      }
    },
  };
}
