// The app's storage: one node:sqlite file in the user data folder (no native module to rebuild
// for Electron's ABI). WAL lets the UI read while the outbox writes; busy_timeout makes a second
// connection (the web shell and a CLI on the same data folder) wait instead of failing; foreign
// keys are on so deleting a conversation, contact or group takes its rows with it.
//
// Migrations are files main/store/migrations/NNN-name.sql, applied in version order, each in its
// own BEGIN IMMEDIATE transaction together with its schema_version row: a crash mid-migration
// leaves the previous version intact, and two processes starting together apply it once.
import { DatabaseSync } from 'node:sqlite';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const BUSY_TIMEOUT_MS = 5000;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export interface AppDb {
  /** The open connection; repositories prepare their statements on it. */
  readonly db: DatabaseSync;
  readonly file: string;
  /** Run `fn` in one BEGIN IMMEDIATE … COMMIT (rolled back if it throws); nested calls join the outer one. */
  transaction<T>(fn: () => T): T;
  /** The highest applied migration version. */
  version(): number;
  close(): void;
}

/** Migration files NNN-name.sql of `dir`, in version order. */
export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .map((file) => /^(\d{3})-([\w-]+)\.sql$/.exec(file))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ version: Number(m[1]), name: m[2] ?? '', sql: readFileSync(join(dir, m[0]), 'utf8') }))
    .sort((a, b) => a.version - b.version);
}

/** Open (creating if needed) the app database at `file` and bring its schema up to date. */
export function openAppDb(file: string, options: { migrationsDir?: string } = {}): AppDb {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new DatabaseSync(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.exec('PRAGMA journal_mode = WAL');
    // NORMAL in WAL mode: a committed transaction survives an application crash (the case the
    // outbox journal cares about); only an OS crash or power loss may lose the last commits.
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('PRAGMA foreign_keys = ON');
    const transaction = <T>(fn: () => T): T => runInTransaction(db, fn);
    const migrations = loadMigrations(options.migrationsDir);
    migrate(db, migrations);
    const known = migrations.at(-1)?.version ?? 0;
    const found = currentVersion(db);
    if (found > known) {
      // A newer Messenger wrote this file; an older one must not write into a schema it does not know.
      throw new Error(
        `${file} has schema version ${found}, newer than this version of Messenger knows (${known}): update Messenger`,
      );
    }
    return {
      db,
      file,
      transaction,
      version: () => currentVersion(db),
      close: () => {
        if (db.isOpen) db.close();
      },
    };
  } catch (err) {
    db.close();
    throw err;
  }
}

export function migrate(db: DatabaseSync, migrations: readonly Migration[]): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  for (const m of migrations) {
    runInTransaction(db, () => {
      if (db.prepare('SELECT 1 FROM schema_version WHERE version = ?').get(m.version)) return;
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        Date.now(),
      );
    });
  }
}

function currentVersion(db: DatabaseSync): number {
  const row = db.prepare('SELECT max(version) AS v FROM schema_version').get() as
    { v: number | null } | undefined;
  return row?.v ?? 0;
}

function runInTransaction<T>(db: DatabaseSync, fn: () => T): T {
  if (db.isTransaction) return fn();
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw err;
  }
}
