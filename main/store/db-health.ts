// Issue 25: the start-up check of the app database. `PRAGMA quick_check` reads every page of the
// file once and checks the b-tree structure (not index contents against tables, which
// integrity_check adds at several times the cost), so its time grows with the file only, never with
// what the pages hold; measured in `npm run bench -- --only db-health` at 1,000,000 messages. Its
// report is bounded to the first MAX_PROBLEMS problems. A file SQLite cannot open or read at all (a
// header overwritten, half of it gone) is reported the same way: damaged, with SQLite's words.
import { existsSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

/** quick_check stops collecting problems after this many (the first ones say enough). */
export const MAX_PROBLEMS = 10;

export interface DbHealth {
  ok: boolean;
  file: string;
  /** SQLite's words for what is wrong (null when ok). */
  problem: string | null;
  /** How long the check took, ms. */
  checkMs: number;
}

/** Checks `file` (a missing or empty file is a new database: ok). Never throws. */
export function checkDatabase(file: string): DbHealth {
  const started = performance.now();
  const done = (problem: string | null): DbHealth => ({
    ok: problem === null,
    file,
    problem,
    checkMs: performance.now() - started,
  });
  if (!existsSync(file) || statSync(file).size === 0) return done(null);
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file, { timeout: 5000 });
    const rows = db.prepare(`PRAGMA quick_check(${MAX_PROBLEMS})`).all() as Array<Record<string, unknown>>;
    const lines = rows.map((r) => String(Object.values(r)[0]));
    return done(lines.length === 1 && lines[0] === 'ok' ? null : lines.join('; '));
  } catch (err) {
    return done(err instanceof Error ? err.message : String(err));
  } finally {
    try {
      db?.close();
    } catch {
      /* a damaged file may refuse even this */
    }
  }
}

/** Whether `err` (from opening or using the database) says the file is damaged or not a database. */
export function isDamage(err: unknown): boolean {
  const e = err as { errcode?: number; message?: string };
  // SQLITE_CORRUPT (11), SQLITE_NOTADB (26)
  return (
    (e.errcode ?? 0) % 256 === 11 ||
    (e.errcode ?? 0) % 256 === 26 ||
    /malformed|not a database|database disk image/i.test(e.message ?? '')
  );
}
