// The one submit pipeline every send path uses: form sendsms, the deprecated /sendsms, form sendmms
// and SOAP SubmitMessage. Callers validate the request and authenticate first; this pipeline then
// processes every recipient (spec 7.3: a failing number never stops the rest), reserves credit for
// each recipient and message part in ONE BEGIN IMMEDIATE transaction (so parallel requests, even
// from two instances on one data dir, can never overdraw), stores one row per recipient, and queues
// accepted rows for the network (a durable queue entry in the same transaction, drained in the
// background by the network simulator) or hands them to the scheduler.
import { randomInt } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { ResponseRecord } from '../protocol/responses.ts';
import { REPORT, describeReport } from '../protocol/reports.ts';
import { splitNumberList } from '../protocol/validate.ts';
import type { RecipientCheck } from './recipient-check.ts';
import { checkRecipient } from './recipient-check.ts';
import { LIMITS } from '../protocol/limits.ts';
import type { DeliveryOption } from '../protocol/limits.ts';
import type { Account } from './accounts.ts';
import { creditAccountId } from './accounts.ts';
import type { GatewayContext, MessageRow } from './context.ts';
import type { OutboundContent } from './content.ts';
import { loadTariffs, priceOf } from './credit.ts';
import { stmt, transaction } from './store/db.ts';

export interface SubmitInput {
  account: Account;
  /** Recipients in SendTo order (address books already expanded). */
  recipients: string[];
  replyTo?: string;
  deliveryOption?: DeliveryOption;
  /** When set and in the future, the messages are scheduled (SendTimeDelay / SendTimeAbsolute). */
  sendAt?: Date;
  content: OutboundContent;
  /** Library number of an uploaded file, echoed in every record (spec 2.5). */
  libraryNumber?: string;
  /** checkRecipient of each recipient when the caller already ran it (NumberChecker). */
  checked?: RecipientCheck[];
}

const ID_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ'; // ascending ASCII: string order = number order
export const MESSAGE_ID_LENGTH = 12;
const ID_TIME_CHARS = 7; // milliseconds, base 34: wraps every ~1.7 years
const ID_SEQ_CHARS = MESSAGE_ID_LENGTH - ID_TIME_CHARS;
const ID_SEQ_SPACE = ID_ALPHABET.length ** ID_SEQ_CHARS;
const ID_TIME_SPACE = ID_ALPHABET.length ** ID_TIME_CHARS;
// Starts at a random point so two instances on one data dir rarely meet (the DB's UNIQUE constraint
// has the last word: submitMessage draws another identifier on the rare collision).
let idSeq = randomInt(ID_SEQ_SPACE);

function base34(n: number, width: number): string {
  let s = '';
  for (let i = 0; i < width; i++) {
    s = ID_ALPHABET[n % ID_ALPHABET.length]! + s;
    n = Math.floor(n / ID_ALPHABET.length);
  }
  return s;
}

/**
 * A fresh MessageIdentifier (≤ 15 characters, spec 2.5): 7 characters of the current millisecond and
 * 5 of a per-process sequence. Identifiers are therefore in time order, so the UNIQUE index (and the
 * PDU and receipt indexes keyed by it) grows at its right edge: a 350-recipient request touches a few
 * index pages instead of ~350 random ones, which is most of what a commit costs. They are unique,
 * not secret: nothing is authorised by knowing one.
 */
export function newMessageIdentifier(now = Date.now()): string {
  idSeq = (idSeq + 1) % ID_SEQ_SPACE;
  return base34(now % ID_TIME_SPACE, ID_TIME_CHARS) + base34(idSeq, ID_SEQ_CHARS);
}

function isIdentifierCollision(err: unknown): boolean {
  return err instanceof Error && /UNIQUE constraint failed: messages\.message_identifier/.test(err.message);
}

/** Rows per INSERT statement of a submit (15 values each, far below SQLite's variable limit). */
const INSERT_CHUNK = 50;
const INSERT_COLUMNS = `message_identifier, account_id, charged_account_id, request_id, recipient, reply_to,
  delivery_option, content, parts, cost, report, status, library_number, scheduled_at, dispatched_at`;
