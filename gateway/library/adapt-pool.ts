// Image adaption off the request path (issue 17): the header is checked here (cheap; a bomb never
// reaches a decoder), then the decode and re-encode run in one worker thread, so a large image
// stalls no other request. If the worker cannot start or dies, the work is done here instead.
import { Worker } from 'node:worker_threads';
import { adaptContent, isAdaptable } from './adapt.ts';
import type { AdaptedContent, HandsetProfile } from './adapt.ts';
import { checkImageHeader, ImageError } from './image-header.ts';

type Reply = { id: number; result: AdaptedContent } | { id: number; error: string; image: boolean };

let worker: Worker | null = null;
let failed = false;
let nextId = 1;
const waiting = new Map<number, { resolve: (r: AdaptedContent) => void; reject: (e: Error) => void }>();

function ensureWorker(): Worker | null {
  if (worker || failed) return worker;
  try {
    const w = new Worker(new URL('./adapt-worker.ts', import.meta.url));
    w.unref();
    w.on('message', (msg: Reply) => {
      const p = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (!p) return;
      if ('result' in msg) p.resolve({ ...msg.result, bytes: new Uint8Array(msg.result.bytes) });
      else p.reject(msg.image ? new ImageError(msg.error) : new Error(msg.error));
    });
    const fail = (): void => {
      failed = true;
      worker = null;
      for (const [id, p] of waiting) {
        waiting.delete(id);
        p.reject(new Error('the image worker stopped'));
      }
    };
    w.on('error', fail);
    w.on('exit', fail);
    worker = w;
  } catch {
    failed = true;
  }
  return worker;
}

/** adaptContent (./adapt.ts) with the header checked first and the decoding in the worker thread. */
export async function adaptInWorker(
  bytes: Uint8Array,
  contentType: string,
  profile: HandsetProfile,
  opts: { disableRepurposing?: boolean } = {},
): Promise<AdaptedContent> {
  if (opts.disableRepurposing || !isAdaptable(contentType)) return { bytes, contentType, adapted: false };
  checkImageHeader(bytes, contentType);
  const w = ensureWorker();
  if (!w) return adaptContent(bytes, contentType, profile, opts);
  const id = nextId++;
  return new Promise<AdaptedContent>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.postMessage({ id, bytes, contentType, profile, disableRepurposing: opts.disableRepurposing ?? false });
  });
}
