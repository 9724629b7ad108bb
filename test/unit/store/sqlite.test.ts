// The SQLite setup shared by the app's store and the gateway's (storage/sqlite.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { loadMigrations, openSqlite, schemaVersion, stmt, transaction } from '../../../storage/sqlite.ts';
import type { OpenSqliteOptions } from '../../../storage/sqlite.ts';
import { DB_FILE_NAME, openGatewayDb } from '../../../gateway/store/db.ts';
import { tempDbFile } from './helpers.ts';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
function temp() {
  const t = tempDbFile();
  cleanups.push(t.cleanup);
  return t;
}

/** A folder of migrations 001-one (table a) and 002-two (table b). */
function migrations(dir: string): string {
  const m = join(dir, 'migrations');
  mkdirSync(m);
  writeFileSync(join(m, '002-two.sql'), 'CREATE TABLE b (y INTEGER);');
  writeFileSync(join(m, '001-one.sql'), 'CREATE TABLE a (x INTEGER PRIMARY KEY);');
  writeFileSync(join(m, 'README.txt'), 'not a migration');
  return m;
}

function open(file: string, options: Partial<OpenSqliteOptions> & { migrationsDir: string }): DatabaseSync {
  const db = openSqlite(file, { times: 'epoch-ms', product: 'Test', ...options });
  cleanups.unshift(() => db.isOpen && db.close());
  return db;
}

describe('loadMigrations', () => {
  it('reads NNN-name.sql files in version order and nothing else', () => {
    const { dir } = temp();
    expect(loadMigrations(migrations(dir)).map((m) => [m.version, m.name])).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
  });

  it('refuses a missing or empty folder (a broken install, never an empty database)', () => {
    const { dir } = temp();
    expect(() => loadMigrations(join(dir, 'nowhere'))).toThrow(/migrations folder .*nowhere is missing/);
    mkdirSync(join(dir, 'empty'));
    writeFileSync(join(dir, 'empty', 'notes.sql'), 'SELECT 1;');
    expect(() => loadMigrations(join(dir, 'empty'))).toThrow(/holds no NNN-name\.sql file/);
    // …and openSqlite refuses to set up a database without them.
    expect(() => open(join(dir, 'x.sqlite'), { migrationsDir: join(dir, 'nowhere') })).toThrow(/missing/);
  });
});

describe('openSqlite', () => {
  it('sets WAL, synchronous NORMAL, foreign keys and busy_timeout, creating the folder', () => {
    const { dir } = temp();
    const db = open(join(dir, 'deep', 'er', 'x.sqlite'), { migrationsDir: migrations(dir) });
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(db.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 1 });
    expect(db.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 });
    expect(db.prepare('PRAGMA busy_timeout').get()).toEqual({ timeout: 5000 });
    expect(schemaVersion(db)).toBe(2);
  });

  it("writes applied_at in the schema's time format", () => {
    const { dir } = temp();
    const m = migrations(dir);
    const ms = open(join(dir, 'ms.sqlite'), { migrationsDir: m, times: 'epoch-ms' });
    const iso = open(join(dir, 'iso.sqlite'), { migrationsDir: m, times: 'iso-8601' });
    const at = (db: DatabaseSync) =>
      (db.prepare('SELECT applied_at AS at FROM schema_version WHERE version = 1').get() as { at: unknown })
        .at;
    expect(typeof at(ms)).toBe('number');
    expect(at(iso)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('applies only the new migrations on reopen and refuses a newer schema', () => {
    const { dir, file } = temp();
    const m = migrations(dir);
    open(file, { migrationsDir: m }).close();
    writeFileSync(join(m, '003-three.sql'), 'CREATE TABLE c (z INTEGER);');
    const db = open(file, { migrationsDir: m });
    expect(db.prepare('SELECT version FROM schema_version ORDER BY version').all()).toEqual([
      { version: 1 },
      { version: 2 },
      { version: 3 },
    ]);
    db.prepare("INSERT INTO schema_version (version, name, applied_at) VALUES (9, 'future', 0)").run();
    db.close();
    expect(() => open(file, { migrationsDir: m, product: 'the gateway' })).toThrow(
      /schema version 9, newer than this version of the gateway knows \(3\): update the gateway/,
    );
  });
});

describe('transaction', () => {
  it('rolls back what a nested call wrote when it throws, and keeps the outer writes', () => {
    const { dir, file } = temp();
    const db = open(file, { migrationsDir: migrations(dir) });
    transaction(db, () => {
      db.prepare('INSERT INTO a (x) VALUES (1)').run();
      expect(() =>
        transaction(db, () => {
          db.prepare('INSERT INTO a (x) VALUES (2)').run();
          throw new Error('inner');
        }),
      ).toThrow('inner');
      transaction(db, () => db.prepare('INSERT INTO a (x) VALUES (3)').run());
    });
    expect(db.prepare('SELECT x FROM a ORDER BY x').all()).toEqual([{ x: 1 }, { x: 3 }]);
    expect(db.isTransaction).toBe(false);
    expect(() =>
      transaction(db, () => {
        db.prepare('INSERT INTO a (x) VALUES (4)').run();
        throw new Error('outer');
      }),
    ).toThrow('outer');
    expect(db.prepare('SELECT count(*) AS n FROM a').get()).toEqual({ n: 2 });
  });

  it('prepares a statement once per connection', () => {
    const { dir, file } = temp();
    const db = open(file, { migrationsDir: migrations(dir) });
    expect(stmt(db, 'SELECT 1')).toBe(stmt(db, 'SELECT 1'));
  });
});

describe("the gateway's database", () => {
  it('is set up by the same module, with ISO times and its own migrations', () => {
    const { dir } = temp();
    const db = openGatewayDb(dir);
    cleanups.unshift(() => db.close());
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(db.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 });
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(3);
    expect(
      (db.prepare('SELECT applied_at AS at FROM schema_version WHERE version = 1').get() as { at: string })
        .at,
    ).toMatch(/Z$/);
    expect(db.location()).toBe(join(dir, DB_FILE_NAME));
  });
});
