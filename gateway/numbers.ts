// Number checks for large requests on two cores. libphonenumber's numbering-plan check costs tens of
// microseconds per number; protocol/msisdn-fast.ts settles the usual ones in about one, and then a
// round trip to a worker (copying the numbers and the verdicts) costs more than it saves (issue 15:
// 13 % more CPU per 100,000-recipient campaign). So the first PROBE numbers of a large list are
// checked on the main thread and timed: only when they were slow (numbers the fast path hands to
// libphonenumber) is the rest split, a share checked on the main thread while a worker thread
// checks the remainder, the results joined in SendTo order. The results are exactly those of
// checkRecipient (same function, same library); only where it runs differs. If the worker cannot
// be started or dies, everything is checked on the main thread.
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { RecipientCheck } from './recipient-check.ts';
import { checkRecipient } from './recipient-check.ts';

/** Below this many numbers a round trip to the worker is not worth it. */
const SPLIT_MIN = 64;
/** Numbers checked (and timed) on the main thread before deciding. */
const PROBE = 32;
/** Average check time (ms) above which the rest goes partly to the worker: libphonenumber's range. */
const SLOW_CHECK_MS = 0.005;
/** Share of the numbers the worker checks (the main thread also parses, stores and answers). */
const WORKER_SHARE = 0.75;

export interface NumberCheckerOptions {
  /** Average check time (ms) of the probe above which the worker is used (tests: 0, always). */
  slowCheckMs?: number;
}

export class NumberChecker {
  private worker: Worker | null = null;
  private failed = false;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: RecipientCheck[]) => void; numbers: string[] }>();

  private readonly slowCheckMs: number;

  constructor(options: NumberCheckerOptions = {}) {
    this.slowCheckMs = options.slowCheckMs ?? SLOW_CHECK_MS;
  }

  /**
   * Checks every number; results in input order. `whileWaiting` runs on the main thread after its
   * own share is done, while the worker may still be busy (the gateway drains its network queue);
   * it is not run when the worker is not used.
   */
  async check(numbers: string[], whileWaiting?: () => void): Promise<RecipientCheck[]> {
    if (numbers.length < SPLIT_MIN || this.failed) return numbers.map(checkRecipient);
    const started = performance.now();
    const probe = numbers.slice(0, PROBE).map(checkRecipient);
    const slow = (performance.now() - started) / PROBE > this.slowCheckMs;
    const worker = slow ? this.ensureWorker() : null;
    if (!worker) return probe.concat(numbers.slice(PROBE).map(checkRecipient));
    const rest = numbers.length - PROBE;
    const split = PROBE + Math.floor(rest * (1 - WORKER_SHARE));
    const remoteNumbers = numbers.slice(split);
    const id = this.nextId++;
    const remote = new Promise<RecipientCheck[]>((resolve) => {
      this.waiting.set(id, { resolve, numbers: remoteNumbers });
    });
    worker.postMessage({ id, numbers: remoteNumbers });
    const local = probe.concat(numbers.slice(PROBE, split).map(checkRecipient));
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
