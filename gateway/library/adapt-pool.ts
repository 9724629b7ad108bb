// Image adaption off the request path (issue 17): the file's structure is checked here (cheap; a bomb
// never reaches a decoder), then the decode and re-encode run in worker threads, so a large image
// stalls no other request. If a worker cannot start, the work is done here instead.
//
// Issue 23: a job has a time limit (ADAPT_TIME_LIMIT_MS). A worker past it is terminated, the upload
// refused with an ImageError that says so (report 13), and the next job gets a fresh worker: a bad
// image never blocks the next one. Up to POOL_SIZE jobs run at once, each worker with a heap cap.
// Workers are unref'd and closeAdaptPool() ends them, so the gateway exits on SIGTERM.
import { Worker } from 'node:worker_threads';
import { adaptContent, isAdaptable } from './adapt.ts';
import type { AdaptedContent, HandsetProfile } from './adapt.ts';
import { checkImageHeader, ImageError } from './image-header.ts';

/** Longest an adaption may take; a handset-sized image takes well under a second. */
export const ADAPT_TIME_LIMIT_MS = 20_000;
/** Adaptions running at once (the machine's other work keeps the rest of its cores). */
export const POOL_SIZE = 2;
/** A worker's JavaScript heap, MB (the pixel buffers are bounded by the header checks). */
const WORKER_HEAP_MB = 256;

type Reply = { id: number; result: AdaptedContent } | { id: number; error: string; image: boolean };

interface Job {
  id: number;
  message: Record<string, unknown>;
  timeLimitMs: number;
  resolve: (r: AdaptedContent) => void;
  reject: (e: Error) => void;
}

interface Running {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

let failed = false;
let nextId = 1;
const idle: Running[] = [];
const all = new Set<Running>();
const queue: Job[] = [];

function spawn(): Running | null {
  if (failed) return null;
  let w: Worker;
  try {
    w = new Worker(new URL('./adapt-worker.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
  } catch {
    failed = true;
    return null;
  }
  w.unref();
  const slot: Running = { worker: w, job: null, timer: null };
  all.add(slot);
  w.on('message', (msg: Reply) => {
    const job = slot.job;
    if (!job || job.id !== msg.id) return;
    finish(slot);
    if ('result' in msg) job.resolve({ ...msg.result, bytes: new Uint8Array(msg.result.bytes) });
    else job.reject(msg.image ? new ImageError(msg.error) : new Error(msg.error));
    idle.push(slot);
    dispatch();
  });
  const gone = (err?: Error): void => {
    if (!all.delete(slot)) return;
    const i = idle.indexOf(slot);
    if (i >= 0) idle.splice(i, 1);
    const job = slot.job;
    finish(slot);
    if (job) {
      // out of its heap: the image's doing, said as such; anything else is the gateway's
      job.reject(
        err && (err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ImageError('the image needs more memory to adapt than is allowed')
          : new Error('the image worker stopped'),
      );
    }
    dispatch();
  };
  w.on('error', gone);
  w.on('exit', () => gone());
  return slot;
}

function finish(slot: Running): void {
  if (slot.timer) clearTimeout(slot.timer);
  slot.timer = null;
  slot.job = null;
}

function dispatch(): void {
  while (queue.length > 0) {
    const slot = idle.pop() ?? (all.size < POOL_SIZE ? spawn() : undefined);
    if (slot === undefined) return; // all busy: the next finish dispatches
    const job = queue.shift()!;
    if (slot === null) {
      // no worker can start: adapt here
      const m = job.message as { bytes: Uint8Array; contentType: string; profile: HandsetProfile };
      adaptContent(m.bytes, m.contentType, m.profile).then(job.resolve, job.reject);
      continue;
    }
    slot.job = job;
    slot.timer = setTimeout(() => {
      all.delete(slot);
      finish(slot);
      void slot.worker.terminate();
      job.reject(
        new ImageError(
          `adapting the image took longer than ${job.timeLimitMs / 1000} s; send a smaller or simpler image`,
        ),
      );
      dispatch();
    }, job.timeLimitMs);
    slot.timer.unref();
    slot.worker.postMessage({ id: job.id, ...job.message });
  }
}

/**
 * adaptContent (./adapt.ts) with the structure checked first and the decoding in a worker thread,
 * refused (ImageError) past `timeLimitMs`.
 */
export async function adaptInWorker(
  bytes: Uint8Array,
  contentType: string,
  profile: HandsetProfile,
  opts: { disableRepurposing?: boolean; timeLimitMs?: number } = {},
): Promise<AdaptedContent> {
  if (opts.disableRepurposing || !isAdaptable(contentType)) return { bytes, contentType, adapted: false };
  checkImageHeader(bytes, contentType);
  return new Promise<AdaptedContent>((resolve, reject) => {
    queue.push({
      id: nextId++,
      message: { bytes, contentType, profile, disableRepurposing: false },
      timeLimitMs: opts.timeLimitMs ?? ADAPT_TIME_LIMIT_MS,
      resolve,
      reject,
    });
    dispatch();
  });
}

/** Ends every image worker (the gateway's close): a job still running is refused. */
export async function closeAdaptPool(): Promise<void> {
  const slots = [...all];
  await Promise.all(slots.map((s) => s.worker.terminate()));
}
