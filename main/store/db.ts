// The app's storage: one node:sqlite file in the user data folder, set up and migrated by the
// SQLite module the gateway shares (storage/sqlite.ts: WAL, busy_timeout, foreign keys, one transaction
// per migration, a newer schema refused). Migrations are the files main/store/migrations/NNN-name.sql.
import type { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { backupNowSync } from './backups.ts';
import {
  loadMigrations as loadMigrationsIn,
  openSqlite,
  schemaVersion,
  transaction,
} from '../../storage/sqlite.ts';
import type { Migration } from '../../storage/sqlite.ts';
import { checkpointsOnDemand } from '../../storage/checkpointer.ts';
import type { CheckpointerOptions } from '../../storage/checkpointer.ts';

export type { Migration };

/** A backup that failed: which, when, and the error as thrown. */
export interface BackupFailure {
  reason: string;
  at: number;
  error: unknown;
}

// Rewritten for the Electron bundle by scripts/bundle-migrations.ts: keep this exact expression.
const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

export interface AppDb {
  /** The open connection; repositories prepare their statements on it. */
  readonly db: DatabaseSync;
  readonly file: string;
  /**
   * Run `fn` in one BEGIN IMMEDIATE … COMMIT (rolled back if it throws); a nested call runs in a
   * savepoint of the outer one (its own writes undone if it throws).
   */
  transaction<T>(fn: () => T): T;
  /** The highest applied migration version. */
  version(): number;
  /**
   * Issue 25: the backup before this open's migrations failed (they were applied all the same, each
   * in its transaction: a full disk or an unwritable backups folder does not keep the app from
   * starting); the app says so until a backup is written again. Null when it did not fail.
   */
  readonly migrationBackupFailure: BackupFailure | null;
  close(): void;
}

/** The app's migration files (or those of `dir`), in version order. */
export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  return loadMigrationsIn(dir);
}

export interface OpenAppDbOptions {
  migrationsDir?: string;
  /**
   * Issue 27 item 6: once the app writes a lot, the WAL checkpoints run on a thread of their own
   * (storage/checkpointer.ts), not inside the main thread's commits; a file only (not ':memory:').
   * Options for tests, or false: the committing connection checkpoints, as SQLite does by default.
   */
  checkpoints?: CheckpointerOptions | false;
}

/** Open (creating if needed) the app database at `file` and bring its schema up to date. */
export function openAppDb(file: string, options: OpenAppDbOptions = {}): AppDb {
  let migrationBackupFailure: BackupFailure | null = null;
  const db = openSqlite(file, {
    migrationsDir: options.migrationsDir ?? MIGRATIONS_DIR,
    times: 'epoch-ms',
    product: 'Messenger',
    // Issue 25: a checked copy of the file before its schema changes (main/store/backups.ts).
    ...(file !== ':memory:'
      ? {
          beforeMigrate: (db: DatabaseSync, pending: readonly Migration[]) => {
            const reason = `before-migration-${pending[0]?.version ?? 0}`;
            try {
              backupNowSync(db, file, reason);
            } catch (error) {
              migrationBackupFailure = { reason, at: Date.now(), error };
            }
          },
        }
      : {}),
  });
  const checkpoints =
    file !== ':memory:' && options.checkpoints !== false
      ? checkpointsOnDemand(db, file, options.checkpoints)
      : null;
  return {
    db,
    file,
    transaction: (fn) => {
      const result = transaction(db, fn);
      if (!db.isTransaction) checkpoints?.afterCommit();
      return result;
    },
    version: () => schemaVersion(db),
    migrationBackupFailure,
    close: () => {
      // The thread's connection closed first: this one, the last, checkpoints and removes the -wal file.
      checkpoints?.stop();
      if (db.isOpen) db.close();
    },
  };
}
