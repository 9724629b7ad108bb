// Issue 15's held answer (outbox_batches.answer: a batch's results kept from before the next
// request goes out until they are stored, what crash recovery stores instead of making the batch
// unknown), written as columns since issue 27 item 6: {"v":2,"to":[…],"mid":[…],"report":[…],
// "text":[…],"notSent":[indexes]} where the results of one batch (350) were 350 objects. JSON of
// four string arrays is ~half the bytes (~13 KB for 350 answered recipients, was ~28 KB: fewer
// overflow pages written each batch) and stringified faster (no key per result). An answer held by
// an earlier version (a JSON array of results) still reads: an app updated after a crash mid-send
// recovers it.
import type { RecipientResult } from '../../domain/index.ts';

interface HeldColumns {
  v: 2;
  to: Array<string | null>;
  mid: Array<string | null>;
  report: Array<string | null>;
  text: Array<string | null>;
  notSent?: number[];
}

/** The text held for `results`. */
export function encodeHeldAnswer(results: readonly RecipientResult[]): string {
  const n = results.length;
  const to = new Array<string | null>(n);
  const mid = new Array<string | null>(n);
  const report = new Array<string | null>(n);
  const text = new Array<string | null>(n);
  let notSent: number[] | undefined;
  for (let i = 0; i < n; i++) {
    const r = results[i]!;
    to[i] = r.to ?? null;
    mid[i] = r.messageIdentifier ?? null;
    report[i] = r.report ?? null;
    text[i] = r.text ?? null;
    if (r.notSent) (notSent ??= []).push(i);
  }
  const held: HeldColumns = { v: 2, to, mid, report, text, ...(notSent ? { notSent } : {}) };
  return JSON.stringify(held);
}

/** The results a held text stands for (either form). */
export function decodeHeldAnswer(held: string): RecipientResult[] {
  const value = JSON.parse(held) as RecipientResult[] | HeldColumns;
  if (Array.isArray(value)) return value;
  const notSent = new Set(value.notSent ?? []);
  return value.to.map((to, i) => {
    const r: RecipientResult = {};
    if (to !== null) r.to = to;
    const mid = value.mid[i];
    if (mid !== null && mid !== undefined) r.messageIdentifier = mid;
    const report = value.report[i];
    if (report !== null && report !== undefined) r.report = report;
    const text = value.text[i];
    if (text !== null && text !== undefined) r.text = text;
    if (notSent.has(i)) r.notSent = true;
    return r;
  });
}
