// Sends shared between desks (issue 28, docs/OFFICE.md), what a desk keeps of them in its own SQLite
// store (migration 048):
//
// - its own journal's changes still to write to the office database (office_send_changes). TEMP
//   triggers on `messages`, created only when office mode starts (`watchJournal`), add a row for
//   every outbound message the journal writes or changes, inside the journal's own transaction: the
//   journal is not touched, a crash loses no change, and a desk of its own has no trigger at all.
//   A send's recipients in the journal's lean table (app migration 055) are queued the same way, by
//   their key (sends-lean.ts).
// - the sends of other desks (office_sends, office_send_recipients): each a row of outbox_jobs with
//   no batches and no messages. The journal claims, sends, continues and recovers batches only, so
//   it can never send another desk's send; History, paging and the account scope list it like any.
import type { AppDb } from '../store/db.ts';
import { rowAs, rowsAs } from '../store/rows.ts';
import { EMPTY_COUNTS, campaignRoot, countByStatus, toOutcome } from '../store/outbox-reads.ts';
import { stmt } from '../../storage/sqlite.ts';
import type {
  Campaign,
  CampaignRow,
  OutboundStatus,
  MessageRecord,
  OutboxBatch,
  OutboxJob,
  Page,
  RecipientOutcome,
  StatusCounts,
  ThreadCursor,
} from '../../preload/api.ts';
import {
  BOOK_TRIGGERS,
  bookChanges,
  booksOf,
  booksPending,
  booksSummary,
  booksWritten,
  hasBooksPending,
  putBooks,
  toSharedBatch,
} from './sends-books.ts';
import type { SharedBatch } from './sends-books.ts';
import { mergeThread, type ThreadArgs } from './sends-thread.ts';
import { mirrorConversations, newPeers } from './sends-conversations.ts';
import { LEAN_TRIGGERS, WATCHED, changeKey, leanJobOf, recipientStates } from './sends-lean.ts';

/** A recipient of a send as the office database keeps it. */
export interface SharedRecipient {
  sendUid: string;
  peer: string;
  position: number;
  status: string;
  messageIdentifier: string | null;
  report: string | null;
  reportText: string | null;
  classification: string | null;
  receiptReport: string | null;
  receiptAt: number | null;
  sentAt: number | null;
  /** Its own text when it is not the send's (a mail merge), else null. */
  text?: string | null;
  /** The sending desk's change counter: an older write never replaces a newer one. */
  version: number;
}

/** A send as the office database keeps it. */
export interface SharedSend {
  uid: string;
  createdAt: number;
  /** The OutboxContent, JSON. */
  content: string;
  /** The uid of the send it resends (of the same desk), or null. */
  resendOf: string | null;
}

/** A delivery receipt as the office database passes it on. */
export interface SharedReceipt {
  uid: string;
  messageIdentifier: string;
  report: string;
  at: number | null;
}

/** This desk's changes read for one write to the office database, by the local account id. */
export interface LocalChanges {
  /** The last recipient change read and the last book / Cc/Bcc batch change read (dropped once written). */
  upTo: number;
  booksUpTo: number;
  byAccount: Map<string, { sends: SharedSend[]; recipients: SharedRecipient[]; batches: SharedBatch[] }>;
}

/** The uid of a local job: ids alone may be reused once the newest job is gone, with its time not. */
export const sendUid = (desk: string, jobId: number, createdAt: number): string =>
  `${desk}:${jobId}:${createdAt}`;

/** A recipient of another desk's send as this desk keeps it (office_send_recipients). */
interface SharedRow {
  peer: string;
  status: string;
  message_identifier: string | null;
  report: string | null;
  report_text: string | null;
  classification: string | null;
  receipt_report: string | null;
  receipt_at: number | null;
  sent_at: number | null;
}

export class SendsLocal {
  readonly #app: AppDb;
  readonly #desk: string;
  /** A batch of this desk's journal as the store gives it (store.outbox.batch). */
  readonly #batchOf: (id: number) => OutboxBatch | null;

  constructor(app: AppDb, desk: string, batchOf: (id: number) => OutboxBatch | null = () => null) {
    this.#app = app;
    this.#desk = desk;
    this.#batchOf = batchOf;
  }

