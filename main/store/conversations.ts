// Conversations and the inbound store: one conversation per account and peer number (issue 25,
// migration 045), its thread of inbound and outbound messages, unread state, delete and CSV export.
// Every read and action is one account's: a conversation id of another account is refused.
// Unread counts and last activity are kept by triggers (main/store/migrations/001-initial.sql) on
// the conversation of each message, so every writer stays consistent and each account's apart.
import { createHash } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import { contentLabel } from '../../protocol/content-label.ts';
import { normalizeMsisdn } from '../../protocol/msisdn.ts';
import type { AppDb } from './db.ts';
import { stmt } from '../../storage/sqlite.ts';
import { StoreError } from './errors.ts';
import { exportConversationCsv, exportMessagesCsv } from './inbox-export.ts';
import { outboundHistory } from './outbox-history.ts';
import { MESSAGE_COLUMNS, rowAs, rowsAs, toMessage } from './rows.ts';
import type { MessageRow } from './rows.ts';
import type {
  ConversationCursor,
  ConversationFilter,
  ConversationSummary,
  HistoryFilter,
  InboundMessageInput,
  InboxExportArgs,
  InboundStoreResult,
  MessageRecord,
  Page,
  ThreadCursor,
} from '../../domain/index.ts';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

interface ConversationRow {
  id: number;
  peer: string;
  unread_count: number;
  marked_unread: number;
  has_unread: number;
  last_activity_at: number;
  archived: number;
  contact_id: number | null;
  contact_name: string | null;
  m_id: number | null;
  m_direction: string | null;
  m_kind: string | null;
  m_text: string | null;
  m_status: string | null;
  m_created_at: number | null;
  m_label: string | null;
  m_sent_from: string | null;
}

// The last message is a row of `messages`, or (office mode, issue 28) a negative reference: minus the
// rowid of a recipient of another desk's send (main/office/sends-conversations.ts), read with its
// send's text, time and desk; it is taken only when it is still that number's on that account.
const CONVERSATION_SELECT = `
  SELECT cv.id, cv.peer, cv.unread_count, cv.marked_unread, cv.has_unread, cv.last_activity_at, cv.archived,
         ct.id AS contact_id, ct.name AS contact_name,
         coalesce(m.id, CASE WHEN oj.id IS NOT NULL THEN -o.rowid END) AS m_id, coalesce(m.direction, CASE WHEN oj.id IS NOT NULL THEN 'out' END) AS m_direction,
         coalesce(m.kind, oj.kind) AS m_kind, coalesce(m.text, o.text, oj.text) AS m_text,
         coalesce(m.status, o.status) AS m_status, coalesce(m.created_at, oj.created_at) AS m_created_at,
         m.label AS m_label, os.desk_name AS m_sent_from
    FROM conversations cv
    LEFT JOIN contacts ct ON ct.number = cv.peer
    LEFT JOIN messages m ON m.id = cv.last_message_id
    LEFT JOIN office_send_recipients o ON cv.last_message_id < 0 AND o.rowid = -cv.last_message_id
          AND o.peer = cv.peer
    LEFT JOIN outbox_jobs oj ON oj.id = o.job_id AND oj.account_id = cv.account_id
    LEFT JOIN office_sends os ON os.job_id = oj.id`;

function toSummary(row: ConversationRow): ConversationSummary {
  return {
    id: row.id,
    peer: row.peer,
    contactId: row.contact_id,
    contactName: row.contact_name,
    unreadCount: row.unread_count,
    markedUnread: row.marked_unread === 1,
    hasUnread: row.has_unread === 1,
    lastActivityAt: row.last_activity_at,
    archived: row.archived === 1,
    lastMessage:
      row.m_id === null
        ? null
        : {
            id: row.m_id,
            direction: row.m_direction as 'in' | 'out',
            kind: (row.m_kind ?? 'text') as MessageRecord['kind'],
            text: row.m_text ?? '',
            status: row.m_status as MessageRecord['status'],
            createdAt: row.m_created_at ?? row.last_activity_at,
            label: row.m_label ?? contentLabel({ kind: (row.m_kind ?? 'text') as MessageRecord['kind'] }),
            ...(row.m_sent_from === null ? {} : { sentFrom: row.m_sent_from }),
          },
  };
}

