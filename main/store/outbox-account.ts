// Issue 25 item 5: the outbox as one account sees it. History, its unknown-batch banner and the
// campaign view list the signed-in account's sends only (and those of no account: sent before the
// app kept accounts, or by an account since removed); nothing of another account is offered.
import type { AppDb } from './db.ts';
import { rowsAs } from './rows.ts';
import { stmt } from '../../storage/sqlite.ts';

/** The services see it as store.outboxAccount. */
export class OutboxAccountRepo {
  readonly #app: AppDb;

  constructor(app: AppDb) {
    this.#app = app;
  }

  /**
   * The account's job ids (and those of no account), newest first by when each send was made (in
   * office mode another desk's sends arrive here later than they were made: migration 053); the page
   * after `beforeId` is the jobs made before it (the same time: a smaller id).
   */
  jobIds(accountId: string, args: { limit?: number; beforeId?: number } = {}): number[] {
    const limit = Math.max(1, Math.min(500, args.limit ?? 50));
    const page =
      args.beforeId === undefined
        ? ''
        : 'AND (created_at, id) < (SELECT created_at, id FROM outbox_jobs WHERE id = ?)';
    return rowsAs<{ id: number }>(
      stmt(
        this.#app.db,
        `SELECT id FROM outbox_jobs WHERE (account_id = ? OR account_id IS NULL) ${page}
          ORDER BY created_at DESC, id DESC LIMIT ?`,
      ).all(accountId, ...(args.beforeId === undefined ? [] : [args.beforeId]), limit),
    ).map((r) => r.id);
  }

  /** Whether the job is another account's (false for one of no account, or one that does not exist). */
  isOtherAccounts(jobId: number, accountId: string): boolean {
    const row = rowsAs<{ account_id: string | null }>(
      stmt(this.#app.db, 'SELECT account_id FROM outbox_jobs WHERE id = ?').all(jobId),
    )[0];
    return row !== undefined && row.account_id !== null && row.account_id !== accountId;
  }
}
