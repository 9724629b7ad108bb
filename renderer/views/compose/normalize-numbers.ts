// What is typed or pasted into "To", split into entries and each read with normalizeMsisdn. A short
// entry is read at once; a long paste (more than INLINE_MAX_CHARS characters: about a hundred numbers)
// is split and read in a Web Worker (normalize-worker.ts, bundled by vite from the
// `new Worker(new URL(…))` below) and answered as three flat arrays (cheap to copy between threads),
// so the page's main thread stays free while 100,000 numbers are read. Where no Worker can be made (a
// test DOM without workers), the same work runs on this thread in slices with a pause between them.
import { normalizeMsisdn, parseRecipientText } from '../../../protocol/msisdn.ts';

/** Up to this many characters are read where they are typed (well under a millisecond). */
export const INLINE_MAX_CHARS = 2_000;
const SLICE = 2_000;

/** Entries in order; `msisdns[i]` is the normalised number, '' when refused for `reasons[i]`. */
export interface Checked {
  tokens: string[];
  msisdns: string[];
  reasons: string[];
}

export interface CheckRequest {
  id: number;
  raw: string;
  country: string | undefined;
}
export interface CheckReply extends Checked {
  id: number;
}

/** The entries of what was typed: a list when it holds a line break, comma or semicolon, else one entry. */
export function splitEntries(raw: string): string[] {
  return raw.includes('\n') || raw.includes(',') || raw.includes(';')
    ? parseRecipientText(raw)
    : [raw.trim()].filter(Boolean);
}

/**
 * How many entries a list holds, counted without splitting it (for "Checking N numbers…" while the
 * worker reads them): runs of text between separators that hold something other than spaces.
 */
export function countEntries(raw: string): number {
  let count = 0;
  let inEntry = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    // , ; \t \n \r U+2028 U+2029 separate; other white space neither starts nor ends an entry.
    if (c === 44 || c === 59 || c === 9 || c === 10 || c === 13 || c === 0x2028 || c === 0x2029)
      inEntry = false;
    else if (!inEntry && c !== 32 && c !== 0xa0) {
      inEntry = true;
      count++;
    }
  }
  return count;
}

function check(
  tokens: string[],
  country: string | undefined,
  from = 0,
  to = tokens.length,
  into?: Checked,
): Checked {
  const out = into ?? { tokens, msisdns: [], reasons: [] };
  for (let i = from; i < to; i++) {
    const r = normalizeMsisdn(tokens[i]!, country);
    out.msisdns.push(r.ok ? r.msisdn : '');
    out.reasons.push(r.ok ? '' : r.reason);
  }
  return out;
}

/** The worker's side: split and read. */
export function checkAll(raw: string, country: string | undefined): Checked {
  return check(splitEntries(raw), country);
}

/** Short input, read now; null when it is long enough for checkLater. */
export function checkNow(raw: string, country: string | undefined): Checked | null {
  return raw.length > INLINE_MAX_CHARS ? null : checkAll(raw, country);
}

let worker: Worker | null | undefined;
let seq = 0;
const pending = new Map<number, { request: CheckRequest; resolve: (c: Checked) => void }>();

async function inSlices(raw: string, country: string | undefined): Promise<Checked> {
  const tokens = splitEntries(raw);
  const out: Checked = { tokens, msisdns: [], reasons: [] };
  for (let i = 0; i < tokens.length; i += SLICE) {
    await new Promise((r) => setTimeout(r, 0));
    check(tokens, country, i, Math.min(tokens.length, i + SLICE), out);
  }
  return out;
}

function theWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./normalize-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<CheckReply>) => {
      const { id, tokens, msisdns, reasons } = e.data;
      pending.get(id)?.resolve({ tokens, msisdns, reasons });
      pending.delete(id);
    };
    worker.onerror = () => {
      // A worker that cannot start (or died): finish what it had on this thread, and stop using it.
      worker?.terminate();
      worker = null;
      for (const { request, resolve } of pending.values())
        void inSlices(request.raw, request.country).then(resolve);
      pending.clear();
    };
  } catch {
    worker = null;
  }
  return worker;
}

/** A long paste, split and read off the main thread. */
export function checkLater(raw: string, country: string | undefined): Promise<Checked> {
  const w = theWorker();
  if (w === null) return inSlices(raw, country);
  const request: CheckRequest = { id: ++seq, raw, country };
  return new Promise((resolve) => {
    pending.set(request.id, { request, resolve });
    w.postMessage(request);
  });
}
