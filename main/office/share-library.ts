// Issue 28: contacts, groups (and their members), templates and keyword auto-reply rules shared
// by the desks of an office (docs/OFFICE.md "Contacts, groups, templates and auto-reply rules").
//
// The office database keeps one row per record (office migration 003, `library`), named by its
// natural key: a contact by its normalised number (the identity the app already gives a contact:
// two contacts never share a number), a group or template by its name, a member by both, a rule
// by its uid (app migration 054: kept when its keyword changes; a joining desk's rules merge with
// the office's by keyword). A desk writes whole records (or their deletion) in batches, one statement per
// batch; each write takes the next `rev` of the office database, and the last writer by that
// order wins. Every desk follows the feed of each scope by rev (the office's: contacts, groups,
// members, templates; the signed-in account's: its rules) and applies it to its own SQLite store,
// as the replies and the opt-out list are (feed.ts). The desk's side: share-library-local.ts.
import type { ClientBase } from 'pg';
import type { AccountSummary } from '../../preload/api.ts';
import type { AppDb } from '../store/db.ts';
import { OFFICE_SCOPE, LibraryLocal } from './share-library-local.ts';
import type { LibraryKind, LibraryRecord, QueuedRecord } from './share-library-local.ts';

/** pg_advisory_xact_lock key of the library's writers ("MSGRLIBR"). */
const LIBRARY_LOCK = 0x4d5347524c494252n;
/** The NOTIFY payload of a change to the office's scope (an account's: its key, as feed.ts). */
export const LIBRARY_NOTIFY = '*office-library*';
const BATCH = 1000;

/** Time spent in the library's queries by this process, ms, and its write statements (bench/office-library.ts). */
export const libraryTimings = { writeMs: 0, readMs: 0, statements: 0 };

interface LibraryRow extends LibraryRecord {
  rev: number;
  desk: string;
}

/**
 * Writes `records` in order, one statement per run of one mode; 'join' records never replace a live
 * one, and a 'join' rule is not written where the scope has a live rule of its keyword (rules are
 * named by uid, merged by keyword). Returns the keys of the 'join' rules not written.
 */
export async function pushLibrary(
  c: ClientBase,
  desk: string,
  records: readonly LibraryRecord[],
  mode: (r: LibraryRecord) => 'set' | 'join',
  channel: string,
): Promise<string[]> {
  const t = performance.now();
  const notTaken: string[] = [];
  await c.query('BEGIN');
  try {
    await c.query('SELECT pg_advisory_xact_lock($1)', [LIBRARY_LOCK.toString()]);
    let i = 0;
    while (i < records.length) {
      const m = mode(records[i]!);
      let j = i;
      while (j < records.length && mode(records[j]!) === m) j++;
      const run = records.slice(i, j);
      // one statement for the run (unnest of arrays), revs taken in the order queued
      const written = await c.query<{ kind: string; key: string }>(
        `INSERT INTO library (scope, kind, key, data, rev, desk)
         SELECT s, k, key, d::jsonb, nextval('library_rev'), $5 FROM (
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(s, k, key, d, o)
           ORDER BY o) x
         ${
           m === 'join'
             ? `WHERE NOT (k = 'rule' AND EXISTS (SELECT 1 FROM library l WHERE l.scope = x.s AND l.kind = 'rule'
                 AND l.key <> x.key AND l.data IS NOT NULL
                 AND upper(trim(l.data ->> 'keyword')) = upper(trim(x.d::jsonb ->> 'keyword'))))`
             : ''
         }
         ON CONFLICT (scope, kind, key) DO UPDATE SET data = excluded.data, rev = excluded.rev,
           desk = excluded.desk, changed_at = now()
         ${m === 'join' ? 'WHERE library.data IS NULL RETURNING kind, key' : ''}`,
        [
          run.map((r) => r.scope),
          run.map((r) => r.kind),
          run.map((r) => r.key),
          run.map((r) => (r.data === null ? null : JSON.stringify(r.data))),
          desk,
        ],
      );
      libraryTimings.statements++;
      if (m === 'join') {
        const took = new Set(written.rows.filter((w) => w.kind === 'rule').map((w) => w.key));
        for (const r of run) if (r.kind === 'rule' && !took.has(r.key)) notTaken.push(r.key);
      }
      i = j;
    }
    for (const s of new Set(records.map((r) => r.scope)))
      await c.query('SELECT pg_notify($1, $2)', [channel, s === OFFICE_SCOPE ? LIBRARY_NOTIFY : s]);
    await c.query('COMMIT');
    return notTaken;
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    libraryTimings.writeMs += performance.now() - t;
  }
}

