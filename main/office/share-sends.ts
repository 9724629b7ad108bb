// Sends shared between the desks of an office (issue 28, docs/OFFICE.md "Sends"): a send from desk A
// appears in desk B's History and campaign view with its results and receipts and desk A's name.
//
// - Writing: the journal's changes (queued by TEMP triggers in the journal's own transactions,
//   sends-local.ts) are read a page at a time, each message's state as it is now, and written to the
//   office database in one transaction per page (sends-feed.ts); the page's changes are then dropped.
//   A crash or the office database away: they wait in the queue and are written later, once.
// - Reading: every desk follows the account's recipient changes and stores other desks' sends as
//   read-only sends (a job without batches: nothing of it can be claimed, sent, continued or
//   recovered here). Only the desk that journaled a send ever sends it.
import type { ClientBase } from 'pg';
import type { OpenedAppStore } from '../store/app-store.ts';
import type { AccountSummary, MessengerEvents } from '../../preload/api.ts';
import type { Emit } from '../services/app-options.ts';
import type { OfficeLocal } from './local.ts';
import { randomUUID } from 'node:crypto';
import { SendsLocal } from './sends-local.ts';
import { newestJob, queueExisting } from './sends-join.ts';
import { mirrorStored } from './sends-conversations.ts';
import type { SharedRecipient } from './sends-local.ts';
import type { SharedBatch } from './sends-books.ts';
import {
  pullBatchChanges,
  pullReceipts,
  pullSendChanges,
  pushReceipts,
  pushSends,
  sendsByUid,
} from './sends-feed.ts';
import type { BatchChange, RecipientChange, SendsWrite } from './sends-feed.ts';

/** Recipient states per write and per read: a 100,000-recipient send is 20 writes. */
const PAGE = 5000;
/** Sends queued at a time when a desk joins an office (each then written, PAGE recipients a statement). */
const JOIN_JOBS = 50;

export interface ShareSendsDeps {
  store: OpenedAppStore;
  local: OfficeLocal;
  desk: string;
  /** How the office database names an account (office.ts accountKey). */
  keyOf(a: AccountSummary): string;
  emit: Emit;
}

export type ShareSends = ReturnType<typeof createShareSends>;