export function clampLimit(limit: number | undefined, fallback = DEFAULT_PAGE_SIZE): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.max(1, Math.min(MAX_PAGE_SIZE, Math.trunc(limit)));
}

/** A sender or recipient as the conversation key: normalised when it is a number, else as given. */
export function peerKey(input: string, defaultCountry?: string): string {
  const n = normalizeMsisdn(input, defaultCountry);
  return n.ok ? n.msisdn : input.trim();
}

/** A message's content key from its conversation keys (ConversationsRepo.contentKey). */
export function contentHash(from: string, to: string, timestamp: string, text: string): string {
  return `h:${createHash('sha256').update([from, to, timestamp, text].join('\u0000')).digest('hex')}`;
}

export class ConversationsRepo {
  readonly #app: AppDb;
  readonly #defaultCountry: string | undefined;
  readonly #upsert: StatementSync;
  readonly #upsertCampaign: StatementSync;
  readonly #threadFirst: StatementSync;
  readonly #threadNext: StatementSync;
  /** storeInbound's two statements, prepared once (a burst of replies stores thousands in a row) */
  readonly #inboundByKey: StatementSync;
  readonly #insertInbound: StatementSync;

  constructor(app: AppDb, options: { defaultCountry?: string } = {}) {
    this.#app = app;
    this.#defaultCountry = options.defaultCountry;
    const db = app.db;
    this.#inboundByKey = db.prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.dedupe_key = ?`);
    this.#insertInbound = db.prepare(
      `INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status,
                             sent_timestamp, gateway_id, dedupe_key, read, via, content_key)
       VALUES (?, 'in', ?, ?, ?, ?, ?, 'received', ?, ?, ?, 0, ?, ?)
       RETURNING ${MESSAGE_COLUMNS.replaceAll('m.', '')}`,
    );
    // A reply or a message to the number alone lists its conversation (campaign_only cleared); a
    // campaign send makes one that is not listed, and leaves a listed one listed.
    this.#upsert = db.prepare(
      `INSERT INTO conversations (account_id, peer, last_activity_at) VALUES (?, ?, ?)
       ON CONFLICT (account_id, peer) DO UPDATE SET campaign_only = 0 RETURNING id`,
    );
    this.#upsertCampaign = db.prepare(
      `INSERT INTO conversations (account_id, peer, last_activity_at, campaign_only) VALUES (?, ?, ?, 1)
       ON CONFLICT (account_id, peer) DO UPDATE SET peer = excluded.peer RETURNING id`,
    );
    this.#threadFirst = db.prepare(
      `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.conversation_id = ?
        ORDER BY m.created_at DESC, m.id DESC LIMIT ?`,
    );
    this.#threadNext = db.prepare(
      `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.conversation_id = ? AND (m.created_at, m.id) < (?, ?)
        ORDER BY m.created_at DESC, m.id DESC LIMIT ?`,
    );
  }

  /**
   * The conversation of `account` ('' for none) with `peer` (already a conversation key), created
   * if needed; `campaign`: for a send to many (issue 12), not listed in the Inbox until the number
   * replies or is sent to alone.
   */
  ensure(account: string, peer: string, at: number = Date.now(), campaign = false): number {
    const row = rowAs<{ id: number }>(
      (campaign ? this.#upsertCampaign : this.#upsert).get(account, peer, at),
    );
    if (!row) throw new StoreError('invalid-state', `could not create the conversation of ${peer}`);
    return row.id;
  }

  /**
   * Conversations by most recent activity, newest first (keyset pagination, served by the
   * conversations_recent index). Unread is shown, not used to order: a conversation stays where it
   * is when it is read. `filter`: the archived ones only, or the unread ones of the inbox.
   */
  list(
    account: string,
    args: { cursor?: ConversationCursor | null; limit?: number; filter?: ConversationFilter } = {},
  ): Page<ConversationSummary, ConversationCursor> {
    const limit = clampLimit(args.limit);
    const c = args.cursor;
    // A campaign's recipients are not listed until they reply or are sent to alone (issue 12).
    // One account's (045: conversations_recent leads with the account).
    const where = [
      'cv.account_id = ?',
      'cv.campaign_only = 0',
      args.filter === 'archived' ? 'cv.archived = 1' : 'cv.archived = 0',
    ];
    const params: Array<string | number> = [account];
    if (args.filter === 'unread') where.push('cv.has_unread = 1');
    if (c) {
      where.push('(cv.last_activity_at, cv.id) < (?, ?)');
      params.push(c.lastActivityAt, c.id);
    }
    // A few shapes of the query (filter × cursor): each prepared once, as the fixed pages were.
    const rows = rowsAs<ConversationRow>(
      stmt(
        this.#app.db,
        `${CONVERSATION_SELECT} WHERE ${where.join(' AND ')}
            ORDER BY cv.last_activity_at DESC, cv.id DESC LIMIT ?`,
      ).all(...params, limit + 1),
    );
    const items = rows.slice(0, limit).map(toSummary);
    const last = items[items.length - 1];
    return {
      items,
      next: rows.length > limit && last ? { lastActivityAt: last.lastActivityAt, id: last.id } : null,
    };
  }

  /** Archive (hide from the inbox until the next inbound message) or bring back. */
  setArchived(account: string, conversationId: number, archived: boolean): void {
    this.#app.transaction(() => {
      this.#mine(account, conversationId);
      this.#app.db
        .prepare('UPDATE conversations SET archived = ? WHERE id = ?')
        .run(archived ? 1 : 0, conversationId);
    });
  }

  /** Every inbound message read and every manual "unread" mark cleared; the number of conversations touched. */
  markAllRead(account: string): number {
    return this.#app.transaction(() => {
      const db = this.#app.db;
      const touched = rowAs<{ n: number }>(
        db
          .prepare('SELECT count(*) AS n FROM conversations WHERE account_id = ? AND has_unread = 1')
          .get(account),
      );
      // messages_unread (migration 015) holds only the unread: the account's are found through it
      db.prepare(
        `UPDATE messages SET read = 1 WHERE direction = 'in' AND read = 0
            AND conversation_id IN (SELECT id FROM conversations WHERE account_id = ?)`,
      ).run(account);
      db.prepare('UPDATE conversations SET marked_unread = 0 WHERE account_id = ? AND marked_unread = 1').run(
        account,
      );
      return touched?.n ?? 0;
    });
  }

  /** The conversation with `number` (normalised with the default country), created if there is none. */
  open(account: string, number: string): ConversationSummary {
    const id = this.ensure(account, peerKey(number, this.#defaultCountry));
    // Issue 27 item 6: a send to many's recipients moved into a conversation just made (migration
    // 055) are older than it; its newest is its last message, as a campaign-only conversation's was.
    stmt(
      this.#app.db,
      `UPDATE conversations SET last_message_id = (SELECT m.id FROM messages m WHERE m.conversation_id = ?1
              ORDER BY m.created_at DESC, m.id DESC LIMIT 1) WHERE id = ?1 AND last_message_id IS NULL`,
    ).run(id);
    const found = this.get(id);
    if (!found) throw new StoreError('invalid-state', `could not open the conversation of ${number}`);
    return found;
  }

  /** The conversation `id`, whichever account's it is (the services ask through `mine`). */
  get(id: number): ConversationSummary | null {
    const row = rowAs<ConversationRow>(
      this.#app.db.prepare(`${CONVERSATION_SELECT} WHERE cv.id = ?`).get(id),
    );
    return row ? toSummary(row) : null;
  }

  byPeer(account: string, peer: string): ConversationSummary | null {
    const row = rowAs<ConversationRow>(
      this.#app.db
        .prepare(`${CONVERSATION_SELECT} WHERE cv.account_id = ? AND cv.peer = ?`)
        .get(account, peerKey(peer, this.#defaultCountry)),
    );
    return row ? toSummary(row) : null;
  }

  /** One page of a thread, newest first (the UI shows it bottom-up). */
  thread(
    account: string,
    args: { conversationId: number; cursor?: ThreadCursor | null; limit?: number },
  ): Page<MessageRecord, ThreadCursor> {
    this.#mine(account, args.conversationId);
    const limit = clampLimit(args.limit);
    const c = args.cursor;
    const rows = rowsAs<MessageRow>(
      c
        ? this.#threadNext.all(args.conversationId, c.createdAt, c.id, limit + 1)
        : this.#threadFirst.all(args.conversationId, limit + 1),
    );
    const items = rows.slice(0, limit).map(toMessage);
    const last = items[items.length - 1];
    return { items, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null };
  }

  message(id: number): MessageRecord | null {
    const row = rowAs<MessageRow>(
      this.#app.db.prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.id = ?`).get(id),
    );
    return row ? toMessage(row) : null;
  }

  /**
   * `account`'s outbound messages (issue 25: those in its conversations), newest first, optionally
   * by status or job.
   */
  history(
    account: string,
    args: { filter?: HistoryFilter; cursor?: ThreadCursor | null; limit?: number } = {},
  ): Page<MessageRecord, ThreadCursor> {
    // Issue 27 item 6: a campaign's lean recipients too (./outbox-history.ts).
    return outboundHistory(this.#app, account, clampLimit(args.limit), args);
  }

  /** Mark every inbound message of the conversation read and clear a manual "unread" mark. */
  markRead(account: string, conversationId: number): void {
    this.#app.transaction(() => {
      this.#mine(account, conversationId);
      this.#app.db
        .prepare("UPDATE messages SET read = 1 WHERE conversation_id = ? AND direction = 'in' AND read = 0")
        .run(conversationId);
      this.#app.db.prepare('UPDATE conversations SET marked_unread = 0 WHERE id = ?').run(conversationId);
    });
  }

  /** Mark the conversation unread (it moves up with the unread ones) until it is read again. */
  markUnread(account: string, conversationId: number): void {
    this.#app.transaction(() => {
      this.#mine(account, conversationId);
      this.#app.db.prepare('UPDATE conversations SET marked_unread = 1 WHERE id = ?').run(conversationId);
    });
  }

  /**
   * Delete the conversation and all its messages (the outbox journal keeps its jobs and batches).
   * Refused while a send to this number is still pending or under way: those rows are the
   * journal's record of what may reach the gateway.
   */
  delete(account: string, conversationId: number): void {
    this.#app.transaction(() => {
      this.#mine(account, conversationId);
      const busy = this.#app.db
        .prepare(
          "SELECT 1 FROM messages WHERE conversation_id = ? AND direction = 'out' AND status IN ('pending', 'sending') LIMIT 1",
        )
        .get(conversationId);
      if (busy) {
        throw new StoreError(
          'invalid-state',
          'a send to this number is still in progress; delete it when it is done',
        );
      }
      this.#app.db.prepare('DELETE FROM conversations WHERE id = ?').run(conversationId);
    });
  }

  /** The account's unread messages (the badge, the window title). */
  unreadTotal(account: string): number {
    const row = rowAs<{ n: number | null }>(
      stmt(this.#app.db, 'SELECT sum(unread_count) AS n FROM conversations WHERE account_id = ?').get(
        account,
      ),
    );
    return row?.n ?? 0;
  }

  /** The key of a message's content: (from, to, timestamp, SHA-256 of the text), numbers normalised. */
  contentKey(input: Pick<InboundMessageInput, 'from' | 'to' | 'timestamp' | 'text'>): string {
    const c = this.#defaultCountry;
    return contentHash(peerKey(input.from, c), peerKey(input.to, c), input.timestamp, input.text);
  }

  /**
   * Store one collected inbound message, once: a message is keyed by the gateway's id when it
   * has one, else by `identity` when the caller knows where it came from (issue 25: the reply
   * spool's answer and position, main/store/reply-spool.ts: two identical messages are two, and
   * reading the same answer again adds nothing), else by (from, to, timestamp, SHA-256 of the
   * text) (imports and tests; two identical messages in one second are then one). It is stored in
   * the conversation of `account` (the account whose session collected or received it; '' none).
   */
  storeInbound(
    account: string,
    input: InboundMessageInput,
    identity?: string,
    via?: 'collect' | 'push',
  ): InboundStoreResult {
    if (input.from.trim() === '')
      throw new StoreError('invalid-input', 'an inbound message without a sender');
    const from = peerKey(input.from, this.#defaultCountry);
    const to = peerKey(input.to, this.#defaultCountry);
    const hash = this.contentKey(input);
    const key =
      input.gatewayId !== undefined && input.gatewayId !== ''
        ? `id:${input.gatewayId}`
        : identity !== undefined
          ? identity
          : hash;
    return this.#app.transaction(() => {
      const existing = rowAs<MessageRow>(this.#inboundByKey.get(key));
      if (existing) return { stored: false, message: toMessage(existing) };
      if (via !== undefined) {
        // Pushed while a poll collected it (or the other way round): a row of the same content
        // that only the other way brought is this one; it is marked as brought both ways (017).
        const twin = rowAs<MessageRow>(
          stmt(
            this.#app.db,
            `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.content_key = ? AND m.via = ? ORDER BY m.id LIMIT 1`,
          ).get(hash, via === 'push' ? 'collect' : 'push'),
        );
        if (twin) {
          stmt(this.#app.db, "UPDATE messages SET via = 'both' WHERE id = ?").run(twin.id);
          return { stored: false, message: toMessage(twin) };
        }
      }
      const receivedAt = input.receivedAt ?? Date.now();
      const conversationId = this.ensure(account, from, receivedAt);
      const row = rowAs<MessageRow>(
        this.#insertInbound.get(
          conversationId,
          input.kind ?? 'text',
          from,
          to,
          input.text,
          receivedAt,
          input.timestamp,
          input.gatewayId ?? null,
          key,
          via ?? null,
          via !== undefined ? hash : null,
        ),
      );
      if (!row) throw new StoreError('invalid-state', 'the inbound message was not stored');
      return { stored: true, message: toMessage(row) };
    });
  }

  /** The whole conversation as CSV (oldest first), one message a line. */
  exportCsv(account: string, conversationId: number): string {
    this.#mine(account, conversationId);
    return exportConversationCsv(this.#app.db, conversationId);
  }

  /**
   * Messages of the account's conversations as CSV (oldest first): all of them, those of a date
   * range (`from` inclusive, `to` exclusive, epoch ms) and/or those a search matches (the search's
   * own word rules, main/store/search.ts). A search with nothing searchable exports nothing.
   */
  exportMessages(account: string, args: InboxExportArgs = {}): string {
    return exportMessagesCsv(this.#app.db, account, args);
  }

  /**
   * Whether conversation `id` is `account`'s; refused (never acted on) when it is another
   * account's, as outbox-account.ts refuses another account's job.
   */
  #mine(account: string, conversationId: number): void {
    const row = rowAs<{ account_id: string }>(
      stmt(this.#app.db, 'SELECT account_id FROM conversations WHERE id = ?').get(conversationId),
    );
    if (!row) throw new StoreError('not-found', `no conversation ${conversationId}`);
    if (row.account_id !== account)
      throw new StoreError(
        'invalid-state',
        'this conversation belongs to another account: sign in to it to see or change it',
      );
  }
}