const insertSqls = new Map<number, string>();
/** `INSERT INTO messages … VALUES (…), (…)` for `rows` rows (one statement, cached by stmt). */
function insertSql(rows: number): string {
  let sql = insertSqls.get(rows);
  if (sql === undefined) {
    const one = `(${Array.from({ length: 15 }, () => '?').join(', ')})`;
    sql = `INSERT INTO messages (${INSERT_COLUMNS}) VALUES ${Array.from({ length: rows }, () => one).join(', ')}`;
    insertSqls.set(rows, sql);
  }
  return sql;
}

interface PendingRow {
  /** Its place in the request's records. */
  index: number;
  id: string;
  values: Array<string | number | null>;
  report: string;
  text: string;
  status: 'rejected' | 'scheduled' | 'dispatched';
}

function record(
  messageIdentifier: string,
  report: string,
  text: string,
  libraryNumber?: string,
): ResponseRecord {
  return libraryNumber === undefined
    ? { messageIdentifier, report, text }
    : { messageIdentifier, report, text, libraryNumber };
}

/**
 * Stores one row per recipient and reserves credit for each accepted one in ONE BEGIN IMMEDIATE
 * transaction; accepted rows of an immediate send are queued for the network in the same
 * transaction as one network_queue entry (their id range). The simulated SMSC (PDU encoding,
 * receipts) works off the request path: NetworkSimulator drains the queue right after the answer.
 */
export function submitMessage(ctx: GatewayContext, input: SubmitInput): ResponseRecord[] {
  const { db } = ctx;
  const deliveryOption = input.deliveryOption ?? 'Default';
  const parts = Math.max(1, ctx.network.partsFor(input.content));
  const cost = parts * priceOf(loadTariffs(db), deliveryOption);
  const now = Date.now();
  const scheduled = input.sendAt !== undefined && input.sendAt.getTime() > now;
  const scheduledAt = scheduled ? input.sendAt!.toISOString() : null;
  const contentJson = JSON.stringify(input.content);
  const chargedId = creditAccountId(input.account);
  const requestId = newMessageIdentifier();
  const accountId = input.account.id;
  const replyTo = input.replyTo ?? null;
  const libraryNumber = input.libraryNumber ?? null;
  const nowIso = new Date(now).toISOString();
  // Numbers are checked before the write lock is taken: the lock is held only for the writes.
  const checked =
    input.checked?.length === input.recipients.length ? input.checked : input.recipients.map(checkRecipient);
  const acceptedText = describeReport(scheduled ? REPORT.queued : REPORT.accepted);
  const outOfCreditText = describeReport(REPORT.outOfCredit);

  let queued = false;
  const records = transaction(db, () => {
    const bal = stmt(db, 'SELECT credit FROM accounts WHERE id = ?').get(chargedId) as
      { credit: number } | undefined;
    let balance = bal?.credit ?? 0;
    const job = stmt(db, 'INSERT INTO scheduled_jobs (message_id, due_at) VALUES (?, ?)');
    const out: ResponseRecord[] = [];
    let firstDispatched = 0;
    let lastDispatched = 0;
    // Rows are written INSERT_CHUNK at a time (one statement, one call into SQLite for 50 rows).
    let chunk: PendingRow[] = [];
    const flush = (): void => {
      if (chunk.length === 0) return;
      const rows = chunk;
      chunk = [];
      for (let attempt = 1; ; attempt++) {
        let res: ReturnType<StatementSync['run']>;
        try {
          res = stmt(db, insertSql(rows.length)).run(...rows.flatMap((r) => [r.id, ...r.values]));
        } catch (err) {
          // The statement wrote nothing: new identifiers for its rows, and again.
          if (!isIdentifierCollision(err) || attempt >= 5) throw err;
          for (const r of rows) {
            r.id = newMessageIdentifier();
            out[r.index] = record(r.id, r.report, r.text, input.libraryNumber);
          }
          continue;
        }
        // One statement under the write transaction: its rows got consecutive ids ending at this one.
        const first = Number(res.lastInsertRowid) - rows.length + 1;
        rows.forEach((r, j) => {
          const rowId = first + j;
          if (r.status === 'scheduled') job.run(rowId, input.sendAt!.getTime());
          if (r.status === 'dispatched') {
            if (firstDispatched === 0) firstDispatched = rowId;
            lastDispatched = rowId;
          }
        });
        return;
      }
    };
    for (let i = 0; i < input.recipients.length; i++) {
      const raw = input.recipients[i]!;
      const number = checked[i]!;
      const id = newMessageIdentifier(now);
      let report: string;
      let text: string;
      let status: 'rejected' | 'scheduled' | 'dispatched';
      let charged = 0;
      if (!number.ok) {
        report = REPORT.invalidNumber;
        text = `Invalid number ${raw.trim()}: ${number.reason}`.slice(0, LIMITS.textMax);
        status = 'rejected';
      } else if (balance < cost) {
        report = REPORT.outOfCredit;
        text = outOfCreditText;
        status = 'rejected';
      } else {
        balance -= cost;
        charged = cost;
        report = scheduled ? REPORT.queued : REPORT.accepted;
        text = acceptedText;
        status = scheduled ? 'scheduled' : 'dispatched';
      }
      const values = [
        accountId,
        chargedId,
        requestId,
        number.ok ? number.msisdn : raw.trim(),
        replyTo,
        deliveryOption,
        contentJson,
        parts,
        charged,
        report,
        status,
        libraryNumber,
        scheduledAt,
        status === 'dispatched' ? nowIso : null,
      ];
      out.push(record(id, report, text, input.libraryNumber));
      chunk.push({ index: i, id, values, report, text, status });
      if (chunk.length === INSERT_CHUNK) flush();
    }
    flush();
    stmt(db, 'UPDATE accounts SET credit = ? WHERE id = ?').run(balance, chargedId);
    if (firstDispatched !== 0) {
      stmt(
        db,
        'INSERT INTO network_queue (first_message_id, last_message_id, enqueued_at) VALUES (?, ?, ?)',
      ).run(firstDispatched, lastDispatched, now);
      queued = true;
    }
    return out;
  });

  if (queued) ctx.network.drainSoon?.();
  if (scheduled) ctx.scheduler.poke();
  return records;
}

