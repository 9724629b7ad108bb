// Issue 25: the checks of the app database. Two, because the thorough one grows with the file:
// - checkDatabase: `PRAGMA quick_check` reads every page once and checks the b-tree structure (not
//   index contents against tables, which integrity_check adds at several times the cost); its report
//   is bounded to the first MAX_PROBLEMS problems. At 1,000,000 messages (300 MB) it takes seconds
//   (`npm run bench -- --only db-health`), so the app runs it off the main thread after start
//   (./db-check-worker.ts) and stops serving the file when it finds damage.
// - checkDatabaseAtStart: bounded, whatever the size: the header, the page count against the file's
//   length (a truncated file), the schema, and the first and last row of every table (the b-tree's
//   root and its two edges); it decides before anything is served.
// A file SQLite cannot open or read at all is reported the same way: damaged, with SQLite's words.
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

/**
 * Opens `file` and runs `look` on it, timed: its answer (null: ok), or what opening or reading said.
 * A missing or empty file is a new database: ok. Never throws.
 */
function inspect(file: string, look: (db: DatabaseSync) => string | null): DbHealth {
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
    return done(look(db));
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

/** Checks `file` with quick_check (see above). Never throws. */
export function checkDatabase(file: string): DbHealth {
  return inspect(file, (db) => {
    const rows = db.prepare(`PRAGMA quick_check(${MAX_PROBLEMS})`).all() as Array<Record<string, unknown>>;
    const lines = rows.map((r) => String(Object.values(r)[0]));
    return lines.length === 1 && lines[0] === 'ok' ? null : lines.join('; ');
  });
}

/** The bounded check at start (see above); never throws. */
export function checkDatabaseAtStart(file: string): DbHealth {
  return inspect(file, (db) => {
    const pages = (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
    const size = (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
    // In WAL mode the newest pages may be in the -wal file: only a main file shorter than the
    // pages the WAL does not hold counts, so compare after a checkpoint-free look at both.
    const onDisk = statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
    if (pages * size > onDisk) return `the file is shorter than its ${pages} pages: it was cut off`;
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")
      .all() as Array<{ name: string }>;
    for (const { name } of tables) {
      const quoted = `"${name.replaceAll('"', '""')}"`;
      try {
        db.prepare(`SELECT * FROM ${quoted} ORDER BY rowid LIMIT 1`).all();
        db.prepare(`SELECT * FROM ${quoted} ORDER BY rowid DESC LIMIT 1`).all();
      } catch (err) {
        // a WITHOUT ROWID table has no rowid: its first row is read instead
        if (!/no such column: rowid/.test((err as Error).message)) throw err;
        db.prepare(`SELECT * FROM ${quoted} LIMIT 1`).all();
      }
    }
    return null;
  });
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
