// Office mode (issue 28): the office database's feeds of one account imported into this desk's own
// store: its replies (a page at a time, IMPORT_ROWS per local transaction) and its opt-out list.
// Split from office.ts (which connects, holds the lease and runs the sync) by responsibility.
import type { ClientBase } from 'pg';
import type { OpenedAppStore } from '../store/app-store.ts';
import type { AccountSummary, MessageRecord } from '../../preload/api.ts';
import type { Emit } from '../services/app-options.ts';
import { pullInbound, pullOptOuts } from './feed.ts';
import type { InboundRow } from './feed.ts';
import type { OfficeLocal } from './local.ts';

const BATCH = 1000;
/** Replies of a pulled page stored per local transaction (importInbound). */
const IMPORT_ROWS = 100;

export interface FeedImportDeps {
  store: OpenedAppStore;
  local: OfficeLocal;
  /** The signed-in account (null: none). */
  account(): AccountSummary | null;
  emit: Emit;
  /** Office mode closed: stop between two transactions. */
  closed(): boolean;
}

export function createFeedImport(deps: FeedImportDeps) {
  const { store, local } = deps;

  /** The office's replies of `key` (the signed-in account's office key), stored as `account`'s (issue 25). */
  async function importInbound(c: ClientBase, account: string, key: string, office: string): Promise<void> {
    for (;;) {
      const after = local.cursor(office, key, 'inbound');
      const rows = await pullInbound(c, key, after, BATCH);
      if (rows.length === 0) return;
      const stored: MessageRecord[] = [];
      // A page is stored IMPORT_ROWS at a time, each with its uids and the cursor in one local
      // transaction (a crash between two leaves the rest for the next pull), the event loop let go
      // between them: the Inbox's reads wait for one small transaction at most, not for a page.
      for (let start = 0; start < rows.length; start += IMPORT_ROWS) {
        if (start > 0) await new Promise((r) => setImmediate(r));
        if (deps.closed()) return;
        stored.push(...importRows(rows.slice(start, start + IMPORT_ROWS), account, key, office));
      }
      // (issue 25: not announced once another account is signed in: its Inbox, badge are shown)
      if (stored.length > 0 && deps.account()?.id === account)
        deps.emit('inbox:received', {
          messages: stored,
          unreadTotal: store.conversations.unreadTotal(account),
        });
      if (rows.length < BATCH) return;
    }
  }

  /** Stores `rows` of the inbound feed this desk does not hold yet; advances the cursor past them. */
  function importRows(
    rows: readonly InboundRow[],
    account: string,
    key: string,
    office: string,
  ): MessageRecord[] {
    return store.app.transaction(() => {
      const known = local.knownUids(rows.map((r) => r.uid));
      const fresh = rows.filter((r) => !known.has(r.uid));
      // keyed by its office uid (one a reply the collector stored): two identical replies
      // (same phone, second and text, issue 25 item 2) are two here too, not one by content;
      // stored as collected (by the office's collector) with its content key, so that this desk,
      // collecting later from a gateway that keeps collected replies, knows them (issue 24)
      const res = store.inboundImport.storeMany(
        account,
        fresh.map((r) => ({
          identity: `o:${r.uid}`,
          from: r.sender,
          to: r.recipient,
          text: r.body,
          timestamp: r.gatewayTimestamp,
          kind: r.kind as MessageRecord['kind'],
          receivedAt: r.receivedAt,
        })),
        'collect',
      );
      local.recordUids(fresh.map((r) => [r.uid, res.ids.get(`o:${r.uid}`)!] as const));
      const last = rows.at(-1);
      if (last) local.setCursor(office, key, 'inbound', last.id);
      return res.stored;
    });
  }

  async function importOptOuts(c: ClientBase, a: AccountSummary, key: string, office: string): Promise<void> {
    for (;;) {
      const after = local.cursor(office, key, 'optout');
      const rows = await pullOptOuts(c, key, after, BATCH);
      if (rows.length === 0) return;
      store.app.transaction(() => {
        for (const o of rows) {
          if (o.action === 'add') store.optOuts.add(a.id, [o.number], o.source, o.keyword);
          else store.optOuts.remove(a.id, [o.number]);
        }
        local.setCursor(office, key, 'optout', rows.at(-1)?.id ?? after);
      });
      if (rows.length < BATCH) return;
    }
  }

  return { importInbound, importOptOuts };
}
