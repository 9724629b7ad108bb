// Compose's draft per account (migration 008, issue 12): kept as the user types, read back when
// Compose opens (after navigation or a restart), deleted by "Discard draft" and by a send.
import type { AppDb } from './db.ts';
import { rowAs } from './rows.ts';
import type { SavedDraft } from '../../domain/index.ts';

export class DraftsRepo {
  readonly #app: AppDb;

  constructor(app: AppDb) {
    this.#app = app;
  }

  get(accountId: string): SavedDraft | null {
    const row = rowAs<{ draft: string }>(
      this.#app.db.prepare('SELECT draft FROM compose_drafts WHERE account_id = ?').get(accountId),
    );
    if (!row) return null;
    try {
      return JSON.parse(row.draft) as SavedDraft;
    } catch {
      return null;
    }
  }

  save(accountId: string, draft: SavedDraft): void {
    this.#app.db
      .prepare(
        'INSERT INTO compose_drafts (account_id, draft, updated_at) VALUES (?, ?, ?) ' +
          'ON CONFLICT (account_id) DO UPDATE SET draft = excluded.draft, updated_at = excluded.updated_at',
      )
      .run(accountId, JSON.stringify(draft), Date.now());
  }

  discard(accountId: string): void {
    this.#app.db.prepare('DELETE FROM compose_drafts WHERE account_id = ?').run(accountId);
  }
}
