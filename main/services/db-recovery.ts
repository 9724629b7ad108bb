// Issue 25: a damaged or unreadable database is never served silently and never replaced
// silently. createMessengerApp (./app.ts) returns the app through this guard:
// - at start a bounded check (checkDatabaseAtStart) decides before anything is served; then the
//   thorough check (quick_check) runs on a thread of its own (../store/db-check-worker.ts) while
//   the app runs: at 1,000,000 messages it takes seconds;
// - while the database is damaged (found at start, or by the thorough check later: the full app is
//   then closed and 'database:damaged' tells the window), the guard answers only database.*; every
//   other call says 'database-damaged', with the file and SQLite's words, and the renderer shows
//   the recovery screen before anything else — before sign-in, in both shells;
// - the user chooses: restore the latest backup, export what can still be read, or start a new
//   database. The two that replace the file first keep the damaged one beside it
//   ("messenger.sqlite.damaged-<time>", with its -wal and -shm); then the full app opens.
import { copyFileSync, existsSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { backupsDir, listBackups } from '../store/backups.ts';
import { checkDatabase } from '../store/db-health.ts';
import type { DbHealth } from '../store/db-health.ts';
import { salvageReadable } from '../store/salvage.ts';
import { createEvents } from './app-options.ts';
import type { MessengerApp } from './app-options.ts';
import { toBackup } from './database.ts';
import { ApiError, checkArgument, isApiChannel } from './validate-args.ts';
import { EVENT_CHANNELS } from '../../preload/ipc-contract.ts';
import type { DatabaseStatus, MessengerApi } from '../../preload/api.ts';

/** Renames the damaged file (and its -wal, -shm) beside itself; the new name. */
export function keepDamaged(file: string): string {
  const kept = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, kept + suffix);
  }
  return kept;
}

/** The thorough check of `file` on its own thread; `stop` ends it (the app closes). */
export function checkInBackground(file: string): { result: Promise<DbHealth>; stop(): Promise<void> } {
  const worker = new Worker(new URL('../store/db-check-worker.ts', import.meta.url), {
    workerData: { file },
  });
  worker.unref();
  const result = new Promise<DbHealth>((resolve, reject) => {
    worker.once('message', (h: DbHealth) => resolve(h));
    worker.once('error', reject);
    worker.once('exit', () => reject(new Error('the check was stopped')));
  });
  result.catch(() => undefined);
  return { result, stop: () => worker.terminate().then(() => undefined) };
}

export interface GuardedApp extends MessengerApp {
  /** The thorough check found damage: the full app is closed and the window told. */
  damaged(health: DbHealth): Promise<void>;
}

export function createGuardedApp(
  file: string,
  start: { inner: MessengerApp | null; health: DbHealth },
  open: (keptAs: string) => Promise<MessengerApp>,
  log: (m: string) => void,
): GuardedApp {
  const { emit, hub, close: closeEvents } = createEvents();
  let inner: MessengerApp | null = null;
  let damage: DbHealth | null = start.inner ? null : start.health;
  let choosing: Promise<DatabaseStatus> | null = null;
  let closed = false;

  function serve(app: MessengerApp): void {
    inner = app;
    for (const event of EVENT_CHANNELS) app.events.on(event, (p) => emit(event, p as never));
  }
  if (start.inner) serve(start.inner);

  const damagedStatus = (): DatabaseStatus => ({
    state: 'damaged',
    file,
    problem: damage?.problem ?? null,
    backups: listBackups(file).map(toBackup),
    keptAs: null,
    backupsFolder: backupsDir(file),
    backupFailed: null,
  });

  /** Keeps the damaged file, puts `replace` in its place, then opens the full app. */
  function choose(replace: () => void): Promise<DatabaseStatus> {
    choosing ??= (async () => {
      const keptAs = keepDamaged(file);
      log(`the damaged database was kept as ${keptAs}`);
      replace();
      const app = await open(keptAs);
      damage = null;
      serve(app);
      return (await app.api.database.status()) as DatabaseStatus;
    })().finally(() => {
      choosing = null;
    });
    return choosing;
  }

  const recovery = {
    status: async () => damagedStatus(),
    backupNow: async () => {
      throw new ApiError('database-damaged', `${file} is damaged: a copy of it would be no backup`);
    },
    exportReadable: async () => salvageReadable(file, dirname(file)),
    restoreLatest: () => {
      const latest = listBackups(file)[0];
      if (!latest) return Promise.reject(new ApiError('not-found', `no backup of ${file} exists`));
      const check = checkDatabase(latest.file);
      if (!check.ok)
        return Promise.reject(new ApiError('database-damaged', `the backup ${latest.file} is damaged too`));
      return choose(() => copyFileSync(latest.file, file));
    },
    startNew: () => choose(() => {}),
  };

  async function call(channel: unknown, arg?: unknown): Promise<unknown> {
    if (closed) throw new ApiError('closed', 'the app is closing');
    if (damage === null && inner) return inner.call(channel, arg);
    if (typeof channel !== 'string' || !isApiChannel(channel))
      throw new ApiError('unknown-channel', `no such call: ${String(channel)}`);
    checkArgument(channel, arg);
    const [area, name] = channel.split('.') as [string, keyof typeof recovery];
    if (area === 'database' && name in recovery) return recovery[name]();
    throw new ApiError(
      'database-damaged',
      `the database ${file} is damaged (${damage?.problem ?? 'unreadable'}): choose what to do on the recovery screen`,
    );
  }

  // The typed API over the same routing (the shells use `call`; tests and web.ts use `api`).
  const api = new Proxy({} as MessengerApi, {
    get: (_, area: string) =>
      new Proxy({}, { get: (__, name: string) => (arg?: unknown) => call(`${area}.${name}`, arg) }),
  });

  return {
    api,
    events: hub,
    call,
    pushReceiverUrl: () => (damage === null ? (inner?.pushReceiverUrl() ?? null) : null),
    async damaged(health) {
      if (closed || damage !== null) return;
      damage = health;
      log(`the database check found damage in ${file}: ${health.problem}`);
      const app = inner;
      inner = null;
      await app?.close();
      emit('database:damaged', damagedStatus());
    },
    async close() {
      if (closed) return;
      closed = true;
      await choosing?.catch(() => undefined);
      await inner?.close();
      closeEvents();
    },
  };
}
