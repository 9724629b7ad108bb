// Office mode (issue 28, docs/OFFICE.md): the desks of one office share one gateway account's
// inbound replies and opt-out list through a PostgreSQL database. Each desk keeps its own SQLite
// store (the Inbox's first paint stays local) and follows the office database's feeds (feed.ts):
//
// - One collector per account (lease.ts): only the desk holding the lease calls CollectMessages
//   (`mayCollect`, asked by the inbox poller). Auto-replies and opt-out keywords run where a reply
//   is collected, so once.
// - A reply collected is stored locally and queued for the office database in the same SQLite
//   transaction (`inboundStored`); the queue is written there in order, idempotently by uid, and
//   NOTIFY tells every desk, which imports it (`sync`). A crash at any point neither loses nor
//   doubles a reply.
// - Opt-out list changes (keyword or manual) are queued the same way; every desk applies the feed
//   to its local list, which the sender and the estimate read (and pull just before: `fresh`).
// - Contacts, groups, templates (the office's) and keyword auto-reply rules (the account's) are
//   shared through share-library.ts, written and imported in the same sync.
// - Read/unread is per desk: each desk's store keeps its own (a reply read at one desk is still
//   unread at another).
// - The office database unreachable: the desk says so ('office:status', a banner), keeps working
//   on its own store, keeps its queue, stops collecting once its lease has run out (replies then
//   wait at the gateway), and reconnects with back-off, writes its queue and catches up.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import type { PoolClient } from 'pg';
import type { OpenedAppStore } from '../store/app-store.ts';
import type { AccountSummary, MessageRecord, MessengerEvents, OfficeStatus } from '../../preload/api.ts';
import type { Emit, Log } from '../services/app-options.ts';
import { clientConfig, shownUrl } from './connection.ts';
import type { OfficeTarget } from './connection.ts';
import { migrateOffice } from './db.ts';
import { OfficePool } from './pool.ts';
import { OFFICE_CHANNEL, pushPending } from './feed.ts';
import { createFeedImport } from './import-feeds.ts';
import { claimLease, releaseLease } from './lease.ts';
import { OfficeLocal } from './local.ts';
import { LIBRARY_NOTIFY, createLibraryShare } from './share-library.ts';
import { createShareSends } from './share-sends.ts';
import { DESK_NAME_KEY } from './setting.ts';
import { StepHolds, lostConnection, why } from './step-holds.ts';
import { claimSharedReply, keepAlone, ruleUid, shareAlone, sharedSentToday } from './auto-reply-log.ts';
import type { SyncStep } from './step-holds.ts';

const BATCH = 1000;
const MAX_RECONNECT_MS = 15_000;
/** The longest a send waits for the office database's opt-out list before going on with the local copy. */
const FRESH_TIMEOUT_MS = 2000;
/** How often the journal's queued send changes are looked for (one indexed read; office mode only). */
const SENDS_CHECK_MS = 300;

export interface OfficeDeps {
  /** The store as opened: office mode writes its queue in the app's own transactions (like a repository). */
  store: OpenedAppStore;
  target: OfficeTarget;
  password: string | undefined;
  env?: Record<string, string | undefined>;
  /** The signed-in account (null: none). */
  account(): AccountSummary | null;
  pollIntervalSeconds(): number;
  /** This desk just took the collector's lease: collect now. */
  becameCollector(): void;
  emit: Emit;
  log: Log;
}

/** How the office database names an account: its gateway and username, the same at every desk. */
export const accountKey = (a: AccountSummary): string => `${a.username}@${a.primaryUrl}`;

export type Office = ReturnType<typeof createOffice>;

