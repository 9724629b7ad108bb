import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openAppDb, type AppDb } from '../../../main/store/db.ts';
import { OutboxJournal, type OutboxJournalOptions } from '../../../main/store/outbox-journal.ts';

/**
 * A folder `into` holding the app's migrations older than `version` (a file journaled by an earlier
 * version is opened with it, then with all of them): its path.
 */
export function migrationsBefore(version: number, into: string): string {
  const before = join(into, 'migrations');
  mkdirSync(before);
  const dir = join(import.meta.dirname, '../../../main/store/migrations');
  for (const f of readdirSync(dir))
    if (Number(f.slice(0, 3)) < version) copyFileSync(join(dir, f), join(before, f));
  return before;
}

/** A fresh temp folder for a real SQLite file; `cleanup` removes it. */
export function tempDbFile(name = 'app.sqlite'): { file: string; dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'messenger-store-'));
  return { file: join(dir, name), dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Before each test of the file: an app database in a fresh temp file and an outbox journal on it,
 * handed to `use`; after each, both closed and the folder removed.
 */
export function withJournal(
  use: (app: AppDb, journal: OutboxJournal) => void,
  options: OutboxJournalOptions = { defaultCountry: 'GB' },
): void {
  let app: AppDb | undefined;
  let cleanup = (): void => {};
  beforeEach(() => {
    const t = tempDbFile();
    cleanup = t.cleanup;
    app = openAppDb(t.file);
    use(app, new OutboxJournal(app, options));
  });
  afterEach(() => {
    app?.close();
    cleanup();
  });
}
