// issue 16: the account's address books at the gateway (QueryAddressBook), read-only: each book
// with its groups and their member counts, and its members on demand; refreshed on request.
// A book or "book::group" is what SendToAddressBook names (spec 2.2).
import { useCallback, useEffect, useState } from 'react';
import type { ServerAddressBook } from '../../domain/index.ts';
import { api } from '../api.ts';
import { displayNumber } from '../format.ts';
import { ErrorText } from '../components/ErrorText.tsx';
import { useAction } from '../hooks/useAction.ts';

export function ServerAddressBooks() {
  const [books, setBooks] = useState<ServerAddressBook[] | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const load = useAction(async () => setBooks(await api().addressbooks.list()));
  const { run } = load;
  const refresh = useCallback(() => void run(), [run]);
  useEffect(refresh, [refresh]);

  return (
    <section className="panel server-books" aria-labelledby="server-books-title">
      <div className="row spread">
        <h2 id="server-books-title">Server address books</h2>
        <button type="button" onClick={refresh} disabled={load.busy}>
          {load.busy ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <p className="muted small">
        Kept at the gateway for this account; send to a book or to book::group by its name.
      </p>
      <ErrorText error={load.error} />
      {books !== null && books.length === 0 ? (
        <p className="muted">This account has no address books.</p>
      ) : null}
      <ul className="plain" aria-label="Server address books">
        {(books ?? []).map((b) => (
          <li key={b.name} className="server-book">
            <button
              type="button"
              className="group-item row spread"
              aria-expanded={open === b.name}
              onClick={() => setOpen(open === b.name ? null : b.name)}
            >
              <strong>{b.name}</strong>
              <span className="muted small">
                {b.members.length} member{b.members.length === 1 ? '' : 's'}
              </span>
            </button>
            {b.groups.length > 0 ? (
              <ul className="plain server-book-groups" aria-label={`Groups of ${b.name}`}>
                {b.groups.map((g) => (
                  <li key={g.name} className="row spread small">
                    <code>
                      {b.name}::{g.name}
                    </code>
                    <span className="muted">{g.members}</span>
                  </li>
                ))}
              </ul>
            ) : null}
            {open === b.name ? (
              <ul className="plain group-detail" aria-label={`Members of ${b.name}`}>
                {b.members.map((m) => (
                  <li key={m.number} className="row spread small">
                    <span>{[m.givenName, m.familyName].filter(Boolean).join(' ') || '—'}</span>
                    <span className="muted">
                      {displayNumber(m.number)}
                      {m.groups.length > 0 ? ` · ${m.groups.join(', ')}` : ''}
                    </span>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