/** The scope's records changed after `after`, in the office database's order. */
export async function pullLibrary(
  c: ClientBase,
  scope: string,
  after: number,
  limit: number,
): Promise<LibraryRow[]> {
  const t = performance.now();
  try {
    const r = await c.query<{
      kind: LibraryKind;
      key: string;
      data: Record<string, unknown> | null;
      rev: string;
      desk: string;
    }>(`SELECT kind, key, data, rev, desk FROM library WHERE scope = $1 AND rev > $2 ORDER BY rev LIMIT $3`, [
      scope,
      after,
      limit,
    ]);
    return r.rows.map((x) => ({
      scope,
      kind: x.kind,
      key: x.key,
      data: x.data,
      rev: Number(x.rev),
      desk: x.desk,
    }));
  } finally {
    libraryTimings.readMs += performance.now() - t;
  }
}

export interface LibraryShareDeps {
  app: AppDb;
  desk: string;
  channel: string;
  /** How the office database names a local account (null: not shared, the local sandbox or gone). */
  accountKeyOf(localAccountId: string): string | null;
  /** A change made here was queued: write it (office.ts: a sync). */
  queued(): void;
  /** Records from another desk applied here (the renderer reloads what it shows). */
  changed(kinds: readonly LibraryKind[]): void;
  get(key: string): string | null;
  set(key: string, value: string): void;
}

export type LibraryShare = ReturnType<typeof createLibraryShare>;

/** The library's part of a desk's sync (office.ts calls `sync` with a connection of its pool). */
export function createLibraryShare(deps: LibraryShareDeps) {
  let soon = false;
  // a change queued here is written once its transaction has committed (one sync for a whole import)
  const local = new LibraryLocal(deps.app, () => {
    if (soon) return;
    soon = true;
    setImmediate(() => {
      soon = false;
      deps.queued();
    });
  });
  const { desk } = deps;
  /**
   * This desk's rules the office database did not take when the desk joined (it had one of the same
   * keyword): the office's rule of that keyword, pulled next, becomes this one (id and log kept).
   */
  const adoptable = new Set<string>();

  async function push(c: ClientBase): Promise<void> {
    for (;;) {
      const queued = local.pending(BATCH);
      if (queued.length === 0) return;
      const out: QueuedRecord[] = [];
      for (const q of queued) {
        if (q.kind !== 'rule') out.push(q);
        else {
          // an account's rules under the name every desk gives the account; the sandbox's stay here
          const key = deps.accountKeyOf(q.scope.slice(2));
          if (key !== null) out.push({ ...q, scope: key });
        }
      }
      if (out.length > 0)
        for (const key of await pushLibrary(c, desk, out, (r) => (r as QueuedRecord).mode, deps.channel))
          adoptable.add(key);
      local.done(queued.map((q) => q.seq));
    }
  }

  async function pull(c: ClientBase, office: string, scope: string, localScope: string): Promise<void> {
    const at = `cursor:${office}:library:${scope}`;
    const changed = new Set<LibraryKind>();
    for (;;) {
      const after = Number(deps.get(at) ?? 0);
      const rows = await pullLibrary(c, scope, after, BATCH);
      if (rows.length === 0) break;
      // this desk's own writes are what it holds already (or changed since: queued, written next)
      const theirs = rows.filter((r) => r.desk !== desk);
      for (const k of local.apply(
        theirs,
        localScope,
        () => deps.set(at, String(rows.at(-1)!.rev)),
        adoptable,
      ))
        changed.add(k);
      if (rows.length < BATCH) break;
    }
    if (changed.size > 0) deps.changed([...changed]);
  }

  /** A desk joining an office (or an account's rules first shared): its records queued to merge. */
  function join(office: string, scope: string, what: 'office' | { accountId: string }): void {
    const at = `library-joined:${office}:${scope}`;
    if (deps.get(at) !== null) return;
    local.queueJoin(what);
    deps.set(at, String(Date.now()));
  }

  return {
    pendingCount: (): number => local.pendingCount(),
    /** Writes what changed here, then applies what changed elsewhere (the office's and `account`'s). */
    async sync(
      c: ClientBase,
      office: string,
      account: AccountSummary | null,
      key: string | null,
    ): Promise<void> {
      join(office, OFFICE_SCOPE, OFFICE_SCOPE);
      if (account !== null && key !== null) join(office, key, { accountId: account.id });
      await push(c);
      await pull(c, office, OFFICE_SCOPE, OFFICE_SCOPE);
      if (account !== null && key !== null) await pull(c, office, key, `a:${account.id}`);
    },
  };
}
