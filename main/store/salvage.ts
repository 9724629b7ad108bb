// Issue 25: "export what can still be read" from a damaged app database. SQLite stops a query at the
// first damaged page it meets, so each table is read in rowid order in small pages; where a read
// fails, the first readable rowid after it is found by searching forward (a query for
// "rowid >= x" fails while x falls on a damaged page and succeeds past it), and reading goes on
// from there. The rows on damaged pages are lost; everything else is written as CSV (papaparse).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import Papa from 'papaparse';

const PAGE = 500;

export interface SalvageResult {
  folder: string;
  messages: number;
  contacts: number;
  /** Damaged stretches stepped over (0: every row of both tables was read). */
  skipped: number;
  /** Why a whole table could not be read, when one could not. */
  problems: string[];
}

type Row = Record<string, unknown> & { _rid: number };

/** Every readable row of `table` (columns `cols`), in rowid order; counts the damaged stretches. */
function readTable(db: DatabaseSync, table: string, cols: string): { rows: Row[]; skipped: number } {
  const page = db.prepare(
    `SELECT rowid AS _rid, ${cols} FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
  );
  const first = db.prepare(`SELECT rowid AS _rid FROM ${table} WHERE rowid >= ? ORDER BY rowid LIMIT 1`);
  const readable = (x: number): number | null | 'damaged' => {
    try {
      const r = first.get(x) as { _rid: number } | undefined;
      return r ? r._rid : null;
    } catch {
      return 'damaged';
    }
  };
  const rows: Row[] = [];
  let skipped = 0;
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    let batch: Row[];
    try {
      batch = page.all(after, PAGE) as Row[];
    } catch {
      // One row at a time up to the damage, then search forward past it.
      let one: Row | undefined;
      try {
        one = page.get(after, 1) as Row | undefined;
      } catch {
        skipped++;
        const next = pastDamage(readable, after + 1);
        if (next === null) break;
        after = next - 1;
        continue;
      }
      if (!one) break;
      rows.push(one);
      after = one._rid;
      continue;
    }
    if (batch.length === 0) break;
    rows.push(...batch);
    after = (batch.at(-1) as Row)._rid;
  }
  return { rows, skipped };
}

/**
 * The first readable rowid at or after the damaged start `bad` (readable(bad) failed): steps
 * forward ×2 until a read works, then narrows down to the first start that works. Null: none.
 */
function pastDamage(readable: (x: number) => number | null | 'damaged', bad: number): number | null {
  let lo = bad;
  let hi: number | null = null;
  for (let step = 1; lo + step <= Number.MAX_SAFE_INTEGER; step *= 2) {
    const r = readable(lo + step);
    if (r === null) return null;
    if (r !== 'damaged') {
      hi = lo + step;
      break;
    }
    lo += step;
  }
  if (hi === null) return null;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (readable(mid) === 'damaged') lo = mid;
    else hi = mid;
  }
  const r = readable(hi);
  return r === 'damaged' ? null : r;
}

const iso = (ms: unknown): string => (typeof ms === 'number' ? new Date(ms).toISOString() : '');

/** Writes what can be read of the messages and contacts of `file` into `<outDir>/readable-<time>/`. */
export function salvageReadable(file: string, outDir: string): SalvageResult {
  const folder = join(outDir, `readable-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const result: SalvageResult = { folder, messages: 0, contacts: 0, skipped: 0, problems: [] };
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { readOnly: true, timeout: 5000 });
  } catch (err) {
    result.problems.push(`the file could not be opened: ${(err as Error).message}`);
    return result;
  }
  try {
    const tables: Array<[string, string, (r: Row) => Record<string, unknown>, 'messages' | 'contacts']> = [
      [
        'messages',
        'created_at, direction, peer, local, text, status, sent_timestamp',
        (r) => ({
          date: iso(r.created_at),
          direction: r.direction,
          peer: r.peer,
          local: r.local,
          text: r.text,
          status: r.status,
          gatewayTimestamp: r.sent_timestamp,
        }),
        'messages',
      ],
      [
        'contacts',
        'name, number_typed, number, email, notes',
        (r) => ({
          name: r.name,
          number: r.number_typed,
          normalised: r.number,
          email: r.email,
          notes: r.notes,
        }),
        'contacts',
      ],
    ];
    for (const [table, cols, shape, key] of tables) {
      try {
        const { rows, skipped } = readTable(db, table, cols);
        result[key] = rows.length;
        result.skipped += skipped;
        writeFileSync(join(folder, `${table}.csv`), Papa.unparse(rows.map(shape)), { mode: 0o600 });
      } catch (err) {
        result.problems.push(`${table}: ${(err as Error).message}`);
      }
    }
  } finally {
    db.close();
  }
  return result;
}
