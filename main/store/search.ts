// Search across one account's messages (issue 25: those of its conversations) and the contacts
// (shared by the desk) with SQLite FTS5 (tables and triggers in
// main/store/migrations/001-initial.sql). What the user types is never passed to MATCH as FTS5
// syntax: it is split into words, each word becomes a quoted string ("" doubles a quote) with a
// prefix star, and the words are ANDed. So `"`, `*`, `(`, `AND`, `NEAR`, `col:` and friends are
// just text, and a half-typed word already matches ("ali" finds "Alice").
//
// Issue 27: sends are searched too, one hit per outbox job (outbox_jobs_fts, migration 058): a
// campaign's recipients without a listed conversation are lean rows (migration 055) that the
// message search does not read, so "what did I send about X" is answered by the send itself.
import type { StatementSync } from 'node:sqlite';
import type { AppDb } from './db.ts';
import { CONTACT_COLUMNS, MESSAGE_COLUMNS, rowAs, rowsAs, toContact, toMessage } from './rows.ts';
import type { ContactRow, MessageRow } from './rows.ts';
import type { SearchResults, SendHit } from '../../domain/index.ts';

export const SEARCH_LIMIT_DEFAULT = 50;
const SEARCH_LIMIT_MAX = 500;
/** Words beyond this are ignored (a pasted essay must not build a huge query). */
const MAX_TERMS = 16;
/** Rows read per hit wanted, so that hits folded by job still fill a page. */
const OVERFETCH = 4;
const SNIPPET_START = '\u0002';
const SNIPPET_END = '\u0003';

/**
 * Turn user input into a safe FTS5 query: every word (a run of non-space characters holding at
 * least one letter or digit) becomes `"word"*`, words are ANDed. Null when nothing searchable.
 */
export function buildFtsQuery(input: string): string | null {
  const terms = input
    .normalize('NFC')
    .split(/\s+/u)
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
    .slice(0, MAX_TERMS);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replaceAll('"', '""')}"*`).join(' AND ');
}

interface SendRow {
  id: number;
  created_at: number;
  label: string | null;
  resend_of: number | null;
  snippet: string;
}

interface HitRow extends MessageRow {
  snippet: string;
  contact_name: string | null;
}

export class SearchRepo {
  readonly #messages: StatementSync;
  readonly #contacts: StatementSync;
  readonly #sends: StatementSync;
  readonly #recipientCount: StatementSync;

  constructor(app: AppDb) {
    // Newest first by rowid (messages get increasing ids as they are stored), which lets FTS5
    // walk its index backwards and stop at the limit instead of ranking every match.
    this.#messages = app.db.prepare(
      `SELECT ${MESSAGE_COLUMNS},
              snippet(messages_fts, 0, '${SNIPPET_START}', '${SNIPPET_END}', '…', 16) AS snippet,
              ct.name AS contact_name
         FROM messages_fts
         JOIN messages m ON m.id = messages_fts.rowid
         JOIN conversations cv ON cv.id = m.conversation_id
         LEFT JOIN contacts ct ON ct.number = m.peer
        WHERE messages_fts MATCH ? AND cv.account_id = ?
        ORDER BY messages_fts.rowid DESC
        LIMIT ?`,
    );
    this.#contacts = app.db.prepare(
      `SELECT ${CONTACT_COLUMNS} FROM contacts_fts JOIN contacts c ON c.id = contacts_fts.rowid
        WHERE contacts_fts MATCH ? ORDER BY rank LIMIT ?`,
    );
    // The account's sends and those of no account, as History lists them (./outbox-account.ts);
    // newest first by id, as messages are, so FTS5 stops at the limit.
    this.#sends = app.db.prepare(
      `SELECT j.id, j.created_at, j.label, j.resend_of,
              snippet(outbox_jobs_fts, 0, '${SNIPPET_START}', '${SNIPPET_END}', '…', 16) AS snippet
         FROM outbox_jobs_fts JOIN outbox_jobs j ON j.id = outbox_jobs_fts.rowid
        WHERE outbox_jobs_fts MATCH ? AND (j.account_id = ? OR j.account_id IS NULL)
        ORDER BY outbox_jobs_fts.rowid DESC
        LIMIT ?`,
    );
    // A hit's recipients as History counts them (its `messages` rows and its lean ones), read for
    // the hits returned only: two index ranges (messages_job, the lean primary key by batch).
    this.#recipientCount = app.db.prepare(
      `SELECT (SELECT count(*) FROM messages WHERE job_id = ?1)
            + (SELECT count(*) FROM outbox_batches b JOIN outbox_recipients r ON r.batch_id = b.id
                WHERE b.job_id = ?1)
            + (SELECT coalesce(sum(lean_count), 0) FROM outbox_batches WHERE job_id = ?1 AND lean IS NOT NULL) AS n`,
    );
  }

  /** Messages of `account` ('' for those of no account) and contacts matching `query`. */
  search(account: string, query: string, options: { limit?: number } = {}): SearchResults {
    const match = buildFtsQuery(query);
    if (match === null) return { query, messages: [], contacts: [], sends: [] };
    const limit = Math.max(1, Math.min(SEARCH_LIMIT_MAX, Math.trunc(options.limit ?? SEARCH_LIMIT_DEFAULT)));
    // A send to 5,000 people is 5,000 outbound rows with the same text: show it once (its newest
    // recipient), by reading a few more rows than asked and keeping one per outbox job.
    const seenJobs = new Set<number>();
    const messages = rowsAs<HitRow>(this.#messages.all(match, account, limit * OVERFETCH))
      .filter((r) => {
        if (r.job_id === null) return true;
        if (seenJobs.has(r.job_id)) return false;
        seenJobs.add(r.job_id);
        return true;
      })
      .slice(0, limit)
      .map((r) => ({ message: toMessage(r), snippet: r.snippet, contactName: r.contact_name }));
    const contacts = rowsAs<ContactRow>(this.#contacts.all(match, limit)).map(toContact);
    return { query, messages, contacts, sends: this.#searchSends(account, match, limit) };
  }

  #searchSends(account: string, match: string, limit: number): SendHit[] {
    return rowsAs<SendRow>(this.#sends.all(match, account, limit)).map((r) => ({
      jobId: r.id,
      createdAt: r.created_at,
      snippet: r.snippet,
      label: r.label,
      recipientCount: rowAs<{ n: number }>(this.#recipientCount.get(r.id))?.n ?? 0,
      resendOf: r.resend_of,
    }));
  }
}
