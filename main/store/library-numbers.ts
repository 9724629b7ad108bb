// Library numbers gateways returned to this app on sends (LibraryNumber, spec 2.4, 8), per account
// (migration 007): the media picker offers them again for any gateway.
import type { AppDb } from './db.ts';
import { rowsAs } from './rows.ts';
import type { LibraryItem, LibraryItemKind } from '../../domain/index.ts';

/** Every LibraryItemKind (the compiler keeps this list complete). */
const KINDS: Record<LibraryItemKind, true> = {
  ringtone: true,
  operatorLogo: true,
  groupGraphic: true,
  pictureMessage: true,
  mms: true,
  wapPush: true,
};

export function isLibraryItemKind(kind: string): kind is LibraryItemKind {
  return Object.hasOwn(KINDS, kind);
}

interface LibraryRow {
  number: number;
  kind: string;
  name: string;
}

export class LibraryNumbersRepo {
  readonly #app: AppDb;

  constructor(app: AppDb) {
    this.#app = app;
  }

  /** Remembers a LibraryNumber returned on a send (the latest kind and name win). */
  record(accountId: string, number: number, kind: LibraryItemKind, name: string): void {
    if (!Number.isSafeInteger(number) || number < 0) return;
    this.#app.db
      .prepare(
        'INSERT INTO library_numbers (account_id, number, kind, name, created_at) VALUES (?, ?, ?, ?, ?) ' +
          'ON CONFLICT (account_id, number) DO UPDATE SET kind = excluded.kind, name = excluded.name',
      )
      .run(accountId, number, kind, name, Date.now());
  }

  /** The account's numbers in number order, as its own library items. */
  list(accountId: string): LibraryItem[] {
    return rowsAs<LibraryRow>(
      this.#app.db
        .prepare('SELECT number, kind, name FROM library_numbers WHERE account_id = ? ORDER BY number')
        .all(accountId),
    ).flatMap((r) =>
      isLibraryItemKind(r.kind)
        ? [{ number: r.number, kind: r.kind, name: r.name, owner: 'own' as const }]
        : [],
    );
  }
}
