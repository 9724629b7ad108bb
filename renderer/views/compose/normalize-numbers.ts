// Many numbers at once (a pasted list): normalizeMsisdn in a Web Worker (normalize-worker.ts, bundled
// by vite from the `new Worker(new URL(…))` below), so the page's main thread stays free. Where no
// Worker can be made (a test DOM without workers), the same work runs on this thread in slices of
// SLICE numbers with a pause between them, so the page still answers input between slices.
import { normalizeMsisdn } from '../../../protocol/msisdn.ts';
import type { MsisdnResult } from '../../../protocol/msisdn.ts';

/** Up to this many numbers are normalised at once where they are typed (well under a millisecond). */
export const INLINE_MAX = 100;
const SLICE = 2_000;

export interface NormalizeRequest {
  id: number;
  inputs: string[];
  country: string | undefined;
}
export interface NormalizeReply {
  id: number;
  results: MsisdnResult[];
}

let worker: Worker | null | undefined;
let seq = 0;
const requests = new Map<number, NormalizeRequest>();
const waiting = new Map<number, (results: MsisdnResult[]) => void>();

function theWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./normalize-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<NormalizeReply>) => {
      waiting.get(e.data.id)?.(e.data.results);
      waiting.delete(e.data.id);
    };
    worker.onerror = () => {
      // A worker that cannot start (or died): finish what it had on this thread, and stop using it.
      worker?.terminate();
      worker = null;
      for (const [id, resolve] of waiting) {
        const pending = requests.get(id);
        if (pending) void inSlices(pending.inputs, pending.country).then(resolve);
      }
      waiting.clear();
    };
  } catch {
    worker = null;
  }
  return worker;
}

async function inSlices(inputs: string[], country: string | undefined): Promise<MsisdnResult[]> {
  const out: MsisdnResult[] = [];
  for (let i = 0; i < inputs.length; i += SLICE) {
    if (i > 0) await new Promise((r) => setTimeout(r, 0));
    for (const input of inputs.slice(i, i + SLICE)) out.push(normalizeMsisdn(input, country));
  }
  return out;
}

/** normalizeMsisdn of every input, in order, off the main thread when there are many. */
export function normalizeMany(inputs: string[], country: string | undefined): Promise<MsisdnResult[]> {
  if (inputs.length <= INLINE_MAX) return Promise.resolve(inputs.map((i) => normalizeMsisdn(i, country)));
  const w = theWorker();
  if (w === null) return inSlices(inputs, country);
  const id = ++seq;
  const request: NormalizeRequest = { id, inputs, country };
  requests.set(id, request);
  return new Promise((resolve) => {
    waiting.set(id, (results) => {
      requests.delete(id);
      resolve(results);
    });
    w.postMessage(request);
  });
}
