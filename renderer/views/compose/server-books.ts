// issue 16: the account's server address books as Compose's recipient tokens: each book and each
// "book::group" (spec 2.2 SendToAddressBook) with how many it reaches, from the same
// QueryAddressBook answer the Contacts view shows (addressbooks.list).
import { useEffect, useState } from 'react';
import type { ServerAddressBook } from '../../../domain/index.ts';
import { api } from '../../api.ts';
import { plural } from '../../format.ts';

/** A book or book::group a send can name, and its distinct members. */
export interface BookRef {
  ref: string;
  reach: number;
}

export function bookRefs(books: readonly ServerAddressBook[]): BookRef[] {
  return books.flatMap((b) => [
    { ref: b.name, reach: b.members.length },
    ...b.groups.map((g) => ({ ref: `${b.name}::${g.name}`, reach: g.members })),
  ]);
}

/** The book a typed token names: exactly, else ignoring case. */
export function findBook(refs: readonly BookRef[], token: string): BookRef | undefined {
  const t = token.trim();
  return refs.find((r) => r.ref === t) ?? refs.find((r) => r.ref.toLowerCase() === t.toLowerCase());
}

/** The signed-in account's server books (none when they cannot be read: a gateway without them). */
export function useServerBooks(): BookRef[] {
  const [refs, setRefs] = useState<BookRef[]>([]);
  useEffect(() => {
    let live = true;
    api()
      .addressbooks.list()
      .then(
        (books) => live && setRefs(bookRefs(books)),
        () => live && setRefs([]),
      );
    return () => {
      live = false;
    };
  }, []);
  return refs;
}

/** "Sending to …" of a send: its numbers, and whom its books and Cc/Bcc reach (OutboxJob.extraReach). */
export function sendingNotice(recipients: number, extraReach: number | null | undefined): string {
  const numbers = plural(recipients, 'recipient');
  if (extraReach === undefined) return `Sending to ${numbers}…`;
  const through =
    extraReach === null
      ? 'server books and Cc/Bcc'
      : `${plural(extraReach, 'recipient')} through server books or Cc/Bcc`;
  return recipients === 0 ? `Sending to ${through}…` : `Sending to ${numbers} and ${through}…`;
}
