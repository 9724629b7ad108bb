// Number checks for large requests on two cores. libphonenumber's numbering-plan check costs tens of
// microseconds per number, the biggest share of a 350-recipient request; the gateway's work is
// otherwise single-threaded. So a large list is split: the first part is checked on the main thread
// while a worker thread checks the rest, and the results are joined in SendTo order. The results
// are exactly those of checkRecipient (same function, same library); only where it runs differs.
// If the worker cannot be started or dies, everything is checked on the main thread.
import { Worker } from 'node:worker_threads';
import type { RecipientCheck } from './recipient-check.ts';
import { checkRecipient } from './recipient-check.ts';

/** Below this many numbers a round trip to the worker is not worth it. */
const SPLIT_MIN = 32;
/** Share of the numbers the worker checks (the main thread also parses, stores and answers). */
const WORKER_SHARE = 0.75;

export class NumberChecker {
  private worker: Worker | null = null;
  private failed = false;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: RecipientCheck[]) => void; numbers: string[] }>();

  /**
   * Checks every number; results in input order. `whileWaiting` runs on the main thread after its
   * own share is done, while the worker may still be busy (the gateway drains its network queue).
   */
  async check(numbers: string[], whileWaiting?: () => void): Promise<RecipientCheck[]> {
    const worker = numbers.length >= SPLIT_MIN ? this.ensureWorker() : null;
    if (!worker) return numbers.map(checkRecipient);
    const split = Math.floor(numbers.length * (1 - WORKER_SHARE));
    const remoteNumbers = numbers.slice(split);
    const id = this.nextId++;
    const remote = new Promise<RecipientCheck[]>((resolve) => {
      this.waiting.set(id, { resolve, numbers: remoteNumbers });
    });
    worker.postMessage({ id, numbers: remoteNumbers });
    const local = numbers.slice(0, split).map(checkRecipient);
    whileWaiting?.();
    return local.concat(await remote);
  }

  private ensureWorker(): Worker | null {
    if (this.worker || this.failed) return this.worker;
    try {
      const worker = new Worker(new URL('./number-worker.ts', import.meta.url));
      worker.unref();
      worker.on('message', (msg: { id: number; results: RecipientCheck[] }) => {
        const w = this.waiting.get(msg.id);
        this.waiting.delete(msg.id);
        w?.resolve(msg.results);
      });
      const fail = (): void => {
        this.failed = true;
        this.worker = null;
        // whatever the worker still owed is checked here
        for (const [id, w] of this.waiting) {
          this.waiting.delete(id);
          w.resolve(w.numbers.map(checkRecipient));
        }
      };
      worker.on('error', fail);
      worker.on('exit', fail);
      this.worker = worker;
    } catch {
      this.failed = true;
    }
    return this.worker;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.failed = true;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}
