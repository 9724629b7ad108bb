// Inbound messages stored many at a time, each under an identity its source gives it (issue 28: the
// replies an office desk imports from the office database, a page of up to 1,000 at a time, at
// every desk at once). Same rows as ConversationsRepo.storeInbound would write one by one (the
// conversation listed, the message unread, its triggers: unread count, last activity, FTS,
// unarchive), but in statements of ROWS rows: one statement per row cost about three times as much
// (the savepoint, the statements and the number normalisation per row, measured by bench/office.ts).
// Each message keeps its content key and how it came (`via`), so that the collect-repeat filter
// (issue 24, ReplySpool.collectedCopies) sees it as it sees a reply this desk collected.
import type { DatabaseSync } from 'node:sqlite';
import { stmt } from '../../storage/sqlite.ts';
import type { AppDb } from './db.ts';
import { contentHash, peerKey } from './conversations.ts';
import { StoreError } from './errors.ts';
import { MESSAGE_COLUMNS, toMessage } from './rows.ts';
import type { MessageRow } from './rows.ts';
import type { InboundMessageInput, MessageRecord } from '../../domain/index.ts';

/** Rows per statement: 50 × 11 values, far below SQLite's variable limit (32,766). */
const ROWS = 50;

export interface InboundImport extends InboundMessageInput {
  /** The message's identity (its dedupe key): a second import of it adds nothing. */
  identity: string;
}

export interface InboundImportResult {
  /** The messages stored now, in the order given. */
  stored: MessageRecord[];
  /** The message id of every identity given (stored now or before). */
  ids: Map<string, number>;
}

const placeholders = (n: number, one: string): string => Array.from({ length: n }, () => one).join(', ');

export class InboundImportRepo {
  readonly #app: AppDb;
  readonly #defaultCountry: string | undefined;

  constructor(app: AppDb, options: { defaultCountry?: string } = {}) {
    this.#app = app;
    this.#defaultCountry = options.defaultCountry;
  }

  /**
   * Stores `rows` once each by identity, in one transaction (or inside the caller's), in `account`'s
   * conversations (issue 25: a conversation is one account's with one number); `via`: how they came
   * to this app. Rows whose identity is stored already are left as they are.
   */
  storeMany(account: string, rows: readonly InboundImport[], via: 'collect' | 'push'): InboundImportResult {
    for (const r of rows)
      if (r.from.trim() === '') throw new StoreError('invalid-input', 'an inbound message without a sender');
    const keys = new Map<string, string>();
    const key = (n: string): string => {
      let k = keys.get(n);
      if (k === undefined) keys.set(n, (k = peerKey(n, this.#defaultCountry)));
      return k;
    };
    return this.#app.transaction(() => {
      const db = this.#app.db;
      const ids = new Map<string, number>();
      const stored: MessageRecord[] = [];
      for (let start = 0; start < rows.length; start += ROWS) {
        const chunk = rows.slice(start, start + ROWS);
        for (const [identity, id] of existing(db, chunk)) ids.set(identity, id);
        // a row given twice in one call is stored once, like two calls
        const fresh: InboundImport[] = [];
        const taken = new Set<string>();
        for (const r of chunk)
          if (!ids.has(r.identity) && !taken.has(r.identity)) {
            taken.add(r.identity);
            fresh.push(r);
          }
        if (fresh.length === 0) continue;
        const conversations = ensureListed(db, account, fresh, key);
        const args: Array<string | number | null> = [];
        for (const r of fresh) {
          const from = key(r.from);
          const to = key(r.to);
          args.push(
            conversations.get(from)!,
            r.kind ?? 'text',
            from,
            to,
            r.text,
            r.receivedAt ?? Date.now(),
            r.timestamp,
            r.gatewayId ?? null,
            r.identity,
            via,
            contentHash(from, to, r.timestamp, r.text),
          );
        }
        const inserted = stmt(
          db,
          `INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status,
                                 sent_timestamp, gateway_id, dedupe_key, read, via, content_key)
           VALUES ${placeholders(fresh.length, "(?, 'in', ?, ?, ?, ?, ?, 'received', ?, ?, ?, 0, ?, ?)")}
           RETURNING ${MESSAGE_COLUMNS.replaceAll('m.', '')}`,
        ).all(...args) as unknown as MessageRow[];
        // RETURNING's order is not promised: put back in the order given
        const byKey = new Map(inserted.map((m) => [m.dedupe_key ?? '', m]));
        for (const r of fresh) {
          const m = byKey.get(r.identity);
          if (!m) throw new StoreError('invalid-state', 'an inbound message was not stored');
          ids.set(r.identity, m.id);
          stored.push(toMessage(m));
        }
      }
      return { stored, ids };
    });
  }
}

/** The message id of each identity of `rows` stored already. */
function existing(db: DatabaseSync, rows: readonly InboundImport[]): Array<[string, number]> {
  const found = stmt(
    db,
    `SELECT dedupe_key, id FROM messages WHERE dedupe_key IN (${placeholders(rows.length, '?')})`,
  ).all(...rows.map((r) => r.identity)) as Array<{ dedupe_key: string; id: number }>;
  return found.map((f) => [f.dedupe_key, f.id]);
}

/**
 * The conversation id of each sender of `rows`, created if missing and listed (campaign_only
 * cleared) in `account`'s conversations, as ConversationsRepo.ensure does one at a time.
 */
function ensureListed(
  db: DatabaseSync,
  account: string,
  rows: readonly InboundImport[],
  key: (n: string) => string,
): Map<string, number> {
  const first = new Map<string, number>();
  for (const r of rows) {
    const peer = key(r.from);
    if (!first.has(peer)) first.set(peer, r.receivedAt ?? Date.now());
  }
  const peers = [...first.keys()];
  stmt(
    db,
    `INSERT INTO conversations (account_id, peer, last_activity_at) VALUES ${placeholders(peers.length, '(?, ?, ?)')}
     ON CONFLICT (account_id, peer) DO UPDATE SET campaign_only = 0`,
  ).run(...peers.flatMap((p) => [account, p, first.get(p)!]));
  const found = stmt(
    db,
    `SELECT id, peer FROM conversations WHERE account_id = ? AND peer IN (${placeholders(peers.length, '?')})`,
  ).all(account, ...peers) as Array<{ id: number; peer: string }>;
  return new Map(found.map((f) => [f.peer, f.id]));
}
