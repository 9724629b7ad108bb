// The gateway's storage: node:sqlite in WAL mode, one file per data directory. A primary and a
// secondary instance may open the same directory at once: WAL lets readers and one writer work
// side by side, busy_timeout makes a writer wait for the other instead of failing, and migrations
// run under BEGIN IMMEDIATE so two instances starting together apply each version exactly once.
import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DB_FILE_NAME = 'gateway.sqlite';
const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Migration files NNN-name.sql in version order. */
export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .map((file) => /^(\d{3})-([\w-]+)\.sql$/.exec(file))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ version: Number(m[1]), name: m[2] ?? '', sql: readFileSync(join(dir, m[0]), 'utf8') }))
    .sort((a, b) => a.version - b.version);
}

export function openGatewayDb(dataDir: string, migrationsDir?: string): DatabaseSync {
  mkdirSync(dataDir, { recursive: true });
  const db = new DatabaseSync(join(dataDir, DB_FILE_NAME), { timeout: 5000 });
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  migrate(db, loadMigrations(migrationsDir));
  return db;
}

export function migrate(db: DatabaseSync, migrations: Migration[]): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const m of migrations) {
    transaction(db, () => {
      const done = db.prepare('SELECT 1 FROM schema_version WHERE version = ?').get(m.version);
      if (done) return;
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        new Date().toISOString(),
      );
    });
  }
}

let savepoints = 0;

/**
 * Run `fn` inside BEGIN IMMEDIATE … COMMIT (rolled back if it throws). IMMEDIATE takes the write
 * lock up front, so a read-check-write inside (credit reservation, job claims) cannot race with
 * another connection or another process. Nested calls run in a SAVEPOINT: if the inner `fn` throws,
 * only its own writes are undone and the error propagates to the outer caller.
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

/** A prepared statement for `sql`, compiled once per connection (hot paths: auth, submit, request log). */
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
