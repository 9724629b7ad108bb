// What a desk keeps of office mode in its own SQLite store (migration 044): its desk id, how far
// it has followed each feed of the office database, the writes still to make there, and the
// office uid of every reply it holds.
import { randomUUID } from 'node:crypto';
import type { MessageRecord } from '../../preload/api.ts';
import type { StatementSync } from 'node:sqlite';
import { stmt } from '../../storage/sqlite.ts';
import type { AppDb } from '../store/db.ts';
import { rowAs, rowsAs } from '../store/rows.ts';

export type OutboxKind = 'inbound' | 'optout';

/** A reply as the office database keeps it. */
export interface SharedInbound {
  uid: string;
  sender: string;
  recipient: string;
  body: string;
  kind: string;
  gatewayTimestamp: string;
  receivedAt: number;
}

export interface SharedOptOut {
  uid: string;
  number: string;
  action: 'add' | 'remove';
  source: 'keyword' | 'manual';
  keyword: string | null;
  at: number;
}

export interface OutboxRow {
  id: number;
  kind: OutboxKind;
  account: string;
  payload: string;
}

export class OfficeLocal {
  readonly #app: AppDb;
  readonly #queue: StatementSync;
  readonly #uid: StatementSync;
  readonly #hasUid: StatementSync;

  constructor(app: AppDb) {
    this.#app = app;
    this.#queue = app.db.prepare(
      'INSERT INTO office_outbox (kind, account, payload, created_at) VALUES (?, ?, ?, ?)',
    );
    this.#uid = app.db.prepare('INSERT OR IGNORE INTO office_uids (uid, message_id) VALUES (?, ?)');
    this.#hasUid = app.db.prepare('SELECT 1 AS n FROM office_uids WHERE uid = ?');
  }

  get(key: string): string | null {
    return (
      rowAs<{ value: string }>(this.#app.db.prepare('SELECT value FROM office_state WHERE key = ?').get(key))
        ?.value ?? null
    );
  }

  set(key: string, value: string): void {
    this.#app.db
      .prepare(
        'INSERT INTO office_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      )
      .run(key, value);
  }

  delete(key: string): void {
    this.#app.db.prepare('DELETE FROM office_state WHERE key = ?').run(key);
  }

  /** This desk's id, made once per data folder. */
  deskId(): string {
    const id = this.get('desk_id');
    if (id !== null) return id;
    const made = randomUUID();
    this.set('desk_id', made);
    return made;
  }

  cursor(office: string, account: string, feed: OutboxKind | 'sends' | 'receipts' | 'books'): number {
    return Number(this.get(`cursor:${office}:${feed}:${account}`) ?? 0);
  }

  setCursor(
    office: string,
    account: string,
    feed: OutboxKind | 'sends' | 'receipts' | 'books',
    id: number,
  ): void {
    this.set(`cursor:${office}:${feed}:${account}`, String(id));
  }

  /** Queues a write for the office database (call inside the transaction of the local write). */
  queue(kind: OutboxKind, account: string, payload: SharedInbound | SharedOptOut): void {
    this.#queue.run(kind, account, JSON.stringify(payload), Date.now());
  }

  /** Replies just stored here, queued for the office database under `key` (call inside their transaction). */
  queueInbound(desk: string, key: string, messages: readonly MessageRecord[]): void {
    for (const m of messages) {
      // not `${desk}:${m.id}`: a rowid is reused once the newest message is deleted (a conversation
      // deleted), and the office database keeps the first reply of a uid only (idempotent writes)
      const uid = `${desk}:${randomUUID()}`;
      const shared: SharedInbound = {
        uid,
        sender: m.peer,
        recipient: m.local ?? '',
        body: m.text,
        kind: m.kind,
        gatewayTimestamp: m.sentTimestamp ?? '',
        receivedAt: m.createdAt,
      };
      this.queue('inbound', key, shared);
      this.recordUid(uid, m.id);
    }
  }

  /** The oldest queued writes. */
  pending(limit: number): OutboxRow[] {
    return rowsAs<OutboxRow>(
      this.#app.db
        .prepare('SELECT id, kind, account, payload FROM office_outbox ORDER BY id LIMIT ?')
        .all(limit),
    );
  }

  pendingCount(): number {
    return (
      rowAs<{ n: number }>(this.#app.db.prepare('SELECT count(*) AS n FROM office_outbox').get())?.n ?? 0
    );
  }

  /** Drops the queued writes the office database now has. */
  done(ids: readonly number[]): void {
    const del = this.#app.db.prepare('DELETE FROM office_outbox WHERE id = ?');
    this.#app.transaction(() => {
      for (const id of ids) del.run(id);
    });
  }

  /** Records many uids at once: [uid, message id] pairs (one statement, an import's page). */
  recordUids(pairs: ReadonlyArray<readonly [string, number]>): void {
    if (pairs.length === 0) return;
    stmt(
      this.#app.db,
      `INSERT OR IGNORE INTO office_uids (uid, message_id)
       SELECT value ->> 0, value ->> 1 FROM json_each(?)`,
    ).run(JSON.stringify(pairs));
  }

  /** Which of `uids` this desk holds already. */
  knownUids(uids: readonly string[]): Set<string> {
    const rows = stmt(
      this.#app.db,
      'SELECT uid FROM office_uids WHERE uid IN (SELECT value FROM json_each(?))',
    ).all(JSON.stringify(uids)) as Array<{ uid: string }>;
    return new Set(rows.map((r) => r.uid));
  }

  recordUid(uid: string, messageId: number): void {
    this.#uid.run(uid, messageId);
  }

  hasUid(uid: string): boolean {
    return this.#hasUid.get(uid) !== undefined;
  }
}
