// Issue 25: "export what can still be read" from a damaged app database. SQLite stops a query at the
// first damaged page it meets, so each table is read in rowid order in small pages; where a read
// fails, the first readable rowid after it is found by searching forward (a query for
// "rowid >= x" fails while x falls on a damaged page and succeeds past it), and reading goes on
// from there. The rows on damaged pages are lost; everything else is written as CSV (papaparse).
// A send to many keeps the recipients that have no listed conversation in the journal's lean table
// (outbox_recipients, migration 055: WITHOUT ROWID, keyed by batch and position), not in `messages`:
// they are read the same way by that key and written with the messages (issue 27 item 6), their time
// and ReplyTo their send's, so nothing a user sent is left out of the export.
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

/** How a table's rows are walked: by rowid, or by a WITHOUT ROWID table's two-integer key. */
interface Walk {
  /** The key of a row as one integer (`_rid`). */
  key: string;
  /** Rows after (`>`) or from (`>=`) the key `?1`. */
  from: (op: '>' | '>=') => string;
  order: string;
}
const BY_ROWID: Walk = { key: 'rowid', from: (op) => `rowid ${op} ?1`, order: 'rowid' };
/** outbox_recipients by (batch_id, position): a batch holds at most LIMITS.maxRecipientsPerRequest. */
const PER_BATCH = 1_000_000;
const BY_BATCH: Walk = {
  key: `batch_id * ${PER_BATCH} + position`,
  // (a JS number may be bound as a REAL: the division made an integer one)
  from: (op) =>
    `(batch_id, position) ${op} (CAST(?1 AS INTEGER) / ${PER_BATCH}, CAST(?1 AS INTEGER) % ${PER_BATCH})`,
  order: 'batch_id, position',
};

/** Every readable row of `table` (columns `cols`), in key order; counts the damaged stretches. */
function readTable(
  db: DatabaseSync,
  table: string,
  cols: string,
  walk: Walk = BY_ROWID,
): { rows: Row[]; skipped: number } {
  const page = db.prepare(
    `SELECT ${walk.key} AS _rid, ${cols} FROM ${table} WHERE ${walk.from('>')} ORDER BY ${walk.order} LIMIT ?2`,
  );
  const first = db.prepare(
    `SELECT ${walk.key} AS _rid FROM ${table} WHERE ${walk.from('>=')} ORDER BY ${walk.order} LIMIT 1`,
  );
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
  let after = walk === BY_ROWID ? Number.MIN_SAFE_INTEGER : -1;
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
        result.skipped += skipped;
        const out = rows.map(shape);
        if (table === 'messages') out.push(...leanMessages(db, result));
        result[key] = out.length;
        writeFileSync(join(folder, `${table}.csv`), Papa.unparse(out), { mode: 0o600 });
      } catch (err) {
        result.problems.push(`${table}: ${(err as Error).message}`);
      }
    }
  } finally {
    db.close();
  }
  return result;
}

/**
 * The readable recipients of the journal's lean table (migration 055) as outbound messages: each
 * with its send's time and ReplyTo when that send's row can be read. None in a file from before it.
 */
function leanMessages(db: DatabaseSync, result: SalvageResult): Array<Record<string, unknown>> {
  const has = (table: string): boolean =>
    db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table) !== undefined;
  try {
    if (!has('outbox_recipients')) return [];
    const sends = new Map<number, { at: unknown; replyTo: unknown }>();
    if (has('outbox_jobs')) {
      const jobs = readTable(db, 'outbox_jobs', 'created_at, content');
      result.skipped += jobs.skipped;
      for (const j of jobs.rows) {
        let replyTo: unknown = null;
        try {
          replyTo = (JSON.parse(String(j.content)) as { replyTo?: unknown }).replyTo ?? null;
        } catch {
          // a damaged content: the message without its ReplyTo
        }
        sends.set(j._rid, { at: j.created_at, replyTo });
      }
    }
    const lean = readTable(db, 'outbox_recipients', 'job_id, peer, text, status', BY_BATCH);
    result.skipped += lean.skipped;
    return [...lean.rows, ...pendingLean(db, result)].map((r) => {
      const send = sends.get(Number(r.job_id));
      return {
        date: iso(send?.at),
        direction: 'out',
        peer: r.peer,
        local: send?.replyTo ?? null,
        text: r.text,
        status: r.status,
        gatewayTimestamp: null,
      };
    });
  } catch (err) {
    result.problems.push(`outbox_recipients: ${(err as Error).message}`);
    return [];
  }
}

/**
 * The recipients a batch not ended yet holds in its value (app migration 059: `outbox_batches.lean`,
 * a JSON array of numbers by position, null for a `messages` row), as lean rows with its state.
 */
function pendingLean(db: DatabaseSync, result: SalvageResult): Row[] {
  const hasValue =
    db.prepare("SELECT 1 FROM pragma_table_info('outbox_batches') WHERE name = 'lean'").get() !== undefined;
  if (!hasValue) return [];
  const batches = readTable(db, 'outbox_batches', 'job_id, state, lean, lean_text');
  result.skipped += batches.skipped;
  const rows: Row[] = [];
  for (const b of batches.rows) {
    if (typeof b.lean !== 'string') continue;
    let peers: unknown;
    try {
      peers = JSON.parse(b.lean);
    } catch {
      continue; // a damaged value: its numbers are lost with it
    }
    if (!Array.isArray(peers)) continue;
    for (const peer of peers)
      if (typeof peer === 'string')
        rows.push({ _rid: b._rid, job_id: b.job_id, peer, text: b.lean_text, status: b.state });
  }
  return rows;
}
