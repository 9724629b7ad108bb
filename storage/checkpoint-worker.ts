// The WAL checkpoints of one SQLite file, run on their own thread (./checkpointer.ts starts it).
// Its own connection copies the frames committed to the -wal file into the database file
// (PRAGMA wal_checkpoint(PASSIVE): never waits for, nor blocks, the writer or a reader) a short
// while after the -wal file last changed; between changes it only looks at the file's size and time.
import { statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { BOOTING, CLOSED, OPEN } from './checkpoint-worker-state.ts';

export interface CheckpointWorkerData {
  file: string;
  /** How often the -wal file is looked at while it changes, and when idle (ms). */
  busyMs: number;
  idleMs: number;
  /** Every checkpoint's outcome is posted to the starting thread (tests, diagnostics). */
  report: boolean;
  /** ./checkpoint-worker-state.ts, one Int32. */
  state: SharedArrayBuffer;
}

/** What a checkpoint did: SQLite's three numbers (busy, frames in the WAL, frames copied). */
export interface CheckpointReport {
  busy: number;
  log: number;
  checkpointed: number;
}

const { file, busyMs, idleMs, report, state: shared } = workerData as CheckpointWorkerData;
const state = new Int32Array(shared);

// Stopped before it started (a store opened and closed at once): it never opens the file.
if (Atomics.compareExchange(state, 0, BOOTING, OPEN) === BOOTING) run();
else parentPort?.close();

function run(): void {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file);
  } catch (error) {
    Atomics.store(state, 0, CLOSED);
    Atomics.notify(state, 0);
    throw error;
  }
  let timer: NodeJS.Timeout | undefined;
  let seen = '';

  const look = (): void => {
    let now = '';
    try {
      const s = statSync(`${file}-wal`);
      now = `${s.size}:${s.mtimeMs}`;
    } catch {
      // no -wal file (yet, or the last connection closed and removed it): nothing to copy
    }
    const changed = now !== '' && now !== seen;
    if (changed) {
      seen = now;
      try {
        const row = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as CheckpointReport | undefined;
        if (report && row)
          parentPort?.postMessage({ busy: row.busy, log: row.log, checkpointed: row.checkpointed });
      } catch (error) {
        // Another connection's checkpoint runs (SQLITE_BUSY): the next look tries again.
        if (report) parentPort?.postMessage({ error: String(error) });
      }
    }
    timer = setTimeout(look, changed ? busyMs : idleMs);
  };

  parentPort?.on('message', (m: unknown) => {
    if (m !== 'stop') return;
    if (timer) clearTimeout(timer);
    db.close();
    Atomics.store(state, 0, CLOSED);
    Atomics.notify(state, 0);
    parentPort?.close();
  });
  look();
}