/**
 * Hands `row` to the network inside the caller's transaction (a savepoint), so a message and what
 * the network stores for it (PDUs, pending receipts) are committed together or not at all: a crash
 * can never leave a message marked dispatched that the network never got. Returns null on success,
 * else the reason (the savepoint is rolled back).
 */
export function dispatchWithin(ctx: GatewayContext, row: MessageRow): string | null {
  try {
    transaction(ctx.db, () => ctx.network.dispatch(row));
    return null;
  } catch (err) {
    ctx.log.error('dispatch failed', { messageIdentifier: row.messageIdentifier, error: String(err) });
    return err instanceof Error ? err.message : String(err);
  }
}

export class RecipientError extends Error {}

/**
 * SendTo numbers plus address-book recipients ("name" or "name::group", spec 2.2), in order:
 * the SendTo list first, then each book's members. Throws RecipientError for an unknown book or group.
 */
export function expandRecipients(
  db: DatabaseSync,
  account: Account,
  lists: { sendTo?: string | undefined; addressBooks?: ReadonlyArray<string | undefined> },
): string[] {
  const out: string[] = lists.sendTo ? splitNumberList(lists.sendTo) : [];
  for (const ref of lists.addressBooks ?? []) {
    if (!ref) continue;
    const sep = ref.indexOf('::');
    const bookName = sep < 0 ? ref : ref.slice(0, sep);
    const groupName = sep < 0 ? null : ref.slice(sep + 2);
    const book = stmt(db, 'SELECT id FROM address_books WHERE account_id = ? AND name = ?').get(
      account.id,
      bookName,
    ) as { id: number } | undefined;
    if (!book) throw new RecipientError(`Unknown address book ${bookName}`);
    let rows: Array<{ number: string }>;
    if (groupName === null) {
      rows = stmt(db, 'SELECT number FROM address_book_members WHERE book_id = ? ORDER BY id').all(
        book.id,
      ) as Array<{ number: string }>;
    } else {
      const group = stmt(db, 'SELECT id FROM address_book_groups WHERE book_id = ? AND name = ?').get(
        book.id,
        groupName,
      ) as { id: number } | undefined;
      if (!group) throw new RecipientError(`Unknown group ${groupName} in address book ${bookName}`);
      rows = stmt(
        db,
        `SELECT m.number FROM address_book_members m JOIN address_book_group_members g ON g.member_id = m.id
           WHERE g.group_id = ? ORDER BY m.id`,
      ).all(group.id) as Array<{ number: string }>;
    }
    out.push(...rows.map((r) => r.number));
  }
  return out;
}
