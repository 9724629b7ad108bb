// Issue 27 item 6: once the app writes a lot, its database's WAL checkpoints run on a thread of
// their own (storage/checkpointer.ts), not inside the main thread's commits.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { openAppDb } from '../../../main/store/db.ts';
import type { AppDb } from '../../../main/store/db.ts';
import { SAFETY_NET_PAGES, WAL_SIZE_LIMIT, startCheckpointer } from '../../../storage/checkpointer.ts';
import type { CheckpointReport } from '../../../storage/checkpointer.ts';
import { tempDbFile } from './helpers.ts';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function temp(): string {
  const t = tempDbFile();
  cleanups.push(t.cleanup);
  return t.file;
}

function open(file: string, onCheckpoint?: (r: CheckpointReport) => void): AppDb {
  const app = openAppDb(file, {
    checkpoints: { busyMs: 5, idleMs: 20, ...(onCheckpoint ? { onCheckpoint } : {}) },
  });
  cleanups.unshift(() => app.close());
  return app;
}

const autocheckpoint = (db: DatabaseSync): number =>
  (db.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint;

/** ~`mb` MB written in transactions of 256 KB (64 pages each). */
function write(app: AppDb, mb: number): void {
  app.db.exec('CREATE TABLE IF NOT EXISTS filler (b BLOB)');
  const insert = app.db.prepare('INSERT INTO filler (b) VALUES (randomblob(4000))');
  for (let t = 0; t < mb * 4; t++) app.transaction(() => Array.from({ length: 64 }, () => insert.run()));
}

async function until(what: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the checkpoint thread', () => {
  it('starts once the app writes a lot, and copies the WAL into the file from then on', async () => {
    const file = temp();
    const reports: CheckpointReport[] = [];
    const app = open(file, (r) => reports.push(r));
    // A few writes: SQLite's own checkpoint (1,000 pages), no thread.
    write(app, 1);
    expect(autocheckpoint(app.db)).toBe(1_000);
    const before = statSync(file).size;
    write(app, 8);
    // Past START_BYTES of WAL: the thread runs, the main connection's own checkpoint waits for ~40 MB.
    expect(autocheckpoint(app.db)).toBe(SAFETY_NET_PAGES);
    // The thread copied every frame committed (log = checkpointed), and the database file has them.
    await until(() => {
      const last = reports.at(-1);
      return (
        last !== undefined &&
        last.log > 0 &&
        last.checkpointed === last.log &&
        statSync(file).size - before > 8_000_000
      );
    });
    expect(reports.every((r) => r.busy === 0)).toBe(true);
    expect((app.db.prepare('SELECT count(*) AS n FROM filler').get() as { n: number }).n).toBe(9 * 4 * 64);
  });

  it('once the log starts over, its file is cut back to WAL_SIZE_LIMIT (not kept at its largest until close)', async () => {
    const file = temp();
    const reports: CheckpointReport[] = [];
    const app = open(file, (r) => reports.push(r));
    write(app, 12);
    const largest = statSync(`${file}-wal`).size;
    expect(largest).toBeGreaterThan(1.5 * WAL_SIZE_LIMIT);
    // The writes stopped: the thread copies every frame; the next commit starts the log over.
    await until(() => {
      const last = reports.at(-1);
      return last !== undefined && last.log > 0 && last.checkpointed === last.log;
    });
    write(app, 0.25);
    expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT);
  });

  it('is stopped by close: the main connection closes last and removes the -wal file', async () => {
    const file = temp();
    const reports: CheckpointReport[] = [];
    const app = open(file, (r) => reports.push(r));
    write(app, 4);
    await until(() => reports.length > 0);
    expect(existsSync(`${file}-wal`)).toBe(true);
    app.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    // Everything is in the file itself: a new connection reads it all.
    const db = new DatabaseSync(file, { readOnly: true });
    expect((db.prepare('SELECT count(*) AS n FROM filler').get() as { n: number }).n).toBe(4 * 4 * 64);
    db.close();
  });

  it('stopped: the main connection checkpoints by itself again; at once, stop does not wait for it to start', async () => {
    const file = temp();
    const app = openAppDb(file, { checkpoints: false });
    cleanups.unshift(() => app.close());
    const started = Date.now();
    for (let i = 0; i < 5; i++) {
      const thread = startCheckpointer(app.db, file);
      expect(autocheckpoint(app.db)).toBe(SAFETY_NET_PAGES);
      thread.stop();
      expect(autocheckpoint(app.db)).toBe(1_000);
      await thread.ended;
    }
    expect(Date.now() - started).toBeLessThan(10_000);
    // Started, then stopped once its connection is open: stop waits until it is closed.
    const reports: CheckpointReport[] = [];
    const thread = startCheckpointer(app.db, file, {
      busyMs: 5,
      idleMs: 5,
      onCheckpoint: (r) => reports.push(r),
    });
    write(app, 1);
    await until(() => reports.length > 0);
    thread.stop();
    expect(autocheckpoint(app.db)).toBe(1_000);
    await thread.ended;
  });

  it('a thread that ends on its own hands the checkpoints back to the main connection', async () => {
    const file = temp();
    const app = openAppDb(file, { checkpoints: false });
    cleanups.unshift(() => app.close());
    expect(autocheckpoint(app.db)).toBe(1_000);
    // A file the thread cannot open as a database: it fails at its first checkpoint and ends.
    const checkpointer = startCheckpointer(app.db, `${file}.missing/none`, { busyMs: 5, idleMs: 5 });
    expect(autocheckpoint(app.db)).toBe(SAFETY_NET_PAGES);
    await checkpointer.ended;
    expect(autocheckpoint(app.db)).toBe(1_000);
  });

  it('not for an in-memory database', () => {
    const app = openAppDb(':memory:');
    cleanups.unshift(() => app.close());
    expect(autocheckpoint(app.db)).toBe(1_000);
  });
});
