import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadMigrations, openAppDb } from '../../../main/store/db.ts';
import { tempDbFile } from './helpers.ts';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
function temp() {
  const t = tempDbFile();
  cleanups.push(t.cleanup);
  return t;
}

describe('openAppDb', () => {
  it('creates the file with WAL, foreign keys, busy timeout and every migration applied once', () => {
    const { file } = temp();
    const app = openAppDb(file);
    const latest = loadMigrations().at(-1)?.version ?? 0;
    expect(latest).toBeGreaterThanOrEqual(1);
    expect(app.version()).toBe(latest);
    expect(app.db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(app.db.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 });
    expect((app.db.prepare('PRAGMA busy_timeout').get() as { timeout: number }).timeout).toBeGreaterThan(0);
    const tables = (
      app.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
    ).map((t) => t.name);
    for (const t of [
      'conversations',
      'messages',
      'contacts',
      'groups',
      'group_members',
      'templates',
      'outbox_jobs',
      'outbox_batches',
      'messages_fts',
      'contacts_fts',
    ]) {
      expect(tables).toContain(t);
    }
    app.close();
    // Reopening applies nothing twice.
    const again = openAppDb(file);
    expect(again.db.prepare('SELECT count(*) AS n FROM schema_version').get()).toEqual({
      n: loadMigrations().length,
    });
    again.close();
  });

  it('rolls a failing migration back whole and keeps the earlier version', () => {
    const { dir, file } = temp();
    const migrations = join(dir, 'migrations');
    mkdirSync(migrations);
    writeFileSync(join(migrations, '001-one.sql'), 'CREATE TABLE a (x INTEGER);');
    writeFileSync(
      join(migrations, '002-broken.sql'),
      'CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);',
    );
    expect(() => openAppDb(file, { migrationsDir: migrations })).toThrow(/nowhere/);
    writeFileSync(join(migrations, '002-broken.sql'), 'CREATE TABLE b (y INTEGER);');
    const app = openAppDb(file, { migrationsDir: migrations });
    expect(app.version()).toBe(2);
    app.close();
  });

  it('rolls a transaction back when its function throws', () => {
    const { file } = temp();
    const app = openAppDb(file);
    expect(() =>
      app.transaction(() => {
        app.db
          .prepare("INSERT INTO templates (name, text, created_at, updated_at) VALUES ('a', 'b', 1, 1)")
          .run();
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(app.db.prepare('SELECT count(*) AS n FROM templates').get()).toEqual({ n: 0 });
    app.close();
  });

  it('refuses a file written by a newer version', () => {
    const { file } = temp();
    const app = openAppDb(file);
    app.db.prepare("INSERT INTO schema_version (version, name, applied_at) VALUES (999, 'future', 0)").run();
    app.close();
    expect(() => openAppDb(file)).toThrow(/schema version 999, newer than/);
  });
});
