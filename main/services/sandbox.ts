// The local sandbox: the reference gateway on loopback (sandbox mode) with a demo account, its data
// under <dataDir>/sandbox-gateway, run on a worker thread of the app's process (issue 15:
// ./sandbox-worker.ts), so that a campaign to the sandbox has the gateway's work (submit, storage,
// the simulated network, receipt pushes) on the second core instead of between the app's own work
// on the main thread. The demo account is created once and reused; its credentials are kept next
// to the sandbox's own database (sandbox.json, mode 0600): a throwaway account of a gateway that
// only this user's loopback can reach, not a real PIN. The app reaches it like any gateway, over
// HTTP (its URL); the gateway object stays on its thread, reached only through the messages below.
// If that thread cannot start at all (its file could not be loaded, as a packaging fault would
// make it), the same host runs on the main thread instead, said in the log: the sandbox is the app's
// embedded default and must not depend on it.
import { EventEmitter } from 'node:events';
import { Worker, threadId as mainThreadId } from 'node:worker_threads';
import type { SandboxReply, SandboxRequest, SandboxWorkerData, serveSandbox } from './sandbox-host.ts';

/** What startSandbox uses of its Worker; the main-thread fallback (OnThisThread) has the same. */
interface SandboxThread {
  readonly threadId: number;
  postMessage(req: SandboxRequest): void;
  on(event: 'message', listener: (reply: SandboxReply) => void): this;
  on(event: 'error', listener: (err: Error) => void): this;
  once(event: 'exit', listener: (code: number) => void): this;
  terminate(): Promise<number>;
}

/** The sandbox host on the main thread, with a Worker's messages and end (each message async). */
class OnThisThread extends EventEmitter implements SandboxThread {
  readonly threadId = mainThreadId;
  #handler: ((req: SandboxRequest) => void) | undefined;
  #ended = false;

  constructor(serve: typeof serveSandbox, data: SandboxWorkerData) {
    super();
    const post = (reply: SandboxReply): void => queueMicrotask(() => this.emit('message', reply));
    post({ type: 'loaded' });
    void serve(data, {
      post,
      onRequest: (handler) => (this.#handler = handler),
    });
  }

  postMessage(req: SandboxRequest): void {
    queueMicrotask(() => this.#handler?.(req));
  }

  terminate(): Promise<number> {
    if (!this.#ended) {
      this.#ended = true;
      queueMicrotask(() => this.emit('exit', 0));
    }
    return Promise.resolve(0);
  }
}

/** The sandbox thread did not start at all (nothing came from it): the fallback's cue. */
class ThreadNotStarted extends Error {}

export interface Sandbox {
  url: string;
  username: string;
  pin: string;
  /** The thread the gateway runs on: its own, or the main thread's after the fallback. */
  threadId: number;
  /**
   * Point the demo account's push URL (receipts, inbound) at the app's push receiver; resolves once
   * the gateway has stored it (it pushes there from then on).
   */
  setPushUrl(url: string | null): Promise<void>;
  /** Clears the push URL, closes the gateway and ends its thread; resolves once the thread has ended. */
  close(): Promise<void>;
}

export interface SandboxOptions {
  dir: string;
  receiptDelayMs?: number;
  /** Where the sandbox thread's unexpected end is told (the app's log). */
  log?: (line: string) => void;
  /** Called when the thread ends by itself (an uncaught error), not by close(): the sandbox is gone. */
  onDied?: () => void;
  /** The thread's file (tests: one that cannot load, to see the main-thread fallback). */
  workerFile?: URL;
}

export async function startSandbox(opts: SandboxOptions): Promise<Sandbox> {
  const data: SandboxWorkerData = {
    dir: opts.dir,
    ...(opts.receiptDelayMs !== undefined ? { receiptDelayMs: opts.receiptDelayMs } : {}),
  };
  try {
    const file = opts.workerFile ?? new URL('./sandbox-worker.ts', import.meta.url);
    let worker: Worker;
    try {
      worker = new Worker(file, { workerData: data });
    } catch (err) {
      throw new ThreadNotStarted(err instanceof Error ? err.message : String(err));
    }
    return await run(opts, worker);
  } catch (err) {
    if (!(err instanceof ThreadNotStarted)) throw err;
    opts.log?.(
      `the local sandbox gateway runs on the main thread: its own thread did not start (${err.message})`,
    );
    // Loaded only now: the app's main bundle carries no gateway code otherwise.
    const { serveSandbox } = await import('./sandbox-host.ts');
    return await run(opts, new OnThisThread(serveSandbox, data));
  }
}

async function run(opts: SandboxOptions, worker: SandboxThread): Promise<Sandbox> {
  const threadId = worker.threadId;
  /** The thread said its code loaded (its first statement): what fails next is not a start failure. */
  let loaded = false;

  let nextId = 1;
  const waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let started: Sandbox | null = null;
  let closing: Promise<void> | null = null;
  /** Why the thread ended or will end: a start failure, an uncaught error, a close that failed. */
  let failure: Error | null = null;
  let ended = false;
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));

  return await new Promise<Sandbox>((resolveStart, rejectStart) => {
    worker.on('message', (reply: SandboxReply) => {
      switch (reply.type) {
        case 'loaded':
          loaded = true;
          break;
        case 'started': {
          started = sandbox(reply);
          resolveStart(started);
          break;
        }
        case 'failed':
          // The gateway did not start; the thread has nothing left to do.
          failure = new Error(reply.message);
          void worker.terminate();
          break;
        case 'pushUrlSet': {
          const w = waiting.get(reply.id);
          waiting.delete(reply.id);
          if (reply.error === undefined) w?.resolve();
          else w?.reject(new Error(reply.error));
          break;
        }
        case 'closed':
          // Everything of the gateway is closed: end the thread (the nested workers end with it).
          if (reply.error !== undefined) failure = new Error(reply.error);
          void worker.terminate();
          break;
      }
    });
    worker.on('error', (err) => {
      failure ??= err;
    });
    void exited.then((code) => {
      ended = true;
      const why = failure ?? new Error(`the sandbox gateway's thread ended (exit code ${code})`);
      for (const [id, w] of waiting) {
        waiting.delete(id);
        w.reject(new Error(`the sandbox gateway stopped: ${why.message}`));
      }
      if (!started) {
        rejectStart(loaded ? why : new ThreadNotStarted(why.message));
      } else if (!closing) {
        opts.log?.(`the local sandbox gateway stopped: ${why.message}`);
        opts.onDied?.();
      }
    });
  });

  function sandbox(s: { url: string; username: string; pin: string }): Sandbox {
    const send = (req: SandboxRequest): void => worker.postMessage(req);
    return {
      url: s.url,
      username: s.username,
      pin: s.pin,
      threadId,
      setPushUrl(url) {
        if (closing) return Promise.reject(new Error('the local sandbox is closed'));
        if (ended) return Promise.reject(new Error('the local sandbox gateway stopped'));
        const id = nextId++;
        return new Promise<void>((resolve, reject) => {
          waiting.set(id, { resolve, reject });
          send({ type: 'setPushUrl', id, url });
        });
      },
      close() {
        // A thread that died earlier (told when it did) has nothing left to close.
        closing ??= ended
          ? Promise.resolve()
          : (async () => {
              send({ type: 'close' });
              await exited;
              if (failure) throw failure;
            })();
        return closing;
      },
    };
  }
}
