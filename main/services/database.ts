// Issue 25: the database service of a healthy app: automatic daily backups while the app runs
// (checked after writing, the newest BACKUP_KEEP kept: main/store/backups.ts), a backup on demand,
// and "export what can still be read" (main/store/salvage.ts). The damaged case, before any other
// service exists, is ./db-recovery.ts's.
// A backup that fails (daily, before a migration, or asked for) is said in the UI, not only logged:
// the status carries it (`backupFailed`, in words) until a backup is written and checked again, and
// 'database:backup' tells the window each time that changes (the banner, renderer/components/BackupBanner.tsx).
import { dirname } from 'node:path';
import type { AppStore } from '../store/app-store.ts';
import { backupsDir, listBackups } from '../store/backups.ts';
import type { BackupInfo } from '../store/backups.ts';
import type { BackupFailure } from '../store/db.ts';
import type { Emit } from './app-options.ts';
import { salvageReadable } from '../store/salvage.ts';
import { message } from './app-options.ts';
import type { Log } from './app-options.ts';
import { ApiError } from './validate-args.ts';
import type {
  DatabaseApi,
  DatabaseBackup,
  DatabaseBackupFailure,
  DatabaseStatus,
} from '../../preload/api.ts';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** How often the app looks whether the daily backup is due. */
const CHECK_EVERY_MS = 60 * 60 * 1000;

export function toBackup(b: BackupInfo): DatabaseBackup {
  return { file: b.file, at: b.at, reason: b.reason, bytes: b.bytes };
}

export function healthyStatus(
  file: string,
  keptAs: string | null = null,
  backupFailed: DatabaseBackupFailure | null = null,
): DatabaseStatus {
  const backups = listBackups(file).map(toBackup);
  return { state: 'ok', file, problem: null, backups, keptAs, backupsFolder: backupsDir(file), backupFailed };
}

/** What made a backup fail, in words a user can act on (the system's own words stay in `detail`). */
export function backupProblem(err: unknown): { problem: string; detail: string } {
  const detail = message(err);
  const code = (err as { code?: unknown } | null)?.code;
  const has = (re: RegExp) => re.test(detail) || (typeof code === 'string' && re.test(code));
  const problem = has(/ENOSPC|SQLITE_FULL|disk is full|No space left/i)
    ? 'the disk is full'
    : has(/EROFS|read-only file system/i)
      ? 'the disk is read-only'
      : has(/EACCES|EPERM|permission denied|unable to open database file|readonly database/i)
        ? 'the backups folder cannot be written'
        : has(/EEXIST|ENOTDIR|not a directory|file already exists/i)
          ? 'the backups folder cannot be made (a file of that name is in its place)'
          : has(/failed its check/)
            ? 'the copy was written but failed its check'
            : detail;
  return { problem, detail };
}

function failureOf(f: BackupFailure): DatabaseBackupFailure {
  return { reason: f.reason, at: f.at, ...backupProblem(f.error) };
}

export interface DatabaseDeps {
  store: AppStore;
  log: Log;
  emit: Emit;
  /** The damaged file kept beside the database, when this app was opened by a recovery choice. */
  keptAs?: string | null;
  /** First look at whether a daily backup is due, ms after start (default one minute). */
  firstCheckMs?: number | undefined;
}

export function createDatabase(deps: DatabaseDeps) {
  const { store, log, emit } = deps;
  const file = store.file;
  let running: Promise<BackupInfo> | null = null;
  // The backup before this run's migrations, when it failed, is the first failure said.
  let failed: DatabaseBackupFailure | null = store.migrationBackupFailure
    ? failureOf(store.migrationBackupFailure)
    : null;
  if (failed) log(`the backup before updating the database failed: ${failed.detail}`);
  const status = (): DatabaseStatus => healthyStatus(file, deps.keptAs ?? null, failed);

  /** A backup; its failure, or the end of an earlier failure, is told the window. */
  function backup(reason: string): Promise<BackupInfo> {
    running ??= store
      .backupNow(reason)
      .then(
        (b) => {
          if (failed) {
            failed = null;
            emit('database:backup', status());
          }
          return b;
        },
        (err: unknown) => {
          failed = failureOf({ reason, at: Date.now(), error: err });
          emit('database:backup', status());
          throw err;
        },
      )
      .finally(() => {
        running = null;
      });
    return running;
  }

  /** The daily backup, when the newest is a day old or there is none. */
  function dailyIfDue(): void {
    let newest: BackupInfo | undefined;
    try {
      newest = listBackups(file)[0];
    } catch {
      // unreadable folder: the backup below fails and says why
    }
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
    status: async () => status(),
    backupNow: async () => {
      try {
        return toBackup(await backup('manual'));
      } catch (err) {
        const { problem, detail } = backupProblem(err);
        throw new ApiError('backup-failed', `the backup failed: ${problem} (${detail})`);
      }
    },
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
