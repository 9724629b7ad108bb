// issue 16: what the signed-in account's gateway holds beyond the spec's operations: the SOAP
// namespaces the session's client speaks (learned from the gateway's WSDL, the provider's published
// values, or pinned), and the account's server address books (QueryAddressBook), read, never stored.
import type { AddressBookEntry } from '../client/address-books.ts';
import type { Sessions } from './session.ts';
import { ApiError } from './validate-args.ts';
import type { MessengerApi } from '../../preload/api.ts';
import type { ServerAddressBook } from '../../domain/index.ts';

/**
 * Books from a QueryAddressBook answer of every book: each item's Group is "book" or "book::group"
 * (the reference gateway's answer without AddressBookName, docs/GATEWAY.md).
 */
export function booksFromEntries(entries: readonly AddressBookEntry[]): ServerAddressBook[] {
  const books = new Map<
    string,
    Map<string, { givenName: string | null; familyName: string | null; groups: Set<string> }>
  >();
  for (const e of entries) {
    const ref = e.Group ?? '';
    const sep = ref.indexOf('::');
    const book = sep < 0 ? ref : ref.slice(0, sep);
    const group = sep < 0 ? null : ref.slice(sep + 2);
    const members = books.get(book) ?? new Map();
    books.set(book, members);
    const m = members.get(e.MobileNumber) ?? {
      givenName: e.GivenName ?? null,
      familyName: e.FamilyName ?? null,
      groups: new Set<string>(),
    };
    if (group !== null) m.groups.add(group);
    members.set(e.MobileNumber, m);
  }
  return [...books].map(([name, members]) => {
    const counts = new Map<string, number>();
    for (const m of members.values()) for (const g of m.groups) counts.set(g, (counts.get(g) ?? 0) + 1);
    return {
      name,
      members: [...members].map(([number, m]) => ({
        number,
        givenName: m.givenName,
        familyName: m.familyName,
        groups: [...m.groups].sort(),
      })),
      groups: [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([g, n]) => ({ name: g, members: n })),
    };
  });
}

export function createServerBooks(deps: { sessions: Pick<Sessions, 'current' | 'require'> }) {
  const api: Pick<MessengerApi, 'soap' | 'addressbooks'> = {
    soap: {
      async namespace() {
        const s = deps.sessions.current();
        if (!s) return null;
        const n = await s.client.soapNamespace();
        return { ...n.profile, source: n.source, detail: n.detail };
      },
    },
    addressbooks: {
      async list() {
        const s = deps.sessions.require();
        const r = await s.client.queryAddressBook();
        if (r.outcome === 'ok') return booksFromEntries(r.value);
        if (r.outcome === 'unsent')
          throw new ApiError('gateway-unavailable', `address books not read: ${r.reason}`);
        if (r.outcome === 'rejected')
          throw new ApiError('gateway-refused', `address books not read: ${r.reason}`);
        throw new ApiError('outcome-unknown', `address books not read: ${r.reason}`);
      },
    },
  };
  return { api };
}
