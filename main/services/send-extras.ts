// Issue 16: how the sending loop labels and records a batch's address book and Cc/Bcc
// (store/outbox-extras.ts): the request's answer lists SendTo, then Cc and Bcc numbers, then every
// book member (gateway order, docs/GATEWAY.md); members are labelled "<book> #n" by the client.
import type { RecipientResult as ClientRecipientResult } from '../client/results.ts';
import { addressBooksOf } from '../client/requests.ts';
import type { OutboxBatch, RecipientResult } from '../../domain/index.ts';

/** The labels of a batch's answer records before its books' members: its numbers, then Cc, Bcc. */
export function labelsOf(batch: OutboxBatch): string[] {
  const f = batch.extras?.fields ?? {};
  const copies = [f.SendCc, f.SendBcc].flatMap((v) => (v ? v.split(',') : []));
  return [...batch.recipients, ...copies];
}

/** How the client labels a batch's book members ("Friends::Team #2"), undefined without a book. */
export function bookLabel(batch: OutboxBatch): string | undefined {
  const books = addressBooksOf(batch.extras?.fields ?? {});
  return books.length > 0 ? books.join(', ') : undefined;
}

/**
 * A whole-request answer (one report for the request, e.g. an unknown book) names no member: it
 * is recorded as one refused record of the batch's extras, so the batch shows what the gateway said.
 */
export function extraResults(
  batch: OutboxBatch,
  results: readonly ClientRecipientResult[],
  error: { code?: string | undefined; message: string } | undefined,
): RecipientResult[] {
  if (!batch.extras || error?.code === undefined) return [];
  const own = new Set(batch.recipients);
  if (results.some((r) => !own.has(r.number) && r.report !== undefined)) return [];
  return [{ to: bookLabel(batch) ?? 'Cc/Bcc', report: error.code, text: error.message }];
}