export function createShareSends(deps: ShareSendsDeps) {
  const { store, local, desk } = deps;
  const sends = new SendsLocal(store.app, desk, (id) => store.outbox.batch(id));
  sends.watchJournal();
  /** The newest job when the journal's triggers were made: each job after it is queued by them. */
  const watchedFrom = newestJob(store.app);
  // other desks' sends stored before their Inbox conversations were kept here: mirrored once
  if (local.get('sends-conversations') === null)
    store.app.transaction(() => {
      mirrorStored(store.app);
      local.set('sends-conversations', 'done');
    });

  /** This desk's journal changes, written to the office database page by page. */
  async function push(c: ClientBase): Promise<void> {
    for (;;) {
      const page = sends.changes(PAGE);
      if (page === null) break;
      const writes: SendsWrite[] = [];
      for (const [accountId, w] of page.byAccount) {
        const a = store.accounts.get(accountId);
        // the local sandbox's account is no office's (as its replies are not shared)
        if (a === null || a.sandbox) continue;
        writes.push({ account: deps.keyOf(a), ...w });
      }
      if (writes.length > 0) await pushSends(c, desk, writes);
      sends.written(page.upTo, page.booksUpTo);
    }
    for (;;) {
      const receipts = sends.queuedReceipts(PAGE);
      const upTo = receipts.at(-1)?.id;
      if (upTo === undefined) return;
      await pushReceipts(c, desk, receipts);
      sends.receiptsWritten(upTo);
    }
  }

  /** Receipts another desk was pushed for this desk's sends: applied here (and so shared as states). */
  async function pullReceiptsOf(c: ClientBase, key: string, office: string): Promise<void> {
    for (;;) {
      const after = local.cursor(office, key, 'receipts');
      const rows = await pullReceipts(c, key, after, PAGE);
      if (rows.length === 0) return;
      const applied: MessengerEvents['inbox:receipt'][] = [];
      store.app.transaction(() => {
        // A receipt of this desk's send can come here before the send's answer is stored (the push
        // is faster than the answer): while a batch awaits its answer, an unmatched receipt is
        // kept as early (recordReceipt) and applied with the answer; another desk's is kept too then,
        // and dropped after the early receipts' time to live (outbox-receipts.ts).
        const awaiting = sends.awaitsAnswer();
        for (const r of rows) {
          if (r.desk === desk) continue;
          if (!awaiting && sends.jobOfMessageIdentifier(r.messageIdentifier) === null) continue;
          const m = store.outbox.recordReceipt({
            messageIdentifier: r.messageIdentifier,
            report: r.report,
            ...(r.at === null ? {} : { at: r.at }),
          });
          if (m) applied.push({ message: m });
        }
        local.setCursor(office, key, 'receipts', rows.at(-1)?.id ?? after);
      });
      for (const e of applied) deps.emit('inbox:receipt', e);
      if (rows.length < PAGE) return;
    }
  }

  /**
   * One of the account's feeds of other desks' sends (their recipients, or their book / Cc/Bcc
   * batches) since this desk's cursor, each page stored in one transaction with the sends it names.
   */
  async function follow<R extends { change: number; desk: string; sendUid: string }>(
    c: ClientBase,
    a: AccountSummary,
    key: string,
    office: string,
    feed: 'sends' | 'books',
    read: (after: number) => Promise<R[]>,
    put: (jobId: number, rows: R[]) => void,
    changed: Set<number>,
  ): Promise<void> {
    for (;;) {
      const after = local.cursor(office, key, feed);
      const rows = await read(after);
      if (rows.length === 0) return;
      const bySend = new Map<string, R[]>();
      for (const r of rows) {
        if (r.desk === desk) continue;
        const list = bySend.get(r.sendUid);
        if (list) list.push(r);
        else bySend.set(r.sendUid, [r]);
      }
      // the sends not stored here yet, read with the name of the desk that sent them
      const unknown = [...bySend.keys()].filter((uid) => sends.jobOf(uid) === null);
      const found = unknown.length > 0 ? await sendsByUid(c, key, unknown) : [];
      store.app.transaction(() => {
        for (const s of found) sends.ensureSend(a.id, s);
        for (const [uid, list] of bySend) {
          const jobId = sends.jobOf(uid);
          if (jobId === null) continue; // (a send of another account's: never, the feed is per account)
          put(jobId, list);
          changed.add(jobId);
        }
        local.setCursor(office, key, feed, rows.at(-1)?.change ?? after);
      });
      if (rows.length < PAGE) return;
    }
  }

  /**
   * This desk's sends of `a` made before it joined this office database (or before office mode was
   * on: the journal's triggers were not there), queued once and written, oldest first, a few sends
   * at a time; where it got to is kept, so a desk stopped meanwhile goes on from there. Once done, the
   * newest job it covers is kept up to date while office mode runs here: a desk started again after
   * running without office mode (or in another office) shares the sends it made meanwhile too.
   */
  async function join(c: ClientBase, a: AccountSummary, key: string, office: string): Promise<void> {
    const at = `sends-joined:${office}:${key}`;
    for (;;) {
      const kept = local.get(at);
      // {after, until}: queued up to job `after`, to go on to `until`; {covered}: every job up to it is
      // queued ('done': as that, from before this was kept)
      type Joined = { after: number; until: number } | { covered: number };
      const state: Joined =
        kept === null
          ? { after: 0, until: watchedFrom }
          : kept === 'done'
            ? { covered: watchedFrom }
            : (JSON.parse(kept) as Joined);
      if ('covered' in state && state.covered >= watchedFrom) {
        // the jobs made since are the triggers' (queued in the journal's transactions)
        const now = newestJob(store.app);
        if (now > state.covered) local.set(at, JSON.stringify({ covered: now }));
        return;
      }
      // Up to the newest job when office mode started here: the journal's triggers (on since then)
      // queue every change of a job made from then on.
      const { after, until } =
        'covered' in state
          ? { after: state.covered, until: watchedFrom } // made while this desk was not in this office
          : { after: state.after, until: Math.max(state.until, watchedFrom) };
      store.app.transaction(() => {
        const last = queueExisting(store.app, {
          accountId: a.id,
          afterJob: after,
          untilJob: until,
          jobs: JOIN_JOBS,
        });
        local.set(at, JSON.stringify(last === null ? { covered: until } : { after: last, until }));
      });
      await push(c);
    }
  }

  /** The account's send changes since this desk's cursors; other desks' sends stored here. */
  async function pull(c: ClientBase, a: AccountSummary, key: string, office: string): Promise<void> {
    await join(c, a, key, office);
    const changed = new Set<number>();
    // the books first: a send to one number with a book or Cc/Bcc is a campaign when its number comes
    // (sends-conversations.ts: it lists no conversation)
    const books = (jobId: number, rows: SharedBatch[]): void => sends.putBatches(jobId, rows);
    await follow<BatchChange>(
      c,
      a,
      key,
      office,
      'books',
      (after) => pullBatchChanges(c, key, after, PAGE),
      books,
      changed,
    );
    const recipients = (jobId: number, rows: SharedRecipient[]): void => sends.putRecipients(jobId, rows);
    await follow<RecipientChange>(
      c,
      a,
      key,
      office,
      'sends',
      (after) => pullSendChanges(c, key, after, PAGE),
      recipients,
      changed,
    );
    await pullReceiptsOf(c, key, office);
    if (changed.size > 0)
      deps.emit('office:sends', { jobIds: [...changed] } satisfies MessengerEvents['office:sends']);
  }

  return {
    push,
    pull,
    /**
     * A receipt pushed to this desk matched none of its sends (recordReceipt kept it as early): it may
     * be another desk's send's, so it is queued for the office database (account: the office key).
     */
    receiptUnmatched(account: string, r: { messageIdentifier: string; report: string; at?: number }): void {
      sends.queueReceipt(account, {
        uid: `${desk}:${randomUUID()}`,
        messageIdentifier: r.messageIdentifier,
        report: r.report,
        at: r.at ?? null,
      });
    },
    /** This desk's send changes not yet written to the office database. */
    pendingCount: (): number => sends.pendingCount(),
    hasPending: (): boolean => sends.hasPending(),
    /** The store's view of other desks' sends (History, campaigns). */
    local: sends,
  };
}
