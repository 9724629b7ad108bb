// Server address books (QueryAddressBook, the provider's WSDL): a reference "book" or "book::group"
// (spec 2.2 SendToAddressBook), and how many recipients a send's address books reach, so a request
// never carries more than the gateway accepts (it counts every member).
import type { AddressBookEntry } from '../../protocol/soap/operations.ts';
import type { Result } from './results.ts';

export type { AddressBookEntry };

/** "book" or "book::group" as its two parts. */
export function parseBookRef(ref: string): { book: string; group?: string } {
  const sep = ref.indexOf('::');
  return sep < 0 ? { book: ref } : { book: ref.slice(0, sep), group: ref.slice(sep + 2) };
}

/** Recipients a book (or group) reaches: its distinct numbers (a member in two groups is sent once). */
export function reachOfEntries(entries: readonly AddressBookEntry[]): number {
  return new Set(entries.map((e) => e.MobileNumber)).size;
}

export type QueryBook = (book: string, group?: string) => Promise<Result<AddressBookEntry[]>>;

/**
 * Recipients reached by `extra` Cc/Bcc numbers and the address books `books`, or undefined when a
 * book could not be sized (then the books go in a request of their own).
 */
export async function reachOf(
  query: QueryBook,
  books: readonly string[],
  extra: number,
): Promise<number | undefined> {
  let total = extra;
  for (const ref of books) {
    const { book, group } = parseBookRef(ref);
    const r = await query(book, group);
    if (r.outcome !== 'ok') return undefined;
    total += reachOfEntries(r.value);
  }
  return total;
}
