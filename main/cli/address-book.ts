// `messenger address-book list [NAME[::GROUP]]`: the account's server address books
// (QueryAddressBook), one line per entry: number, name, and the SendToAddressBook reference of the
// entry's book and group (issue 24). The reference is built from the book asked for and the group,
// whatever form the gateway writes the Group column in: the reference gateway writes the group's
// name when a book is named and "book::group" when none is; another gateway may write the group
// alone in both cases. Without a name such a Group cannot say its book: it is shown as the group it
// is, with a note, never as a reference to a book that does not exist. --json adds `Reference`.
import type { AddressBookEntry } from '../client/address-books.ts';
import { parseBookRef } from '../client/address-books.ts';
import type { GatewayClient } from '../client/gateway-client.ts';
import { UsageError } from './args.ts';
import type { CliIO } from './args.ts';
import { printResult } from './output.ts';

export interface ListedEntry extends AddressBookEntry {
  /** the SendToAddressBook reference ("book" or "book::group"), null when the answer does not say */
  Reference: string | null;
}

/**
 * The reference of each entry of a QueryAddressBook answer to a query for `book` (and `group`), or
 * of every book (`book` undefined). Without a book, a Group is a reference when it has the
 * "book::group" form, or when the answer uses that form elsewhere (then a Group without "::" is a
 * book whose member is in no group); otherwise the book is unknown.
 */
export function withReferences(
  entries: readonly AddressBookEntry[],
  book: string | undefined,
  group: string | undefined,
): ListedEntry[] {
  const refs = book === undefined && entries.some((e) => e.Group?.includes('::') === true);
  return entries.map((e) => {
    let reference: string | null = null;
    if (book !== undefined) {
      const g =
        e.Group?.startsWith(`${book}::`) === true ? e.Group.slice(book.length + 2) : (e.Group ?? group);
      reference = g === undefined || g === '' ? book : `${book}::${g}`;
    } else if (e.Group !== undefined && e.Group !== '' && (refs || e.Group.includes('::'))) {
      reference = e.Group;
    }
    return { ...e, Reference: reference };
  });
}

export async function cmdAddressBook(client: GatewayClient, rest: string[], io: CliIO, json: boolean) {
  const [sub, ref, ...extra] = rest;
  if (sub !== 'list' || extra.length > 0) throw new UsageError('usage: address-book list [NAME[::GROUP]]');
  const { book, group } = ref === undefined ? { book: undefined, group: undefined } : parseBookRef(ref);
  const r = await client.queryAddressBook(book, group);
  const listed = r.outcome === 'ok' ? { ...r, value: withReferences(r.value, book, group) } : r;
  return printResult(io, json, listed, (v) => {
    if (v.length === 0) return 'no entries';
    const unsaid = v.some((e) => e.Reference === null && e.Group !== undefined);
    const lines = v.map((e) =>
      [
        e.MobileNumber,
        [e.GivenName, e.FamilyName].filter(Boolean).join(' '),
        e.Reference ?? (e.Group !== undefined ? `(group ${e.Group}, book not given)` : ''),
      ]
        .join('\t')
        .trimEnd(),
    );
    if (unsaid)
      lines.push(
        'the gateway did not say which book each group is in: "address-book list BOOK" gives the references',
      );
    return lines.join('\n');
  });
}
