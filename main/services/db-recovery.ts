// Issue 25: a damaged or unreadable database is never served silently and never replaced
// silently. createMessengerApp (./app.ts) checks the file first; when it is damaged, the app it
// returns answers only the database.* calls (every other call: 'database-damaged', with the file
// and SQLite's words), and the renderer shows the recovery screen before anything else — before
// sign-in, in both shells. The user chooses: restore the latest backup, export what can still be
// read, or start a new database; the two that replace the file first keep the damaged one beside
// it ("messenger.sqlite.damaged-<time>", with its -wal and -shm), then the full app opens and every
// call and event goes to it.
import { copyFileSync, existsSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { listBackups } from '../store/backups.ts';
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

export function createRecoveringApp(
  file: string,
  health: DbHealth,
  open: (keptAs: string) => Promise<MessengerApp>,
  log: (m: string) => void,
): MessengerApp {
  const { emit, hub, close: closeEvents } = createEvents();
  let inner: MessengerApp | null = null;
  let choosing: Promise<DatabaseStatus> | null = null;
  let closed = false;

  const damagedStatus = (): DatabaseStatus => ({
    state: 'damaged',
    file,
    problem: health.problem,
    backups: listBackups(file).map(toBackup),
    keptAs: null,
  });

  /** Keeps the damaged file, puts `replace` in its place, then opens the full app. */
  function choose(replace: () => void): Promise<DatabaseStatus> {
    choosing ??= (async () => {
      const keptAs = keepDamaged(file);
      log(`the damaged database was kept as ${keptAs}`);
      replace();
      const app = await open(keptAs);
      for (const event of EVENT_CHANNELS) app.events.on(event, (p) => emit(event, p as never));
      inner = app;
      return (await app.api.database.status()) as DatabaseStatus;
    })().finally(() => {
      choosing = null;
    });
    return choosing;
  }

  const database = {
    status: async () => (inner ? inner.api.database.status() : damagedStatus()),
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
    if (inner) return inner.call(channel, arg);
    if (typeof channel !== 'string' || !isApiChannel(channel))
      throw new ApiError('unknown-channel', `no such call: ${String(channel)}`);
    checkArgument(channel, arg);
    const [area, name] = channel.split('.') as [string, keyof typeof database];
    if (area === 'database' && name in database) return database[name]();
    throw new ApiError(
      'database-damaged',
      `the database ${file} is damaged (${health.problem ?? 'unreadable'}): choose what to do on the recovery screen`,
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
    pushReceiverUrl: () => inner?.pushReceiverUrl() ?? null,
    async close() {
      if (closed) return;
      closed = true;
      await choosing?.catch(() => undefined);
      await inner?.close();
      closeEvents();
    },
  };
}
