// Issue 16: the journal's "book jobs". A send may reach recipients the journal does not list one by
// one: server address books (SendToAddressBook) and the Cc/Bcc numbers and books of a rich send.
// They are journaled as fields of a batch (migration 013), never expanded into numbers, so a resend
// (which takes numbers) or a continue (which takes only batches never requested) cannot send them
// twice. Each book is a batch of its own (one request, sized alone: the gateway counts every member
// against its per-request limit); the Cc/Bcc go with the first batch only, beside as many numbers
// as still fit (none when a Cc/Bcc book could not be sized).
import type { DatabaseSync } from 'node:sqlite';
import { classifyReport } from '../../protocol/reports.ts';
import type { RecipientResult } from '../../domain/index.ts';
import { stmt } from '../../storage/sqlite.ts';

/** What a job sends beyond its numbers. */
export interface JobExtras {
  /** Address books as SendToAddressBook values, each with its reach (null: not sized). */
  books?: ReadonlyArray<{ ref: string; reach: number | null }>;
  /** The first request's Cc/Bcc fields (SendCc, SendBcc, SendCcAddressBook, SendBccAddressBook). */
  first?: { fields: Record<string, string>; reach: number | null };
}

export interface Chunk {
  text: string;
  to: string[];
  extras?: { fields: Record<string, string>; reach: number | null };
}

export function hasExtras(extras: JobExtras | undefined): boolean {
  return (extras?.books?.length ?? 0) > 0 || Object.keys(extras?.first?.fields ?? {}).length > 0;
}

/**
 * The number chunks (each at most `batchSize`) with the extras placed: the Cc/Bcc on the first
 * chunk, which keeps only the numbers that fit beside their reach (the rest are cut into batches
 * again); then one chunk per address book.
 */
export function placeExtras(
  chunks: Chunk[],
  extras: JobExtras | undefined,
  batchSize: number,
  text: string,
): Chunk[] {
  const out = [...chunks];
  const first = extras?.first;
  if (first && Object.keys(first.fields).length > 0) {
    const room = first.reach === null ? 0 : Math.max(0, batchSize - first.reach);
    const head = out[0];
    if (!head || room === 0) out.unshift({ text, to: [], extras: first });
    else if (head.to.length <= room) out[0] = { ...head, extras: first };
    else {
      // The numbers of the first text are cut again: `room` beside the Cc/Bcc, then full batches.
      const same = out.filter((c) => c.text === head.text);
      const all = same.flatMap((c) => c.to);
      const again: Chunk[] = [{ text: head.text, to: all.slice(0, room), extras: first }];
      for (let i = room; i < all.length; i += batchSize)
        again.push({ text: head.text, to: all.slice(i, i + batchSize) });
      out.splice(0, out.length, ...again, ...out.filter((c) => c.text !== head.text));
    }
  }
  for (const b of extras?.books ?? [])
    out.push({ text, to: [], extras: { fields: { SendToAddressBook: b.ref }, reach: b.reach } });
  return out;
}

/**
 * The gateway's records for a batch's extras — the results that name none of its own numbers (the
 * client labels them "book #n", by their Cc/Bcc number, or by the book for a whole-request answer)
 * — counted on the batch. Returns the reason to keep when every one of them was refused.
 */
export function saveExtraCounts(
  db: DatabaseSync,
  batchId: number,
  results: readonly RecipientResult[],
  isOwnNumber: (to: string) => boolean,
): string | null {
  const row = stmt(db, 'SELECT extra_fields FROM outbox_batches WHERE id = ?').get(batchId) as
    { extra_fields: string | null } | undefined;
  if (row?.extra_fields === null || row?.extra_fields === undefined) return null;
  let answered = 0;
  let accepted = 0;
  let rejected = 0;
  let refusal: string | null = null;
  for (const r of results) {
    if (r.to !== undefined && isOwnNumber(r.to)) continue;
    if (r.report === undefined) continue;
    answered++;
    const c = classifyReport(r.report.trim());
    if (c === 'accepted') accepted++;
    else if (c === 'error') {
      rejected++;
      refusal ??= r.text ?? `report ${r.report}`;
    }
  }
  stmt(
    db,
    'UPDATE outbox_batches SET extra_answered = ?, extra_accepted = ?, extra_rejected = ? WHERE id = ?',
  ).run(answered, accepted, rejected, batchId);
  return answered > 0 && rejected === answered ? refusal : null;
}

/** A batch's extras as answered (zeros before an answer or without extras). */
export function extraTally(
  db: DatabaseSync,
  batchId: number,
): { answered: number; accepted: number; rejected: number } {
  const x = stmt(
    db,
    'SELECT extra_answered AS answered, extra_accepted AS accepted, extra_rejected AS rejected FROM outbox_batches WHERE id = ?',
  ).get(batchId) as { answered: number | null; accepted: number | null; rejected: number | null } | undefined;
  return { answered: x?.answered ?? 0, accepted: x?.accepted ?? 0, rejected: x?.rejected ?? 0 };
}
