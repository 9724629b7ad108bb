// WAL checkpoints on a thread of their own (issue 27 item 6), as SQLite's documentation suggests
// for a writer that must not stall: an application may turn automatic checkpoints off and run
// them "in a separate thread or process" (sqlite.org/wal.html, "Application-Initiated Checkpoints").
//
// By default the committing connection copies the WAL into the database file itself once the WAL
// holds 1,000 pages (wal_autocheckpoint), inside that COMMIT, syncing both files: a send to 100,000
// recipients commits ~50 MB of WAL, so the app's main thread (where the send loop, the IPC and the
// progress events run) paid for ~12 checkpoints, ~50 ms of each such send (`npm run bench --
// --only send-path --quick`; docs/ARCHITECTURE.md "What a send costs"). Here ./checkpoint-worker.ts
// runs them on its own connection (PASSIVE: it never waits for the writer, nor makes it wait), a
// short while after the -wal file changed. The main connection keeps its automatic checkpoint at a
// larger size (SAFETY_NET_PAGES), so the WAL cannot grow without bound should the thread fall behind;
// if the thread ends on its own, the connection returns to SQLite's default. While commits go on (a
// send), the PASSIVE checkpoints do not catch up with the last commit, so the log does not start over: it grows to
// SAFETY_NET_PAGES (~41 MB) and that checkpoint of the main connection's is what resets it (~30 ms,
// most frames already copied here; measured by a review, 2026-11-27). When the log starts over, its
// file is cut back to WAL_SIZE_LIMIT (journal_size_limit), so the ~41 MB are not kept until close.
//
// The thread starts when the app first writes a lot (checkpointsOnDemand: the -wal file past
// START_BYTES), not with every database opened: a thread costs ~20-40 ms of CPU to start, and a
// desk that writes a message now and then has SQLite's own checkpoint of a few pages.
//
// Written here: no library runs SQLite checkpoints for node:sqlite; the work is one PRAGMA.
import { statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { BOOTING, CLOSED, OPEN, STOPPING } from './checkpoint-worker-state.ts';
import type { CheckpointReport, CheckpointWorkerData } from './checkpoint-worker.ts';

export type { CheckpointReport };

/** The main connection's own automatic checkpoint while the thread runs (pages, ~40 MB). */
export const SAFETY_NET_PAGES = 10_000;
/** What the -wal file is cut back to when the log starts over (journal_size_limit, bytes; ~1,000 pages). */
export const WAL_SIZE_LIMIT = 4 * 1024 * 1024;
/** SQLite's default automatic checkpoint (pages), restored when the thread ends on its own. */
export const SQLITE_DEFAULT_PAGES = 1_000;
/** The longest stop() waits for the thread to close its connection (ms). */
const STOP_WAIT_MS = 1_000;

export interface Checkpointer {
  /**
   * Ends the thread, waiting (≤ 1 s) until its connection is closed, so that the caller's own
   * close is the last one: it checkpoints what is left and removes the -wal file, as before.
   */
  stop(): void;
  /** The thread exited (after stop, or on its own). */
  readonly ended: Promise<void>;
}

export interface CheckpointerOptions {
  /** How often the -wal file is looked at while it changes (ms; 50) … */
  busyMs?: number;
  /** … and while it does not (ms; 1000). */
  idleMs?: number;
  /** Each checkpoint's outcome (tests, diagnostics). */
  onCheckpoint?: (report: CheckpointReport) => void;
}

/** Checkpoints of `file` (open on `db`, in WAL mode) on their own thread from now on. */
export function startCheckpointer(
  db: DatabaseSync,
  file: string,
  options: CheckpointerOptions = {},
): Checkpointer {
  const shared = new SharedArrayBuffer(4);
  const state = new Int32Array(shared);
  const data: CheckpointWorkerData = {
    file,
    busyMs: options.busyMs ?? 50,
    idleMs: options.idleMs ?? 1000,
    report: options.onCheckpoint !== undefined,
    state: shared,
  };
  const worker = new Worker(new URL('./checkpoint-worker.ts', import.meta.url), { workerData: data });
  // The app does not stay alive for its checkpoints: the last connection's close copies what is left.
  worker.unref();
  db.exec(`PRAGMA wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT}`);
  let stopping = false;
  const report = options.onCheckpoint;
  if (report)
    worker.on('message', (m: CheckpointReport | { error: string }) => {
      if ('log' in m) report(m);
    });
  const ended = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      // On its own (an error): the main connection checkpoints as SQLite does by default again.
      if (!stopping && db.isOpen) db.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
      resolve();
    });
    worker.once('error', () => undefined); // an 'exit' follows
  });
  return {
    stop() {
      if (stopping) return;
      stopping = true;
      // The connection checkpoints by itself again (it is usually closed next).
      if (db.isOpen) db.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
      // Not started yet: it will not open the file. Open: asked to close, and waited for.
      if (Atomics.compareExchange(state, 0, BOOTING, STOPPING) === BOOTING) return;
      if (Atomics.load(state, 0) !== OPEN) return;
      worker.postMessage('stop');
      // Where the thread may not block (Atomics.wait throws: a browser-like main thread), the thread's
      // connection may close after this one: it then removes the -wal file itself.
      try {
        const deadline = Date.now() + STOP_WAIT_MS;
        for (
          let left = STOP_WAIT_MS;
          Atomics.load(state, 0) !== CLOSED && left > 0;
          left = deadline - Date.now()
        )
          Atomics.wait(state, 0, OPEN, left);
      } catch {
        // not allowed to wait here
      }
    },
    ended,
  };
}

/** The -wal file size past which checkpointsOnDemand starts the thread (~500 pages). */
export const START_BYTES = 2 * 1024 * 1024;
/** How many commits apart checkpointsOnDemand looks at the -wal file's size. */
const LOOK_EVERY = 16;

export interface CheckpointsOnDemand {
  /** Call after each commit: every LOOK_EVERY-th looks at the -wal file and starts the thread if due. */
  afterCommit(): void;
  /** The thread stopped (if started), as Checkpointer.stop. */
  stop(): void;
}

/** startCheckpointer for `file` once its -wal file passes START_BYTES (after a commit). */
export function checkpointsOnDemand(
  db: DatabaseSync,
  file: string,
  options: CheckpointerOptions = {},
): CheckpointsOnDemand {
  let commits = 0;
  let thread: Checkpointer | null = null;
  let stopped = false;
  return {
    afterCommit() {
      if (thread !== null || stopped || ++commits % LOOK_EVERY !== 0) return;
      let size: number;
      try {
        size = statSync(`${file}-wal`).size;
      } catch {
        return; // no -wal file: nothing written since the last connection closed
      }
      if (size > START_BYTES) thread = startCheckpointer(db, file, options);
    },
    stop() {
      stopped = true;
      thread?.stop();
    },
  };
}
