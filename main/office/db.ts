// The office database's schema: numbered migrations NNN-name.sql of ./migrations/ (the same file
// convention and loader as the SQLite stores, storage/sqlite.ts), applied by the app at connect.
// Each migration runs in its own transaction with its office_schema_version row, under a
// transaction-level advisory lock, so that desks starting together apply each version once and a
// failed migration leaves the previous version whole. A database whose schema is newer than this
// code knows is refused (an older desk must not write into a schema it does not know).
import { fileURLToPath } from 'node:url';
import type { ClientBase } from 'pg';
import { loadMigrations } from '../../storage/sqlite.ts';
import type { Migration } from '../../storage/sqlite.ts';

/** pg_advisory_xact_lock key of the migrations ("MSGRMIGR"). */
const MIGRATION_LOCK = 0x4d5347524d494752n;

export function officeMigrations(): Migration[] {
  return loadMigrations(fileURLToPath(new URL('./migrations/', import.meta.url)));
}

/** Brings the schema up to date; returns the version it is at. */
export async function migrateOffice(c: ClientBase, migrations = officeMigrations()): Promise<number> {
  for (const m of migrations) {
    await c.query('BEGIN');
    try {
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()]);
      await c.query(
        `CREATE TABLE IF NOT EXISTS office_schema_version (
           version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const done = await c.query('SELECT 1 FROM office_schema_version WHERE version = $1', [m.version]);
      if (done.rowCount === 0) {
        await c.query(m.sql);
        await c.query('INSERT INTO office_schema_version (version, name) VALUES ($1, $2)', [
          m.version,
          m.name,
        ]);
      }
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }
  const known = migrations.at(-1)?.version ?? 0;
  const found = Number(
    (await c.query<{ v: number | null }>('SELECT max(version) AS v FROM office_schema_version')).rows[0]?.v ??
      0,
  );
  if (found > known)
    throw new Error(
      `the office database has schema version ${found}, newer than this version of Messenger knows (${known}): update Messenger on this desk`,
    );
  return found;
}
