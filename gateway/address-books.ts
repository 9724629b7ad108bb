// Address books with groups (spec 2.2 SendToAddressBook "name" or "name::group"), and their import
// from CSV (columns number, name, groups; groups separated by ';' or '|'), parsed with papaparse.
import Papa from 'papaparse';
import type { DatabaseSync } from 'node:sqlite';
import { normalizeMsisdn } from '../protocol/msisdn.ts';
import type { Account } from './accounts.ts';
import { transaction } from './store/db.ts';

export interface AddressBookEntry {
  number: string;
  name?: string;
  groups: string[];
}

export interface ImportResult {
  imported: number;
  rejected: Array<{ line: number; input: string; reason: string }>;
}

/** Adds (or updates) entries of `bookName`, creating the book and its groups as needed. */
export function importAddressBook(
  db: DatabaseSync,
  account: Account,
  bookName: string,
  entries: AddressBookEntry[],
  defaultCountry?: string,
): ImportResult {
  const rejected: ImportResult['rejected'] = [];
  let imported = 0;
  transaction(db, () => {
    db.prepare('INSERT OR IGNORE INTO address_books (account_id, name) VALUES (?, ?)').run(
      account.id,
      bookName,
    );
    const book = db
      .prepare('SELECT id FROM address_books WHERE account_id = ? AND name = ?')
      .get(account.id, bookName) as { id: number };
    const upsert = db.prepare(
      `INSERT INTO address_book_members (book_id, number, name) VALUES (?, ?, ?)
       ON CONFLICT (book_id, number) DO UPDATE SET name = coalesce(excluded.name, name) RETURNING id`,
    );
    const group = db.prepare(
      `INSERT INTO address_book_groups (book_id, name) VALUES (?, ?)
       ON CONFLICT (book_id, name) DO UPDATE SET name = excluded.name RETURNING id`,
    );
    const member = db.prepare(
      'INSERT OR IGNORE INTO address_book_group_members (group_id, member_id) VALUES (?, ?)',
    );
    entries.forEach((e, i) => {
      const n = normalizeMsisdn(e.number, defaultCountry);
      if (!n.ok) {
        rejected.push({ line: i + 1, input: e.number, reason: n.reason });
        return;
      }
      const { id } = upsert.get(book.id, n.msisdn, e.name?.trim() || null) as { id: number };
      for (const g of e.groups) {
        const name = g.trim();
        if (!name) continue;
        const { id: gid } = group.get(book.id, name) as { id: number };
        member.run(gid, id);
      }
      imported++;
    });
  });
  return { imported, rejected };
}

/**
 * Parses CSV with a header row. Recognised columns (case-insensitive): number|msisdn|phone|mobile,
 * name, group|groups. Rows without a number are reported as rejected by importAddressBook.
 */
export function parseAddressBookCsv(csv: string): AddressBookEntry[] {
  const parsed = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim().toLowerCase(),
  });
  return parsed.data.map((row) => {
    const number = row.number ?? row.msisdn ?? row.phone ?? row.mobile ?? '';
    const groups = (row.groups ?? row.group ?? '').split(/[;|]/).filter((g) => g.trim() !== '');
    const name = row.name;
    return name === undefined ? { number, groups } : { number, name, groups };
  });
}

export function listAddressBooks(
  db: DatabaseSync,
  account: Account,
): Array<{ name: string; members: number; groups: string[] }> {
  const books = db
    .prepare('SELECT id, name FROM address_books WHERE account_id = ? ORDER BY name')
    .all(account.id) as Array<{ id: number; name: string }>;
  return books.map((b) => ({
    name: b.name,
    members: (
      db.prepare('SELECT count(*) AS n FROM address_book_members WHERE book_id = ?').get(b.id) as {
        n: number;
      }
    ).n,
    groups: (
      db.prepare('SELECT name FROM address_book_groups WHERE book_id = ? ORDER BY name').all(b.id) as Array<{
        name: string;
      }>
    ).map((g) => g.name),
  }));
}

export class AddressBookQueryError extends Error {}

/** A member's stored name as GivenName (first word) and FamilyName (the rest). */
function splitName(name: string | null): { GivenName?: string; FamilyName?: string } {
  const parts = (name ?? '')
    .trim()
    .split(/\s+/)
    .filter((p) => p !== '');
  if (parts.length === 0) return {};
  return parts.length === 1
    ? { GivenName: parts[0]! }
    : { GivenName: parts[0]!, FamilyName: parts.slice(1).join(' ') };
}

/**
 * QueryAddressBook (the provider's WSDL): the members of one book, of one group of it, or of every
 * book. One item per member and group it is in (a member in no group: one item without Group).
 * `Group` is the group's name when a book is named, else the SendToAddressBook reference
 * ("book" or "book::group"), so a client can list books and groups from one answer.
 * Throws AddressBookQueryError for an unknown book or group.
 */
export function queryAddressBook(
  db: DatabaseSync,
  account: Account,
  bookName?: string,
  groupName?: string,
): AddressBookEntryItem[] {
  const books = (
    bookName === undefined
      ? db.prepare('SELECT id, name FROM address_books WHERE account_id = ? ORDER BY name').all(account.id)
      : db
          .prepare('SELECT id, name FROM address_books WHERE account_id = ? AND name = ?')
          .all(account.id, bookName)
  ) as Array<{ id: number; name: string }>;
  if (bookName !== undefined && books.length === 0)
    throw new AddressBookQueryError(`Unknown address book ${bookName}`);
  if (groupName !== undefined && bookName === undefined)
    throw new AddressBookQueryError('AddressBookGroupName needs AddressBookName');
  const out: AddressBookEntryItem[] = [];
  for (const book of books) {
    let rows: Array<{ number: string; name: string | null; grp: string | null }>;
    if (groupName !== undefined) {
      const group = db
        .prepare('SELECT id FROM address_book_groups WHERE book_id = ? AND name = ?')
        .get(book.id, groupName) as { id: number } | undefined;
      if (!group) throw new AddressBookQueryError(`Unknown group ${groupName} in address book ${book.name}`);
      rows = db
        .prepare(
          `SELECT m.number, m.name, ? AS grp FROM address_book_members m
             JOIN address_book_group_members gm ON gm.member_id = m.id WHERE gm.group_id = ? ORDER BY m.id`,
        )
        .all(groupName, group.id) as typeof rows;
    } else {
      rows = db
        .prepare(
          `SELECT m.number, m.name, g.name AS grp FROM address_book_members m
             LEFT JOIN address_book_group_members gm ON gm.member_id = m.id
             LEFT JOIN address_book_groups g ON g.id = gm.group_id
           WHERE m.book_id = ? ORDER BY m.id, g.name`,
        )
        .all(book.id) as typeof rows;
    }
    for (const r of rows) {
      const group =
        bookName !== undefined ? (r.grp ?? undefined) : r.grp === null ? book.name : `${book.name}::${r.grp}`;
      out.push({
        ...splitName(r.name),
        MobileNumber: r.number,
        ...(group !== undefined ? { Group: group } : {}),
      });
    }
  }
  return out;
}

export interface AddressBookEntryItem {
  GivenName?: string;
  FamilyName?: string;
  MobileNumber: string;
  Group?: string;
}
