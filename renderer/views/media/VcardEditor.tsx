// vCard editor: a contact of the address book as vCard 2.1 (what phones take over SMS, port 9204).
import { useEffect, useId, useMemo, useState } from 'react';
import type { Contact } from '../../../domain/index.ts';
import { api, errorText } from '../../api.ts';
import { useReportDraft } from './editor-kit.tsx';
import { restoreForm } from './editor-state.ts';
import { vcardDraft } from './rich-drafts.ts';
import type { ContentEditorProps } from './types.ts';

export function VcardEditor({ onChange, saved }: ContentEditorProps) {
  const [start] = useState(() =>
    restoreForm({ contactId: null as number | null, includeEmail: true, includeNotes: false }, saved, {
      contactId: (v) => (Number.isSafeInteger(v) ? (v as number) : undefined),
    }),
  );
  const [contacts, setContacts] = useState<Contact[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [contactId, setContactId] = useState<number | null>(start.contactId);
  const [includeEmail, setIncludeEmail] = useState(start.includeEmail);
  const [includeNotes, setIncludeNotes] = useState(start.includeNotes);
  const selectId = useId();

  useEffect(() => {
    api()
      .contacts.list()
      .then(setContacts, (e: unknown) => setLoadError(errorText(e)));
  }, []);

  const contact = contacts?.find((c) => c.id === contactId) ?? null;
  const draft = useMemo(
    () => vcardDraft(contact, { includeEmail, includeNotes }),
    [contact, includeEmail, includeNotes],
  );
  const state = useMemo(
    () => ({ contactId, includeEmail, includeNotes }),
    [contactId, includeEmail, includeNotes],
  );
  useReportDraft(draft, state, onChange);

  const f = filter.trim().toLowerCase();
  const shown = (contacts ?? []).filter(
    (c) =>
      f === '' ||
      c.id === contactId ||
      c.name.toLowerCase().includes(f) ||
      c.number.includes(f.replace(/\D/g, '') || f),
  );

  return (
    <div className="rich-editor" role="group" aria-label="vCard">
      {loadError ? (
        <p role="alert" className="error">
          Contacts could not be loaded: {loadError}
        </p>
      ) : null}
      {contacts && contacts.length === 0 ? (
        <p className="muted">The address book is empty: add a contact under Contacts &amp; groups first.</p>
      ) : null}
      <div className="row wrap">
        <label>
          Find contact
          <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </label>
        <div className="field">
          <label htmlFor={selectId}>Contact</label>
          <select
            id={selectId}
            value={contactId ?? ''}
            onChange={(e) => setContactId(e.target.value === '' ? null : Number(e.target.value))}
          >
            <option value="">Choose a contact…</option>
            {shown.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} (+{c.number})
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="row wrap">
        <label className="check">
          <input type="checkbox" checked={includeEmail} onChange={(e) => setIncludeEmail(e.target.checked)} />{' '}
          Include e-mail
        </label>
        <label className="check">
          <input type="checkbox" checked={includeNotes} onChange={(e) => setIncludeNotes(e.target.checked)} />{' '}
          Include notes
        </label>
      </div>
      {draft.preview ? (
        <div>
          <pre className="raw" aria-label="vCard preview">
            {draft.preview}
          </pre>
        </div>
      ) : null}
    </div>
  );
}
