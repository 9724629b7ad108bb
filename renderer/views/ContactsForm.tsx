// The add / edit form of a contact: the number checked as typed (protocol/msisdn.ts, the default
// country), a duplicate named before saving.
import { useEffect, useState, type FormEvent } from 'react';
import type { Contact } from '../../domain/index.ts';
import { normalizeMsisdn } from '../../protocol/msisdn.ts';
import { api } from '../api.ts';
import { ErrorText } from '../components/ErrorText.tsx';

export function ContactForm({
  contact,
  country,
  onDone,
  onCancel,
}: {
  contact: Contact | null;
  country: string | undefined;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(contact?.name ?? '');
  const [number, setNumber] = useState(contact?.numberTyped ?? '');
  const [email, setEmail] = useState(contact?.email ?? '');
  const [notes, setNotes] = useState(contact?.notes ?? '');
  const [dupes, setDupes] = useState<Contact[]>([]);
  const [error, setError] = useState<unknown>(null);
  const check = number.trim() ? normalizeMsisdn(number, country) : null;

  const dupNumber = check?.ok ? check.msisdn : null;
  const contactId = contact?.id;
  useEffect(() => {
    if (dupNumber === null) return;
    api()
      .contacts.findDuplicates(dupNumber)
      .then(
        (d) => setDupes(d.filter((x) => x.id !== contactId)),
        () => setDupes([]),
      );
  }, [dupNumber, contactId]);
  const shownDupes = dupNumber === null ? [] : dupes;

  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError('A name is required.');
    if (!check?.ok) return setError(check ? check.reason : 'A number is required.');
    const input = { name: name.trim(), number, email, notes };
    const p = contact ? api().contacts.edit({ id: contact.id, changes: input }) : api().contacts.add(input);
    p.then(onDone, (err: unknown) => setError(err));
  };

  return (
    <form className="card contact-form" onSubmit={save} aria-label={contact ? 'Edit contact' : 'Add contact'}>
      <div className="row wrap">
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <label>
          Number
          <input
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            aria-invalid={check ? !check.ok : undefined}
            required
          />
        </label>
        <label>
          Email
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Notes
          <input value={notes} onChange={(e) => setNotes(e.target.value)} />
        </label>
      </div>
      {check && !check.ok ? <p className="error">{check.reason}</p> : null}
      {shownDupes.length ? (
        <p className="warn-text" role="status">
          Duplicate: {shownDupes.map((d) => d.name).join(', ')} already has this number.
        </p>
      ) : null}
      <ErrorText error={error} />
      <div className="row">
        <button type="submit" className="primary">
          Save
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
