// The one submit pipeline every send path uses: form sendsms, the deprecated /sendsms, form sendmms
// and SOAP SubmitMessage. Callers validate the request and authenticate first; this pipeline then
// processes every recipient (spec 7.3: a failing number never stops the rest), reserves credit for
// each recipient and message part in ONE BEGIN IMMEDIATE transaction (so parallel requests, even
// from two instances on one data dir, can never overdraw), stores one row per recipient, and hands
// accepted rows to the network (inside the same transaction) or to the scheduler.
import { randomInt } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { ResponseRecord } from '../protocol/responses.ts';
import { REPORT, describeReport } from '../protocol/reports.ts';
import { normalizeMsisdn } from '../protocol/msisdn.ts';
import { msisdnProblem, splitNumberList } from '../protocol/validate.ts';
import type { DeliveryOption } from '../protocol/limits.ts';
import type { Account } from './accounts.ts';
import { creditAccountId } from './accounts.ts';
import type { GatewayContext, MessageRow } from './context.ts';
import type { OutboundContent } from './content.ts';
import { loadTariffs, priceOf } from './credit.ts';
import { stmt, transaction } from './store/db.ts';
import { toMessageRow } from './messages.ts';

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
}

const ID_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const MESSAGE_ID_LENGTH = 12;

/** A fresh MessageIdentifier: 12 random characters (≤ 15, spec 2.5); uniqueness is enforced by the DB. */
export function newMessageIdentifier(): string {
  let s = '';
  for (let i = 0; i < MESSAGE_ID_LENGTH; i++) s += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return s;
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

export function submitMessage(ctx: GatewayContext, input: SubmitInput): ResponseRecord[] {
  const { db } = ctx;
  const deliveryOption = input.deliveryOption ?? 'Default';
  const parts = Math.max(1, ctx.network.partsFor(input.content));
  const cost = parts * priceOf(loadTariffs(db), deliveryOption);
  const now = Date.now();
  const scheduled = input.sendAt !== undefined && input.sendAt.getTime() > now;
  const contentJson = JSON.stringify(input.content);
  const chargedId = creditAccountId(input.account);
  const requestId = newMessageIdentifier();

  const records = transaction(db, () => {
    const bal = stmt(db, 'SELECT credit FROM accounts WHERE id = ?').get(chargedId) as
      { credit: number } | undefined;
    let balance = bal?.credit ?? 0;
    const insert = stmt(
      db,
      `INSERT INTO messages (message_identifier, account_id, charged_account_id, request_id, recipient, reply_to,
         delivery_option, content, parts, cost, report, status, library_number, scheduled_at, dispatched_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    );
    const job = stmt(db, 'INSERT INTO scheduled_jobs (message_id, due_at) VALUES (?, ?)');
    const out: ResponseRecord[] = [];
    const nowIso = new Date(now).toISOString();
    for (const raw of input.recipients) {
      const id = newMessageIdentifier();
      // The spec's form first (digits with country code, no '+'), then a real numbering-plan check.
      const formProblem = msisdnProblem(raw.trim());
      const number: ReturnType<typeof normalizeMsisdn> =
        formProblem === undefined
          ? normalizeMsisdn(raw.trim())
          : { ok: false, input: raw.trim(), reason: formProblem, code: 'NOT_A_NUMBER' };
      let report: string;
      let text: string;
      let status: string;
      let charged = 0;
      if (!number.ok) {
        report = REPORT.invalidNumber;
        text = `Invalid number ${raw.trim()}: ${number.reason}`.slice(0, 255);
        status = 'rejected';
      } else if (balance < cost) {
        report = REPORT.outOfCredit;
        text = describeReport(report);
        status = 'rejected';
      } else {
        balance -= cost;
        charged = cost;
        report = scheduled ? REPORT.queued : REPORT.accepted;
        text = describeReport(report);
        status = scheduled ? 'scheduled' : 'dispatched';
      }
      const row = insert.get(
        id,
        input.account.id,
        chargedId,
        requestId,
        number.ok ? number.msisdn : raw.trim(),
        input.replyTo ?? null,
        deliveryOption,
        contentJson,
        parts,
        charged,
        report,
        status,
        input.libraryNumber ?? null,
        scheduled ? input.sendAt!.toISOString() : null,
        status === 'dispatched' ? nowIso : null,
      ) as unknown as Parameters<typeof toMessageRow>[0];
      if (status === 'scheduled') job.run(row.id, input.sendAt!.getTime());
      if (status === 'dispatched') {
        const failure = dispatchWithin(ctx, toMessageRow(row));
        if (failure !== null) {
          // Not handed to the network: this recipient is refused and refunded, the rest go on.
          balance += cost;
          report = REPORT.serverError;
          text = `Not sent: the network could not take the message (${failure})`.slice(0, 255);
          stmt(
            db,
            "UPDATE messages SET status = 'rejected', cost = 0, report = ?, dispatched_at = NULL WHERE id = ?",
          ).run(report, row.id);
        }
      }
      out.push(record(id, report, text, input.libraryNumber));
    }
    stmt(db, 'UPDATE accounts SET credit = ? WHERE id = ?').run(balance, chargedId);
    return out;
  });

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