  /** Office mode on: every outbound message the journal writes or changes is queued (same transaction). */
  watchJournal(): void {
    this.#app.db.exec(`
      CREATE TEMP TRIGGER IF NOT EXISTS office_send_journaled AFTER INSERT ON main.messages
        WHEN NEW.direction = 'out' AND NEW.job_id IS NOT NULL
        BEGIN INSERT INTO main.office_send_changes (message_id) VALUES (NEW.id); END;
      CREATE TEMP TRIGGER IF NOT EXISTS office_send_changed AFTER UPDATE OF ${WATCHED} ON main.messages
        WHEN NEW.direction = 'out' AND NEW.job_id IS NOT NULL
        BEGIN INSERT INTO main.office_send_changes (message_id) VALUES (NEW.id); END;
      ${LEAN_TRIGGERS}
      ${BOOK_TRIGGERS}`);
  }

  hasPending(): boolean {
    return (
      stmt(this.#app.db, 'SELECT 1 AS n FROM office_send_changes LIMIT 1').get() !== undefined ||
      stmt(this.#app.db, 'SELECT 1 AS n FROM office_receipts_out LIMIT 1').get() !== undefined ||
      hasBooksPending(this.#app)
    );
  }

  pendingCount(): number {
    return (
      (rowAs<{ n: number }>(stmt(this.#app.db, 'SELECT count(*) AS n FROM office_send_changes').get())?.n ??
        0) + booksPending(this.#app)
    );
  }

  /**
   * The oldest `limit` changes, each message's state as it is now (several changes of one message
   * are one write), grouped by account. Sends of no account are not shared.
   */
  changes(limit: number): LocalChanges | null {
    const db = this.#app.db;
    const rows = rowsAs<{
      seq: number;
      message_id: number | null;
      batch_id: number | null;
      position: number | null;
    }>(
      stmt(
        db,
        'SELECT seq, message_id, batch_id, position FROM office_send_changes ORDER BY seq LIMIT ?',
      ).all(limit),
    );
    const books = bookChanges(this.#app, limit, this.#batchOf);
    const last = rows.at(-1);
    if (last === undefined && books === null) return null;
    // each recipient once, as it is now, with its newest change's seq (a message id or a lean key)
    const version = new Map<string, number>();
    for (const r of rows) version.set(changeKey(r), r.seq);
    // in each send's order (as the sending desk lists them)
    const states = recipientStates(this.#app, version.keys()).sort(
      (a, b) => a.job_id - b.job_id || a.place - b.place,
    );
    const jobIds = [
      ...new Set([...states.map((s) => s.job_id), ...(books?.batches ?? []).map((b) => b.batch.jobId)]),
    ];
    const jobs = rowsAs<{
      id: number;
      created_at: number;
      content: string;
      text: string;
      resend_of: number | null;
      account_id: string | null;
      parent_at: number | null;
    }>(
      stmt(
        db,
        `SELECT j.id, j.created_at, j.content, j.text, j.resend_of, j.account_id, p.created_at AS parent_at
           FROM outbox_jobs j LEFT JOIN outbox_jobs p ON p.id = j.resend_of
          WHERE j.id IN (SELECT value FROM json_each(?))`,
      ).all(JSON.stringify(jobIds)),
    );
    const byAccount: LocalChanges['byAccount'] = new Map();
    const uidOf = new Map<number, { uid: string; account: string; text: string }>();
    for (const j of jobs) {
      if (j.account_id === null) continue;
      const uid = sendUid(this.#desk, j.id, j.created_at);
      uidOf.set(j.id, { uid, account: j.account_id, text: j.text });
      let entry = byAccount.get(j.account_id);
      if (!entry) byAccount.set(j.account_id, (entry = { sends: [], recipients: [], batches: [] }));
      entry.sends.push({
        uid,
        createdAt: j.created_at,
        content: j.content,
        resendOf:
          j.resend_of !== null && j.parent_at !== null ? sendUid(this.#desk, j.resend_of, j.parent_at) : null,
      });
    }
    for (const s of states) {
      const job = uidOf.get(s.job_id);
      if (!job) continue;
      byAccount.get(job.account)?.recipients.push({
        sendUid: job.uid,
        peer: s.peer,
        position: s.place,
        status: s.status,
        messageIdentifier: s.message_identifier,
        report: s.report,
        reportText: s.report_text,
        classification: s.classification,
        receiptReport: s.receipt_report,
        receiptAt: s.receipt_at,
        sentAt: s.sent_at,
        text: s.text === job.text ? null : s.text,
        version: version.get(s.key) ?? last?.seq ?? 0,
      });
    }
    for (const { batch, version: v } of books?.batches ?? []) {
      const job = uidOf.get(batch.jobId);
      if (job) byAccount.get(job.account)?.batches.push(toSharedBatch(job.uid, batch, v));
    }
    return { upTo: last?.seq ?? 0, booksUpTo: books?.upTo ?? 0, byAccount };
  }

  /** The changes up to `seq` (recipients) and `booksSeq` (book / Cc/Bcc batches) are in the office database. */
  written(seq: number, booksSeq: number): void {
    stmt(this.#app.db, 'DELETE FROM office_send_changes WHERE seq <= ?').run(seq);
    booksWritten(this.#app, booksSeq);
  }

  // ------------------------------------------------------------------ receipts of other desks' sends

  /** A receipt pushed here that matched no send of this desk: queued for the desk that sent it. */
  queueReceipt(account: string, r: SharedReceipt): void {
    stmt(
      this.#app.db,
      'INSERT INTO office_receipts_out (account, uid, message_identifier, report, at) VALUES (?, ?, ?, ?, ?)',
    ).run(account, r.uid, r.messageIdentifier, r.report, r.at);
  }

  queuedReceipts(limit: number): Array<SharedReceipt & { id: number; account: string }> {
    return rowsAs<{
      id: number;
      account: string;
      uid: string;
      message_identifier: string;
      report: string;
      at: number | null;
    }>(
      stmt(
        this.#app.db,
        'SELECT id, account, uid, message_identifier, report, at FROM office_receipts_out ORDER BY id LIMIT ?',
      ).all(limit),
    ).map((r) => ({
      id: r.id,
      account: r.account,
      uid: r.uid,
      messageIdentifier: r.message_identifier,
      report: r.report,
      at: r.at,
    }));
  }

  receiptsWritten(upTo: number): void {
    stmt(this.#app.db, 'DELETE FROM office_receipts_out WHERE id <= ?').run(upTo);
  }

  // ------------------------------------------------------------------ other desks' sends

  /**
   * Whether this desk has a batch requested and not answered yet ('sending'): a receipt that matches
   * none of its messages may then be for that batch, its MessageIdentifiers not stored yet.
   */
  awaitsAnswer(): boolean {
    return (
      stmt(this.#app.db, "SELECT 1 FROM outbox_batches WHERE state = 'sending' LIMIT 1").get() !== undefined
    );
  }

  /**
   * The job of this desk's outbound message with `messageIdentifier` (a `messages` row or a lean
   * recipient), or null when it has none.
   */
  jobOfMessageIdentifier(messageIdentifier: string): number | null {
    return (
      rowAs<{ job_id: number }>(
        stmt(
          this.#app.db,
          "SELECT job_id FROM messages WHERE message_identifier = ? AND direction = 'out' AND job_id IS NOT NULL LIMIT 1",
        ).get(messageIdentifier),
      )?.job_id ?? leanJobOf(this.#app, messageIdentifier)
    );
  }

  /** The local job of another desk's send, or null when it is not here yet. */
  jobOf(uid: string): number | null {
    return (
      rowAs<{ job_id: number }>(stmt(this.#app.db, 'SELECT job_id FROM office_sends WHERE uid = ?').get(uid))
        ?.job_id ?? null
    );
  }

  /**
   * Another desk's send stored here when new (a row of outbox_jobs of `accountId`, no batches), its
   * desk's name kept up to date; its local job id. Call inside a transaction.
   */
  ensureSend(accountId: string, send: SharedSend & { desk: string; deskName: string }): number {
    const db = this.#app.db;
    const known = this.jobOf(send.uid);
    if (known !== null) {
      stmt(db, 'UPDATE office_sends SET desk_name = ? WHERE job_id = ?').run(send.deskName, known);
      return known;
    }
    const content = JSON.parse(send.content) as { kind?: string; text?: string };
    const parent = send.resendOf === null ? null : this.jobOf(send.resendOf);
    const jobId = rowAs<{ id: number }>(
      stmt(
        db,
        'INSERT INTO outbox_jobs (created_at, kind, text, content, resend_of, account_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
      ).get(send.createdAt, content.kind ?? 'text', content.text ?? '', send.content, parent, accountId),
    )?.id;
    if (jobId === undefined) throw new Error('the shared send was not stored');
    stmt(db, 'INSERT INTO office_sends (job_id, uid, desk, desk_name) VALUES (?, ?, ?, ?)').run(
      jobId,
      send.uid,
      send.desk,
      send.deskName,
    );
    return jobId;
  }

  /**
   * Another desk's recipients as it last shared them, written over; a number first stored makes or
   * updates its conversation here as at the sending desk (sends-conversations.ts). Call inside a
   * transaction.
   */
  putRecipients(jobId: number, recipients: readonly SharedRecipient[]): void {
    const fresh = newPeers(
      this.#app,
      jobId,
      recipients.map((r) => r.peer),
    );
    const put = stmt(
      this.#app.db,
      `INSERT INTO office_send_recipients (job_id, peer, position, status, message_identifier, report, report_text,
              classification, receipt_report, receipt_at, sent_at, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (job_id, peer) DO UPDATE SET position = excluded.position, status = excluded.status,
              message_identifier = excluded.message_identifier, report = excluded.report,
              report_text = excluded.report_text, classification = excluded.classification,
              receipt_report = excluded.receipt_report, receipt_at = excluded.receipt_at, sent_at = excluded.sent_at,
              text = excluded.text`,
    );
    for (const r of recipients)
      put.run(
        jobId,
        r.peer,
        r.position,
        r.status,
        r.messageIdentifier,
        r.report,
        r.reportText,
        r.classification,
        r.receiptReport,
        r.receiptAt,
        r.sentAt,
        r.text ?? null,
      );
    mirrorConversations(this.#app, jobId, fresh);
  }

  /** Another desk's book / Cc/Bcc batches as it last shared them. Call inside a transaction. */
  putBatches(jobId: number, batches: readonly SharedBatch[]): void {
    putBooks(this.#app, jobId, batches);
  }

  /**
   * A page of a conversation thread of `accountId` (as the store read it) with the messages other
   * desks sent to its number merged in (sends-thread.ts).
   */
  thread(local: Page<MessageRecord, ThreadCursor>, args: ThreadArgs): Page<MessageRecord, ThreadCursor> {
    return mergeThread(this.#app, local, args);
  }

  /** Another desk's send's book / Cc/Bcc batches (the only batches of it a desk holds). */
  batches(jobId: number): OutboxBatch[] {
    return booksOf(this.#app, jobId);
  }

  /** The name of the desk that sent `jobId` when another desk did, else null (this desk's own send). */
  otherDesk(jobId: number): string | null {
    return (
      rowAs<{ desk_name: string }>(
        stmt(this.#app.db, 'SELECT desk_name FROM office_sends WHERE job_id = ?').get(jobId),
      )?.desk_name ?? null
    );
  }

  /** Another desk's send with its counts (the journal has no rows of it to count). */
  withCounts(job: OutboxJob): OutboxJob {
    const counts: StatusCounts = { ...EMPTY_COUNTS };
    let recipientCount = 0;
    for (const c of rowsAs<{ status: string; n: number }>(
      stmt(
        this.#app.db,
        'SELECT status, count(*) AS n FROM office_send_recipients WHERE job_id = ? GROUP BY status',
      ).all(job.id),
    )) {
      if (c.status in counts) counts[c.status as OutboundStatus] = c.n;
      recipientCount += c.n;
    }
    const books = booksSummary(this.#app, job.id);
    return { ...job, counts, recipientCount, batchCount: 0, ...books };
  }

  /** Another desk's send's recipients, in its order. */
  recipients(jobId: number, now = Date.now()): RecipientOutcome[] {
    return rowsAs<SharedRow>(
      stmt(
        this.#app.db,
        `SELECT peer, status, message_identifier, report, report_text, classification, receipt_report,
                receipt_at, sent_at FROM office_send_recipients WHERE job_id = ? ORDER BY position`,
      ).all(jobId),
    ).map((r) => toOutcome(r, now));
  }

  /**
   * Another desk's campaign (its send and that desk's resends of it, as outbox-campaigns.ts reads a
   * local one): each recipient's latest attempt. `job` reads a send with its counts.
   */
  campaign(
    jobId: number,
    job: (id: number) => OutboxJob | null,
    optedOut?: (numbers: readonly string[]) => { skipped: string[] },
  ): Campaign {
    const rootId = campaignRoot(this.#app, jobId);
    const root = job(rootId);
    if (!root) throw new Error(`no send ${jobId}`);
    const jobIds = rowsAs<{ id: number }>(
      stmt(
        this.#app.db,
        `WITH RECURSIVE tree(id) AS (SELECT ? UNION SELECT j.id FROM outbox_jobs j JOIN tree t ON j.resend_of = t.id)
         SELECT id FROM tree ORDER BY id`,
      ).all(rootId),
    ).map((r) => r.id);
    const now = Date.now();
    const byPeer = new Map<string, CampaignRow>();
    for (const id of jobIds)
      for (const r of this.recipients(id, now)) {
        const before = byPeer.get(r.to);
        byPeer.set(r.to, { ...r, jobId: id, attempts: (before?.attempts ?? 0) + 1, optedOut: false });
      }
    const rows = [...byPeer.values()];
    if (optedOut) {
      const listed = new Set(optedOut(rows.map((r) => r.to)).skipped);
      for (const r of rows) r.optedOut = listed.has(r.to);
    }
    return { job: root, jobIds, rows, counts: countByStatus(rows) };
  }
}