export function createOffice(deps: OfficeDeps) {
  const { store, log } = deps;
  const local = new OfficeLocal(store.app);
  const desk = local.deskId();
  // contacts, groups, templates and auto-reply rules (share-library.ts)
  const library = createLibraryShare({
    app: store.app,
    desk,
    channel: OFFICE_CHANNEL,
    accountKeyOf: (id) => {
      const a = store.accounts.get(id);
      return a === null || a.sandbox ? null : accountKey(a);
    },
    queued: () => void kick(),
    changed: (kinds) => deps.emit('office:library', { kinds: [...kinds] }),
    get: (k) => local.get(k),
    set: (k, v) => local.set(k, v),
  });
  const url = shownUrl(deps.target);
  const config = clientConfig(deps.target, deps.password, deps.env);
  let officeId: string | null = null;
  let listener: pg.Client | null = null;
  let connected = false;
  let lastError: string | null = null;
  let closed = false;
  let reconnectMs = 500;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let leaseTimer: NodeJS.Timeout | null = null;
  /** Writes what the journal queued for the office database (share-sends.ts) soon after it does. */
  let sendsTimer: NodeJS.Timeout | null = null;
  /** Until when (this desk's clock) the lease is surely ours; 0: not the collector. */
  let leaseUntil = 0;
  let syncing: Promise<void> | null = null;
  let syncAgain = false;
  /** Steps of the sync the office database refuses, held back (step-holds.ts). */
  const holds = new StepHolds(log, () => void kick());
  // sends shared (share-sends.ts): the journal's changes queued from here on, in its transactions
  const sends = createShareSends({ store, local, desk, keyOf: accountKey, emit: deps.emit });
  // the office's replies and opt-out list imported (import-feeds.ts)
  const { importInbound, importOptOuts } = createFeedImport({
    store,
    local,
    account: () => deps.account(),
    emit: deps.emit,
    closed: () => closed,
  });

  const status = (): OfficeStatus => ({
    enabled: true,
    url,
    connected,
    collector: Date.now() < leaseUntil,
    pending: local.pendingCount() + library.pendingCount() + sends.pendingCount(),
    // connected: a write the office database refuses (step-holds.ts), said until it goes through
    error: connected ? holds.error() : lastError,
  });
  let shown = '';
  function announce(): void {
    if (closed) return;
    const s = status();
    const key = JSON.stringify({ ...s, pending: s.pending > 0 });
    if (key === shown) return;
    shown = key;
    deps.emit('office:status', s satisfies MessengerEvents['office:status']);
  }

  function offline(err: unknown): void {
    if (closed) return;
    // once per outage, and again when why changes (the connection lost, then refused: the reason it
    // stays away, said in the banner, is in the log too)
    const said = connected || why(err) !== lastError;
    connected = false;
    lastError = why(err);
    if (said) log(`office database ${url} unreachable: ${lastError}`);
    const l = listener;
    listener = null;
    // the pool's connections may be as dead as the listener's: new ones after reconnecting
    pool.drop();
    l?.removeAllListeners('notification');
    void l?.end().catch(() => undefined);
    announce();
    if (reconnectTimer === null) {
      reconnectTimer = setTimeout(() => {
        reconnectTimer = null;
        void connect();
      }, reconnectMs);
      reconnectTimer.unref();
      reconnectMs = Math.min(reconnectMs * 2, MAX_RECONNECT_MS);
    }
  }

  async function connect(): Promise<void> {
    if (closed) return;
    const c = new pg.Client(config);
    c.on('error', (err) => offline(err));
    c.on('end', () => {
      if (listener === c) offline(new Error('the connection ended'));
    });
    try {
      await c.connect();
      await migrateOffice(c);
      officeId = (await c.query<{ id: string }>('SELECT id FROM office LIMIT 1')).rows[0]?.id ?? null;
      await c.query(
        `INSERT INTO desks (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET last_seen = now(), name = excluded.name`,
        [desk, deskName()],
      );
      c.on('notification', (n) => {
        if (n.channel === OFFICE_CHANNEL && (n.payload === currentKey() || n.payload === LIBRARY_NOTIFY))
          kick();
      });
      await c.query(`LISTEN ${OFFICE_CHANNEL}`);
    } catch (err) {
      await c.end().catch(() => undefined);
      offline(err);
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    listener = c;
    connected = true;
    lastError = null;
    reconnectMs = 500;
    holds.reset();
    log(`office database ${url} connected (desk ${desk})`);
    announce();
    void renewLease();
    kick();
  }

  const pool = new OfficePool(config, log);
  const withClient = <T>(fn: (c: PoolClient) => Promise<T>): Promise<T> => pool.withClient(fn);

  const currentKey = (): string | null => {
    const a = deps.account();
    return a === null || a.sandbox ? null : accountKey(a);
  };
  /** Issue 25: the office key of account `id` (null: none, the sandbox's), whoever is signed in now. */
  const keyOfAccount = (id: string): string | null => {
    const a = store.accounts.get(id);
    return a === null || a.sandbox ? null : accountKey(a);
  };

  // ------------------------------------------------------------------ the lease

  function leaseMs(): number {
    return deps.pollIntervalSeconds() * 1000;
  }

  let renewing = false;
  let leaseError: string | null = null;
  /** Claims or renews the lease now, then every third of its length (one chain of timers). */
  async function renewLease(): Promise<void> {
    if (renewing || closed) return;
    renewing = true;
    if (leaseTimer) clearTimeout(leaseTimer);
    leaseTimer = null;
    const key = currentKey();
    const ttl = leaseMs();
    let switched = false;
    if (key !== null && connected) {
      const asked = Date.now();
      const was = asked < leaseUntil;
      try {
        const mine = await withClient((c) => claimLease(c, key, desk, ttl));
        // the account switched while it was asked for: not this desk's to keep, the new one's asked now
        switched = currentKey() !== key;
        if (switched && mine) await withClient((c) => releaseLease(c, key, desk));
        leaseUntil = mine && !switched ? asked + ttl : 0;
        if (mine && !was && !switched) {
          log(`office: this desk collects for ${key}`);
          announce();
          deps.becameCollector();
        }
        leaseError = null;
      } catch (err) {
        // (once per distinct error: renewed every third of a poll interval)
        if (why(err) !== leaseError) log(`office: lease not renewed: ${why(err)}`);
        leaseError = why(err);
        if (lostConnection(err)) offline(err);
      }
      announce();
    }
    renewing = false;
    if (closed) return;
    leaseTimer = setTimeout(() => void renewLease(), switched ? 0 : Math.max(500, Math.floor(ttl / 3)));
    leaseTimer.unref();
  }

  // ------------------------------------------------------------------ sync

  /** Writes the queue, then imports both feeds of the current account. One at a time. */
  function kick(): Promise<void> {
    if (syncing) {
      syncAgain = true;
      return syncing;
    }
    syncing = (async () => {
      do {
        syncAgain = false;
        try {
          await syncOnce();
        } catch (err) {
          // the server refusing a connection of the pool (too many connections, a role not allowed):
          // held back as a refused step (every 300 ms otherwise)
          if (!lostConnection(err) && connected && !closed) holds.failed('connection', why(err));
          else if (connected) log(`office: sync failed: ${why(err)}`);
          if (lostConnection(err)) offline(err);
          break;
        }
      } while (syncAgain && !closed);
    })().finally(() => {
      syncing = null;
      if (!closed) announce(); // (the store may be closed after close())
    });
    return syncing;
  }

  /**
   * Runs one step of the sync unless it is held back; a refusal of the office database (not a lost
   * connection, which is thrown: offline) holds the step back and lets the others go on.
   */
  async function step(name: SyncStep, fn: () => Promise<void>): Promise<void> {
    if (holds.held(name)) return;
    try {
      await fn();
    } catch (err) {
      if (lostConnection(err) || closed) throw err;
      holds.failed(name, why(err));
      announce();
      return;
    }
    holds.succeeded(name);
  }

  async function syncOnce(): Promise<void> {
    if (!connected || closed || officeId === null || holds.held('connection')) return;
    await withClient(async (c) => {
      holds.succeeded('connection');
      await step('replies', async () => {
        for (;;) {
          const rows = local.pending(BATCH);
          if (rows.length === 0) break;
          await pushPending(c, desk, rows);
          local.done(rows.map((r) => r.id));
        }
      });
      await step('autoReplies', () => shareAlone(c, local)); // answered while the office database was away
      await step('sends', () => sends.push(c));
      const a = deps.account();
      const key = currentKey();
      const office = officeId;
      if (office === null) return;
      await step('library', () => library.sync(c, office, key === null ? null : a, key));
      if (a === null || key === null) return;
      await step('imports', async () => {
        await importOptOuts(c, a, key, office);
        await importInbound(c, a.id, key, office);
        await sends.pull(c, a, key, office);
      });
    });
  }

  /** This desk's name as the other desks show it: set in the Account view, else the host name. */
  const deskName = (): string => local.get(DESK_NAME_KEY) ?? hostname();

  void connect();
  sendsTimer = setInterval(() => {
    if (connected && !closed && syncing === null && !holds.held('sends') && !holds.held('connection'))
      if (sends.hasPending()) void kick();
  }, SENDS_CHECK_MS);
  sendsTimer.unref();

  return {
    desk,
    deskName,
    /** The Account view renamed this desk: the office database's desks row follows (sends made from now on). */
    async renamed(): Promise<void> {
      if (closed) return;
      // (also while connecting: a connection made before the change wrote the old name)
      await withClient((c) => c.query('UPDATE desks SET name = $1 WHERE id = $2', [deskName(), desk])).catch(
        (err: unknown) =>
          log(`office: desk name not written now (written at the next connection): ${why(err)}`),
      );
    },
    /** Other desks' sends kept here (History and campaigns read them: services/office-sends.ts). */
    sends: sends.local,
    status,
    /**
     * Whether this desk may call CollectMessages now: it holds the account's lease (an account the
     * office does not share, the local sandbox's, is collected by its own desk).
     */
    mayCollect: (): boolean => currentKey() === null || Date.now() < leaseUntil,
    /** Replies just stored under `accountId`: queued for the office database. Call inside its transaction. */
    inboundStored(messages: readonly MessageRecord[], accountId: string): void {
      const key = keyOfAccount(accountId);
      if (key === null) return;
      local.queueInbound(desk, key, messages);
      // written once the caller's transaction has committed: a long poll shares page by page
      if (messages.length > 0) setImmediate(() => void kick());
    },
    /**
     * A delivery receipt pushed here matched no send of this desk (the account has one push URL):
     * passed on through the office database to the desk that sent it (share-sends.ts).
     */
    receiptUnmatched(accountId: string, r: { messageIdentifier: string; report: string; at?: number }): void {
      const key = keyOfAccount(accountId);
      if (key === null) return;
      sends.receiptUnmatched(key, r);
      setImmediate(() => void kick());
    },
    /** What each rule of `accountId` sent today at every desk (null: the office database cannot say). */
    async autoRepliesSentToday(accountId: string): Promise<Map<number, number> | null> {
      const key = keyOfAccount(accountId);
      if (key === null || !connected) return null;
      return withClient((c) => sharedSentToday(c, store.app, accountId, key, Date.now())).catch(() => null);
    },
    /**
     * The auto-reply of local rule `ruleId` to `number` claimed in the office database (auto-reply-log.ts):
     * whether it may be sent; null when the office database cannot say (away: the desk's log decides).
     */
    async claimAutoReply(
      accountId: string,
      ruleId: number,
      number: string,
      cap: number,
    ): Promise<boolean | null> {
      const account = keyOfAccount(accountId);
      const rule = ruleUid(store.app, ruleId);
      if (account === null || rule === null || !connected) return null;
      const claim = { account, rule, number, desk, cap, now: Date.now() };
      return withClient((c) => claimSharedReply(c, claim)).catch((err: unknown) => {
        log(`office: auto-reply not claimed in the office database (this desk's log decides): ${why(err)}`);
        return null;
      });
    },
    /** An auto-reply answered on this desk's log alone (claimAutoReply said null): kept for the office's log. */
    autoReplyClaimedAlone(accountId: string, ruleId: number, number: string): void {
      const account = keyOfAccount(accountId);
      const rule = ruleUid(store.app, ruleId);
      if (account === null || rule === null) return;
      keepAlone(local, { account, rule, number, desk, now: Date.now() });
      setImmediate(() => void kick());
    },
    /** A change of `accountId`'s opt-out list made here: queued. Call inside its transaction. */
    optOutChanged(
      accountId: string,
      numbers: readonly string[],
      action: 'add' | 'remove',
      source: 'keyword' | 'manual',
      keyword: string | null,
    ): void {
      const key = keyOfAccount(accountId);
      if (key === null) return;
      const at = Date.now();
      for (const number of numbers)
        local.queue('optout', key, { uid: `${desk}:${randomUUID()}`, number, action, source, keyword, at });
    },
    /** Writes the queue and imports the feeds now; resolves when done (or the database is away). */
    sync: kick,
    /** The office database's opt-out list pulled before a send is planned (bounded wait). */
    async fresh(): Promise<void> {
      if (!connected) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        kick(),
        new Promise<void>((r) => {
          timer = setTimeout(r, FRESH_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
    },
    /** The session hooks (session.ts): follow the signed-in account's lease and feeds. */
    hooks: {
      sessionReady(): void {
        leaseUntil = 0;
        void renewLease();
        void kick();
      },
      async sessionEnded(ended: { account: AccountSummary }): Promise<void> {
        const held = Date.now() < leaseUntil;
        leaseUntil = 0;
        announce();
        if (held && connected && !ended.account.sandbox)
          await withClient((c) => releaseLease(c, accountKey(ended.account), desk)).catch(() => undefined);
      },
    },
    async close(): Promise<void> {
      if (closed) return;
      const key = currentKey();
      await kick().catch(() => undefined);
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      if (leaseTimer) clearTimeout(leaseTimer);
      if (sendsTimer) clearInterval(sendsTimer);
      holds.stop();
      if (key !== null && connected && leaseUntil > Date.now()) {
        await withClient((c) => releaseLease(c, key, desk)).catch(() => undefined);
      }
      leaseUntil = 0;
      connected = false;
      await listener?.end().catch(() => undefined);
      listener = null;
      await pool.end();
    },
  };
}
