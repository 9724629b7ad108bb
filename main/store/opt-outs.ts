// The account's opt-out list (migration 008, issue 12): numbers that sent an opt-out keyword (STOP)
// or that the user added. Sends skip them (main/services/sender.ts), including resends.
import type { AppDb } from './db.ts';
import { rowAs, rowsAs } from './rows.ts';
import type { OptOut } from '../../domain/index.ts';

interface OptOutRow {
  number: string;
  source: 'keyword' | 'manual';
  keyword: string | null;
  created_at: number;
}

const toOptOut = (r: OptOutRow): OptOut => ({
  number: r.number,
  source: r.source,
  keyword: r.keyword,
  createdAt: r.created_at,
});

export class OptOutsRepo {
  readonly #app: AppDb;

  constructor(app: AppDb) {
    this.#app = app;
  }

  list(accountId: string): OptOut[] {
    return rowsAs<OptOutRow>(
      this.#app.db
        .prepare(
          'SELECT number, source, keyword, created_at FROM opt_outs WHERE account_id = ? ORDER BY created_at DESC, number',
        )
        .all(accountId),
    ).map(toOptOut);
  }

  has(accountId: string, number: string): boolean {
    return (
      rowAs<{ n: number }>(
        this.#app.db
          .prepare('SELECT 1 AS n FROM opt_outs WHERE account_id = ? AND number = ?')
          .get(accountId, number),
      ) !== undefined
    );
  }

  /** Adds `numbers` (normalised); true for each that was not on the list yet. */
  add(
    accountId: string,
    numbers: readonly string[],
    source: OptOut['source'],
    keyword: string | null = null,
    /** Issue 28: run in the same transaction (office mode queues the change there). */
    within?: () => void,
  ): number {
    const insert = this.#app.db.prepare(
      'INSERT INTO opt_outs (account_id, number, source, keyword, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    const now = Date.now();
    return this.#app.transaction(() => {
      within?.();
      let added = 0;
      for (const n of numbers) added += Number(insert.run(accountId, n, source, keyword, now).changes);
      return added;
    });
  }

  remove(
    accountId: string,
    numbers: readonly string[],
    /** Issue 28: run in the same transaction (office mode queues the change there). */
    within?: () => void,
  ): number {
    const del = this.#app.db.prepare('DELETE FROM opt_outs WHERE account_id = ? AND number = ?');
    return this.#app.transaction(() => {
      within?.();
      let removed = 0;
      for (const n of numbers) removed += Number(del.run(accountId, n).changes);
      return removed;
    });
  }

  /** `numbers` without the opted-out ones, in order, and how many were left out. */
  filter(accountId: string, numbers: readonly string[]): { kept: string[]; skipped: string[] } {
    const listed = new Set(
      rowsAs<{ number: string }>(
        this.#app.db.prepare('SELECT number FROM opt_outs WHERE account_id = ?').all(accountId),
      ).map((r) => r.number),
    );
    const kept: string[] = [];
    const skipped: string[] = [];
    for (const n of numbers) (listed.has(n) ? skipped : kept).push(n);
    return { kept, skipped };
  }
}
