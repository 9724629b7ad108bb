// SQLite setup shared by the app's store (main/store/db.ts) and the reference gateway's
// (gateway/store/db.ts): node:sqlite (no native module to rebuild for Electron's ABI), plain Node.
//
// - WAL: readers (the UI, a second gateway instance) work beside one writer; busy_timeout makes a
//   second connection (the web shell and a CLI on one data folder, a primary and a secondary
//   gateway) wait for the write lock instead of failing; synchronous = NORMAL: in WAL mode a
//   committed transaction survives an application crash (what the outbox journal and the
//   gateway's credit need), only an OS crash or power loss may lose the last commits; foreign keys
//   on, so deleting a row takes its dependants with it.
// - Migrations are files NNN-name.sql of one folder, applied in version order, each in its own
//   BEGIN IMMEDIATE transaction together with its schema_version row: a crash mid-migration leaves
//   the previous version intact, and two processes starting together apply each version once. A
//   file whose schema is newer than the migrations this code knows is refused (an older program
//   must not write into a schema it does not know). A missing or empty migrations folder is an
//   error (a broken install or bundle, scripts/bundle-migrations.ts), never an empty database.
//
// Each caller passes its folder as `new URL('./migrations/', import.meta.url)` in its own db.ts:
// the Electron bundle rewrites exactly that expression (scripts/bundle-migrations.ts).
import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const BUSY_TIMEOUT_MS = 5000;
const MIGRATION_FILE = /^(\d{3})-([\w-]+)\.sql$/;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * How the schema writes times, and so the `applied_at` of its schema_version rows: the app keeps
 * milliseconds since the epoch, the gateway ISO 8601 text (each database's own convention).
 */
export type TimeFormat = 'epoch-ms' | 'iso-8601';

export interface OpenSqliteOptions {
  /** The folder of NNN-name.sql files. */
  migrationsDir: string;
  times: TimeFormat;
  /** Who must be updated when the file is newer than this code ("Messenger", "the gateway"). */
  product: string;
  /**
   * Called before migrations are applied to a database that has a schema already (issue 25: the
   * app backs the file up first), with the versions about to be applied; throwing stops the open.
   */
  beforeMigrate?: (db: DatabaseSync, pending: readonly Migration[]) => void;
}

/** Migration files NNN-name.sql of `dir`, in version order; a missing or empty folder throws. */
export function loadMigrations(dir: string): Migration[] {
  if (!existsSync(dir)) throw new Error(`the migrations folder ${dir} is missing`);
  const migrations = readdirSync(dir)
    .map((file) => MIGRATION_FILE.exec(file))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ version: Number(m[1]), name: m[2] ?? '', sql: readFileSync(join(dir, m[0]), 'utf8') }))
    .sort((a, b) => a.version - b.version);
  if (migrations.length === 0) throw new Error(`the migrations folder ${dir} holds no NNN-name.sql file`);
  return migrations;
}

/**
 * Open (creating the file and its folder if needed) the database at `file` (or ':memory:'),
 * set it up and bring its schema up to date. The connection is closed again if that fails.
 */
export function openSqlite(file: string, options: OpenSqliteOptions): DatabaseSync {
  if (file !== ':memory:') {
    // Issue 17: messages are private: a new folder is 0700, the database 0600 (SQLite gives its
    // -wal and -shm files the database's mode). An existing database is narrowed to 0600 too; the
    // folder of an existing install is left as its owner set it.
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    closeSync(openSync(file, 'a', 0o600));
    if (process.platform !== 'win32') chmodSync(file, 0o600);
  }
  const db = new DatabaseSync(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('PRAGMA foreign_keys = ON');
    const migrations = loadMigrations(options.migrationsDir);
    if (options.beforeMigrate) {
      const has = db
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
        .get();
      const applied = has ? schemaVersion(db) : 0;
      const pending = migrations.filter((m) => m.version > applied);
      if (applied > 0 && pending.length > 0) options.beforeMigrate(db, pending);
    }
    migrate(db, migrations, options.times);
    const known = migrations.at(-1)?.version ?? 0;
    const found = schemaVersion(db);
    if (found > known) {
      throw new Error(
        `${file} has schema version ${found}, newer than this version of ${options.product} knows (${known}): update ${options.product}`,
      );
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Apply the migrations not yet in schema_version, each with its row in one transaction. */
export function migrate(db: DatabaseSync, migrations: readonly Migration[], times: TimeFormat): void {
  db.exec(
    `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at ${
      times === 'epoch-ms' ? 'INTEGER' : 'TEXT'
    } NOT NULL)`,
  );
  for (const m of migrations) {
    // A migration that rebuilds a table others refer to (SQLite's documented procedure: foreign
    // keys off, so dropping the old table deletes nothing by cascade) starts with FOREIGN_KEYS_OFF;
    // the keys are checked before its COMMIT and turned on again after it.
    const keysOff = m.sql.startsWith(FOREIGN_KEYS_OFF);
    if (keysOff) db.exec('PRAGMA foreign_keys = OFF');
    try {
      transaction(db, () => {
        if (db.prepare('SELECT 1 FROM schema_version WHERE version = ?').get(m.version)) return;
        db.exec(m.sql);
        if (keysOff && db.prepare('PRAGMA foreign_key_check').all().length > 0)
          throw new Error(`migration ${m.version} ${m.name} broke a foreign key`);
        db.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)').run(
          m.version,
          m.name,
          times === 'epoch-ms' ? Date.now() : new Date().toISOString(),
        );
      });
    } finally {
      if (keysOff) db.exec('PRAGMA foreign_keys = ON');
    }
  }
}

/** The first line of a migration that runs with foreign keys off (it rebuilds a referenced table). */
export const FOREIGN_KEYS_OFF = '-- migrate: foreign_keys off';

/** The highest applied migration version (0: none). */
export function schemaVersion(db: DatabaseSync): number {
  const row = db.prepare('SELECT max(version) AS v FROM schema_version').get() as
    { v: number | null } | undefined;
  return row?.v ?? 0;
}

let savepoints = 0;

/**
 * Run `fn` inside BEGIN IMMEDIATE … COMMIT (rolled back if it throws). IMMEDIATE takes the write
 * lock up front, so a read-check-write inside (credit reservation, batch and job claims) cannot
 * race with another connection or another process. Nested calls run in a SAVEPOINT: if the inner
 * `fn` throws, only its own writes are undone and the error propagates to the outer caller.
 */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  if (db.isTransaction) {
    const name = `sp${++savepoints}`;
    db.exec(`SAVEPOINT ${name}`);
    try {
      const result = fn();
      db.exec(`RELEASE ${name}`);
      return result;
    } catch (err) {
      db.exec(`ROLLBACK TO ${name}`);
      db.exec(`RELEASE ${name}`);
      throw err;
    }
  }
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

const statements = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/** A prepared statement for `sql`, compiled once per connection (hot paths). */
export function stmt(db: DatabaseSync, sql: string): StatementSync {
  let cache = statements.get(db);
  if (!cache) {
    cache = new Map();
    statements.set(db, cache);
  }
  let s = cache.get(sql);
  if (!s) {
    s = db.prepare(sql);
    cache.set(sql, s);
  }
  return s;
}
