// Issue 17, item 18: which runs of the app are alive, without trusting process ids. A batch the
// outbox journal claims is owned by a per-run random id; each run holds an exclusive SQLite lock on
// "<data>/runs/<id>.lock" for as long as it lives. The operating system drops that lock when the
// process ends in any way (kill -9, a crash, a reboot), so "is run X alive?" is "is its lock held?"
// — a reused process id (pid 1 in a container, after a reboot) cannot make a dead run look alive.
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

const locks = new Map<string, DatabaseSync>();

function lockFile(dataFile: string, runId: string): string {
  return join(dirname(dataFile), 'runs', `${runId.replace(/[^\w-]/g, '_')}.lock`);
}

/** Takes this run's lock beside the database `dataFile` (idempotent). */
export function holdRunLock(dataFile: string, runId: string): void {
  if (dataFile === ':memory:') return;
  const file = lockFile(dataFile, runId);
  if (locks.has(file)) return;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const db = new DatabaseSync(file);
  db.exec('PRAGMA locking_mode = EXCLUSIVE');
  db.exec('BEGIN EXCLUSIVE');
  locks.set(file, db);
}

/** Gives this run's lock back (the app closes). */
export function releaseRunLock(dataFile: string, runId: string): void {
  const file = lockFile(dataFile, runId);
  const db = locks.get(file);
  if (!db) return;
  locks.delete(file);
  try {
    db.close();
  } finally {
    rmSync(file, { force: true });
  }
}

/**
 * Whether the run `runId` of the database `dataFile` still holds its lock. A run without a lock
 * file (gone, or an earlier version that kept none) is not alive; a dead run's file is removed.
 */
export function isRunAlive(dataFile: string, runId: string): boolean {
  if (dataFile === ':memory:') return false;
  const file = lockFile(dataFile, runId);
  if (locks.has(file)) return true;
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { timeout: 0 });
  } catch {
    return false;
  }
  try {
    db.exec('BEGIN EXCLUSIVE');
    db.exec('ROLLBACK');
  } catch {
    db.close();
    return true; // SQLITE_BUSY: its process holds the lock
  }
  db.close();
  rmSync(file, { force: true });
  return false;
}

/** This run's random id (the lock it holds, above); released when the app closes. */
export function outboxRunId(): string {
  return RUN_ID;
}

/**
 * This process's claim on the batches it sends, "pid:run id". Issue 17: whether the owner lives is
 * told by its run lock (above), never by the pid alone, which may be reused (pid 1 in a
 * container, after a reboot).
 */
export const RUN_ID = randomUUID();
export const OWNER = `${process.pid}:${RUN_ID}`;

/** Whether a process with this pid runs on this machine (EPERM: it runs, as another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a batch left in 'sending' by `owner` ('pid:run', or null) is orphaned: its process is
 * gone, or its run no longer holds its lock (a reused pid does not count). A batch of this run is
 * not: it is being sent.
 */
export function isOrphaned(
  owner: string | null,
  alive: (pid: number) => boolean,
  runAlive: (runId: string) => boolean,
): boolean {
  if (owner === null) return true;
  if (owner === OWNER) return false;
  const [pidText, run] = owner.split(':');
  const pid = Number(pidText);
  // Our own pid with another token: a previous run of this process id, now gone.
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !run) return true;
  return !(alive(pid) && runAlive(run));
}
