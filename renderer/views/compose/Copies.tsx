// issue 16: Cc and Bcc of a rich send (spec 2.4: SendCc, SendBcc, SendCcAddressBook and
// SendBccAddressBook are sendmms fields; a text or flash message takes none). Behind a "Cc/Bcc"
// toggle; they go with the first request of the send only (the sender and the journal see to it).
import { useId, useState } from 'react';
import type { SendCopies } from '../../../domain/index.ts';
import { plural } from '../../format.ts';
import { findBook, type BookRef } from './server-books.ts';

/** The Cc/Bcc fields as typed (numbers comma-separated). */
export interface CopiesForm {
  cc: string;
  bcc: string;
  ccAddressBook: string;
  bccAddressBook: string;
}

export const NO_COPIES: CopiesForm = { cc: '', bcc: '', ccAddressBook: '', bccAddressBook: '' };

const list = (v: string): string[] =>
  v
    .split(/[\s,;]+/)
    .map((x) => x.trim())
    .filter((x) => x !== '');

export function hasCopies(f: CopiesForm): boolean {
  return Object.values(f).some((v) => v.trim() !== '');
}

/** The request's copies, undefined when none is filled in. */
export function copiesOf(f: CopiesForm): SendCopies | undefined {
  if (!hasCopies(f)) return undefined;
  const cc = list(f.cc);
  const bcc = list(f.bcc);
  return {
    ...(cc.length ? { cc } : {}),
    ...(bcc.length ? { bcc } : {}),
    ...(f.ccAddressBook.trim() ? { ccAddressBook: f.ccAddressBook.trim() } : {}),
    ...(f.bccAddressBook.trim() ? { bccAddressBook: f.bccAddressBook.trim() } : {}),
  };
}

/** Recipients the copies reach (a book not among the account's books counts as 0). */
export function copiesReach(f: CopiesForm, books: readonly BookRef[]): number {
  const book = (ref: string) => (ref.trim() ? (findBook(books, ref)?.reach ?? 0) : 0);
  return list(f.cc).length + list(f.bcc).length + book(f.ccAddressBook) + book(f.bccAddressBook);
}

export function Copies({
  value,
  onChange,
  books,
}: {
  value: CopiesForm;
  onChange: (f: CopiesForm) => void;
  books: readonly BookRef[];
}) {
  const id = useId();
  const [open, setOpen] = useState(hasCopies(value));
  const shown = open || hasCopies(value);
  const reach = copiesReach(value, books);
  const set = (k: keyof CopiesForm) => (e: { target: { value: string } }) =>
    onChange({ ...value, [k]: e.target.value });
  return (
    <div className="field copies">
      <button type="button" className="link" aria-expanded={shown} onClick={() => setOpen(!shown)}>
        Cc/Bcc
      </button>
      {hasCopies(value) ? (
        <span className="muted small" data-testid="copies-reach">
          {' '}
          reaches {plural(reach, 'recipient')}, with the first request only
        </span>
      ) : null}
      {shown ? (
        <div className="copies-grid">
          <label htmlFor={`${id}-cc`}>Cc numbers</label>
          <input id={`${id}-cc`} value={value.cc} onChange={set('cc')} placeholder="447700900123, …" />
          <label htmlFor={`${id}-bcc`}>Bcc numbers</label>
          <input id={`${id}-bcc`} value={value.bcc} onChange={set('bcc')} placeholder="447700900123, …" />
          <label htmlFor={`${id}-ccb`}>Cc address book</label>
          <input
            id={`${id}-ccb`}
            list={`${id}-books`}
            value={value.ccAddressBook}
            onChange={set('ccAddressBook')}
            placeholder="book or book::group"
          />
          <label htmlFor={`${id}-bccb`}>Bcc address book</label>
          <input
            id={`${id}-bccb`}
            list={`${id}-books`}
            value={value.bccAddressBook}
            onChange={set('bccAddressBook')}
            placeholder="book or book::group"
          />
          <datalist id={`${id}-books`}>
            {books.map((b) => (
              <option key={b.ref} value={b.ref}>{`reaches ${b.reach}`}</option>
            ))}
          </datalist>
        </div>
      ) : null}
    </div>
  );
}
