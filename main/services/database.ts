// Issue 25: the database service of a healthy app: automatic daily backups while the app runs
// (checked after writing, the newest BACKUP_KEEP kept: main/store/backups.ts), a backup on demand,
// and "export what can still be read" (main/store/salvage.ts). The damaged case, before any other
// service exists, is ./db-recovery.ts's.
import { dirname } from 'node:path';
import type { AppStore } from '../store/app-store.ts';
import { listBackups } from '../store/backups.ts';
import type { BackupInfo } from '../store/backups.ts';
import { salvageReadable } from '../store/salvage.ts';
import { message } from './app-options.ts';
import type { Log } from './app-options.ts';
import { ApiError } from './validate-args.ts';
import type { DatabaseApi, DatabaseBackup, DatabaseStatus } from '../../preload/api.ts';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** How often the app looks whether the daily backup is due. */
const CHECK_EVERY_MS = 60 * 60 * 1000;

export function toBackup(b: BackupInfo): DatabaseBackup {
  return { file: b.file, at: b.at, reason: b.reason, bytes: b.bytes };
}

export function healthyStatus(file: string, keptAs: string | null = null): DatabaseStatus {
  return { state: 'ok', file, problem: null, backups: listBackups(file).map(toBackup), keptAs };
}

export interface DatabaseDeps {
  store: AppStore;
  log: Log;
  /** The damaged file kept beside the database, when this app was opened by a recovery choice. */
  keptAs?: string | null;
  /** First look at whether a daily backup is due, ms after start (default one minute). */
  firstCheckMs?: number | undefined;
}

export function createDatabase(deps: DatabaseDeps) {
  const { store, log } = deps;
  const file = store.file;
  let running: Promise<BackupInfo> | null = null;

  function backup(reason: string): Promise<BackupInfo> {
    running ??= store.backupNow(reason).finally(() => {
      running = null;
    });
    return running;
  }

  /** The daily backup, when the newest is a day old or there is none. */
  function dailyIfDue(): void {
    const newest = listBackups(file)[0];
    if (newest && Date.now() - newest.at < DAY_MS) return;
    backup('daily').then(
      (b) => log(`daily backup written and checked: ${b.file}`),
      (err: unknown) => log(`the daily backup failed: ${message(err)}`),
    );
  }

  const timers: NodeJS.Timeout[] = [];
  if (file !== ':memory:') {
    timers.push(setTimeout(dailyIfDue, deps.firstCheckMs ?? 60_000), setInterval(dailyIfDue, CHECK_EVERY_MS));
    timers.forEach((t) => t.unref());
  }

  const api: DatabaseApi = {
    status: async () => healthyStatus(file, deps.keptAs ?? null),
    backupNow: async () => toBackup(await backup('manual')),
    restoreLatest: async () => {
      throw new ApiError('invalid-state', `${file} is not damaged: nothing to restore`);
    },
    startNew: async () => {
      throw new ApiError('invalid-state', `${file} is not damaged: it is kept as it is`);
    },
    exportReadable: async () => salvageReadable(file, dirname(file)),
  };

  return {
    api,
    /** Waits for a backup under way (the store closes after this). */
    async close(): Promise<void> {
      timers.forEach((t) => clearTimeout(t));
      await running?.catch(() => undefined);
    },
  };
}
