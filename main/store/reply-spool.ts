// Issue 25: the reply spool (migration 016). What the app receives from the gateway — the raw
// bytes of a CollectMessages answer, chunk by chunk as it is read, or a DeliverMessage push — is
// written here, fsynced, before it is parsed: each write is its own transaction committed with
// synchronous = FULL (in WAL mode SQLite then fsyncs the WAL at COMMIT; the connection's NORMAL,
// main/store/sqlite.ts, does not). Because the WAL is appended in order, a later commit under
// NORMAL that an OS crash loses can never take an earlier fsynced spool write with it.
//
// An entry's messages are stored with the identity `a:<answer>:<position>` (ReplySpool.identity),
// and the entry is deleted once all of them are: an entry found again (after kill -9, or held by a
// full disk) is parsed again and stores only what is missing.
import { randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import type { AppDb } from './db.ts';
import { RUN_ID, isRunAlive } from './run-lock.ts';
import { rowsAs } from './rows.ts';
import { stmt } from '../../storage/sqlite.ts';

export type SpoolSource = 'collect' | 'push';

/** One answer (or push) being spooled: its identity and how far it was written. */
export interface SpoolAnswer {
  /** Random id of the answer: the identity of its messages (never reused, unlike a rowid). */
  readonly answer: string;
  readonly source: SpoolSource;
  readonly username: string;
  /** Issue 25 (045): the account it was received for; its messages are stored under it. */
  readonly accountId: string;
  /** Its reply_spool row once the first bytes are written. */
  id: number | null;
  /** Chunks written so far. */
  seq: number;
  /** Issue 25: the answer's HTTP charset (issue 24), written with the entry; undefined when none. */
  charset?: string | undefined;
}

/** The account an answer is received for: its messages are that account's (issue 25). */
export interface SpoolAccount {
  id: string;
  username: string;
}

export interface SpoolEntry {
  id: number;
  answer: string;
  source: SpoolSource;
  username: string;
  /** Null for an entry spooled before migration 045 whose username no account had. */
  accountId: string | null;
  owner: string;
  receivedAt: number;
  /** The HTTP charset of a collected answer, when it had one. */
  charset: string | null;
}

interface EntryRow {
  id: number;
  answer: string;
  source: SpoolSource;
  username: string;
  account_id: string | null;
  owner: string;
  received_at: number;
  charset: string | null;
}

export class ReplySpool {
  readonly #app: AppDb;
  readonly #insertEntry: StatementSync;
  readonly #insertChunk: StatementSync;
  readonly #chunks: StatementSync;
  readonly #remove: StatementSync;

  constructor(app: AppDb) {
    this.#app = app;
    const db = app.db;
    this.#insertEntry = db.prepare(
      `INSERT INTO reply_spool (answer, source, username, account_id, owner, received_at, charset) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    );
    this.#insertChunk = db.prepare('INSERT INTO reply_spool_chunks (spool_id, seq, bytes) VALUES (?, ?, ?)');
    this.#chunks = db.prepare('SELECT bytes FROM reply_spool_chunks WHERE spool_id = ? ORDER BY seq');
    this.#remove = db.prepare('DELETE FROM reply_spool WHERE id = ?');
  }

  /** The dedupe key of the message at `position` (0-based, in the order of the answer) of `answer`. */
  static identity(answer: string, position: number): string {
    return `${ReplySpool.identityPrefix(answer)}${position}`;
  }

  /** What the identities of `answer`'s messages begin with. */
  static identityPrefix(answer: string): string {
    return `a:${answer}:`;
  }

  /** A new answer; nothing is written until its first bytes. */
  begin(source: SpoolSource, account: SpoolAccount): SpoolAnswer {
    return {
      answer: randomUUID(),
      source,
      username: account.username,
      accountId: account.id,
      id: null,
      seq: 0,
    };
  }

  /**
   * Writes the next chunks of `a`, fsynced, in one transaction (the entry too, with its first
   * bytes). Throws what SQLite throws (SQLITE_FULL on a full disk): nothing of it is then written.
   */
  write(a: SpoolAnswer, chunks: readonly Uint8Array[]): void {
    if (chunks.length === 0) return;
    const db = this.#app.db;
    if (db.isTransaction) throw new Error('a spool write must be its own transaction (it is fsynced)');
    db.exec('PRAGMA synchronous = FULL');
    try {
      // `a` moves on only once the COMMIT succeeded (a full disk may fail the COMMIT itself).
      const written = this.#app.transaction(() => {
        let id = a.id;
        if (id === null) {
          const row = this.#insertEntry.get(
            a.answer,
            a.source,
            a.username,
            a.accountId,
            RUN_ID,
            Date.now(),
            a.charset ?? null,
          ) as { id: number } | undefined;
          if (!row) throw new Error('the spool entry was not written');
          id = row.id;
        }
        let seq = a.seq;
        for (const c of chunks) this.#insertChunk.run(id, seq++, c);
        return { id, seq };
      });
      a.id = written.id;
      a.seq = written.seq;
    } finally {
      db.exec('PRAGMA synchronous = NORMAL');
    }
  }

  /** The bytes of entry `id`, in order. */
  bytes(id: number): Uint8Array[] {
    return rowsAs<{ bytes: Uint8Array }>(this.#chunks.all(id)).map((r) => r.bytes);
  }

  /** Deletes entry `id` (call it in the transaction that stores its last messages). */
  remove(id: number): void {
    this.#remove.run(id);
  }

  /**
   * In one transaction: each message of `items` stored by `store` with its identity (its answer and
   * position from `first`; a null item keeps its position and is not stored), `within` (office mode
   * queues what was stored there, issue 28), and with `removeId` that entry ended. What was stored.
   */
  storeMessages<T, R>(
    answer: string,
    first: number,
    items: ReadonlyArray<T | null>,
    store: (item: T, identity: string) => R | null,
    options: { removeId?: number | undefined; within?: ((stored: R[]) => void) | undefined } = {},
  ): R[] {
    return this.#app.transaction(() => {
      const stored: R[] = [];
      items.forEach((m, i) => {
        if (m === null) return;
        const r = store(m, ReplySpool.identity(answer, first + i));
        if (r !== null) stored.push(r);
      });
      options.within?.(stored);
      if (options.removeId !== undefined) this.remove(options.removeId);
      return stored;
    });
  }

  /**
   * How many inbound messages of content `contentKey` (ConversationsRepo.contentKey) of `account` a
   * collected answer other than `answer` brought (issue 24 across runs: reply-intake.ts, a gateway that
   * keeps collected messages answers a new run with them again; issue 25: another account's are not
   * this account's repeats). Served by the messages_content index.
   */
  collectedCopies(contentKey: string, answer: string, account: string): number {
    const own = ReplySpool.identityPrefix(answer);
    const row = stmt(
      this.#app.db,
      `SELECT count(*) AS n FROM messages m JOIN conversations cv ON cv.id = m.conversation_id
        WHERE m.content_key = ? AND m.via IN ('collect', 'both') AND substr(m.dedupe_key, 1, ?) <> ?
          AND cv.account_id = ?`,
    ).get(contentKey, own.length, own, account) as { n: number } | undefined;
    return row?.n ?? 0;
  }

  /** Entries of runs no longer alive (and, with `own`, this run's), oldest first. */
  left(own = false): SpoolEntry[] {
    const rows = rowsAs<EntryRow>(
      this.#app.db
        .prepare(
          'SELECT id, answer, source, username, account_id, owner, received_at, charset FROM reply_spool ORDER BY id',
        )
        .all(),
    );
    return rows
      .filter((r) => (r.owner === RUN_ID ? own : !isRunAlive(this.#app.file, r.owner)))
      .map((r) => ({
        id: r.id,
        answer: r.answer,
        source: r.source,
        username: r.username,
        accountId: r.account_id,
        owner: r.owner,
        receivedAt: r.received_at,
        charset: r.charset,
      }));
  }
}
