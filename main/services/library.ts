// The content library as the media picker sees it (preload/api.ts LibraryItem): for the local
// sandbox, the reference gateway's library read in-process (public files and the demo account's
// own uploads); for any gateway, the numbers it returned as LibraryNumber to this app, kept per
// account in the app database.
import type { DatabaseSync } from 'node:sqlite';
import { getAccount } from '../../gateway/accounts.ts';
import { listLibrary } from '../../gateway/library/library.ts';
import type { LibraryKind as GatewayLibraryKind } from '../../gateway/library/library.ts';
import type { AppDb } from '../store/db.ts';
import { rowsAs } from '../store/rows.ts';
import type { ContentKind, LibraryItem, LibraryItemKind } from '../../preload/api.ts';

const FROM_GATEWAY: Record<GatewayLibraryKind, LibraryItemKind> = {
  ringtone: 'ringtone',
  'operator-logo': 'operatorLogo',
  'group-graphic': 'groupGraphic',
  picture: 'pictureMessage',
  mms: 'mms',
  wap: 'wapPush',
};

const LIBRARY_KINDS: ReadonlySet<string> = new Set(Object.values(FROM_GATEWAY));

/** The library kind a send of this content kind stores, or null when it stores none. */
export function libraryKindOf(kind: ContentKind): LibraryItemKind | null {
  return LIBRARY_KINDS.has(kind) ? (kind as LibraryItemKind) : null;
}

/** Public files and the account's own, read from a gateway database (the in-process sandbox). */
export function gatewayLibrary(db: DatabaseSync, username: string): LibraryItem[] {
  const account = getAccount(db, username);
  return listLibrary(db, account?.id ?? null).map((f) => ({
    number: f.number,
    kind: FROM_GATEWAY[f.kind],
    name: f.name,
    owner: f.ownerAccountId === null ? 'public' : 'own',
  }));
}

interface LibraryRow {
  number: number;
  kind: string;
  name: string;
}

/** Library numbers gateways returned to this app, per account. */
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

  list(accountId: string): LibraryItem[] {
    return rowsAs<LibraryRow>(
      this.#app.db
        .prepare('SELECT number, kind, name FROM library_numbers WHERE account_id = ? ORDER BY number')
        .all(accountId),
    ).flatMap((r) =>
      LIBRARY_KINDS.has(r.kind)
        ? [{ number: r.number, kind: r.kind as LibraryItemKind, name: r.name, owner: 'own' as const }]
        : [],
    );
  }
}

/** Both lists in number order, the gateway's entry kept when a number is in both. */
export function mergeLibrary(primary: LibraryItem[], seen: LibraryItem[]): LibraryItem[] {
  const byNumber = new Map<number, LibraryItem>();
  for (const item of seen) byNumber.set(item.number, item);
  for (const item of primary) byNumber.set(item.number, item);
  return [...byNumber.values()].sort((a, b) => a.number - b.number);
}
