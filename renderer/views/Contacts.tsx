import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { Contact, Group, ImportResult } from '../../preload/api.ts';
import { normalizeMsisdn } from '../../protocol/msisdn.ts';
import { api } from '../api.ts';
import { displayNumber, download } from '../format.ts';
import type { ComposeDraft } from './compose/Compose.tsx';
import { ImportButtons } from './ContactImport.tsx';
import { ServerAddressBooks } from './ServerAddressBooks.tsx';
import { useDialog } from '../components/Dialog.tsx';
import { ErrorText } from '../components/ErrorText.tsx';

export function Contacts({ onCompose }: { onCompose: (d: ComposeDraft) => void }) {
  const [contacts, setContacts] = useState<Contact[]>([]);
  const [groups, setGroups] = useState<Group[]>([]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [group, setGroup] = useState<Group | null>(null);
  const [members, setMembers] = useState<Contact[]>([]);
  const [editing, setEditing] = useState<Contact | 'new' | null>(null);
  const [filter, setFilter] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [country, setCountry] = useState<string | undefined>(undefined);
  const dialog = useDialog();

  const load = useCallback(() => {
    const a = api();
    a.contacts.list().then(setContacts, (e: unknown) => setError(e));
    a.groups.list().then(setGroups, (e: unknown) => setError(e));
  }, []);
  useEffect(() => {
    load();
    api()
      .settings.get()
      .then(
        (s) => setCountry(s.defaultCountry || undefined),
        () => undefined,
      );
  }, [load]);
  useEffect(() => {
    if (group)
      api()
        .groups.members(group.id)
        .then(setMembers, (e: unknown) => setError(e));
  }, [group, groups]);

  const fail = (e: unknown) => setError(e);
  const q = filter.trim().toLowerCase();
  const shown = q
    ? contacts.filter(
        (c) => c.name.toLowerCase().includes(q) || c.number.includes(q.replace(/\D/g, '') || '\u0000'),
      )
    : contacts;
  const toggle = (id: number) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  const newGroup = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const input = e.currentTarget.elements.namedItem('groupName') as HTMLInputElement;
    const name = input.value.trim();
    if (!name) return;
    api()
      .groups.create(name)
      .then(async (g) => {
        if (selected.size) await api().groups.addMembers({ id: g.id, contactIds: [...selected] });
        input.value = '';
        setSelected(new Set());
        load();
        setGroup(g);
      }, fail);
  };

  const showImport = (r: ImportResult) =>
    setNotice(
      `Imported: ${r.added.length} added, ${r.updated.length} updated, ${r.duplicates.length} duplicate(s) skipped, ${r.invalid.length} invalid` +
        (r.invalid.length
          ? ` (${r.invalid
              .slice(0, 5)
              .map((i) => `row ${i.row}: ${i.reason}`)
              .join('; ')})`
          : ''),
    );

  return (
    <section className="view contacts" aria-labelledby="contacts-title">
      <div className="row spread">
        <h1 id="contacts-title">Contacts &amp; groups</h1>
        <div className="row">
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            Add contact
          </button>
          <ImportButtons country={country} onDone={(r) => (showImport(r), load())} onError={fail} />
          <button
            type="button"
            onClick={() =>
              void api()
                .contacts.exportCsv()
                .then((csv) => download('contacts.csv', csv), fail)
            }
          >
            Export CSV
          </button>
        </div>
      </div>
      <ErrorText error={error} />
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {editing ? (
        <ContactForm
          contact={editing === 'new' ? null : editing}
          country={country}
          onDone={() => {
            setEditing(null);
            load();
          }}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      <div className="split">
        <div className="panel">
          <div className="row spread">
            <input
              type="search"
              aria-label="Filter contacts"
              placeholder="Filter contacts"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
            <span className="muted small">
              {contacts.length} contact(s){selected.size ? `, ${selected.size} selected` : ''}
            </span>
          </div>
          {selected.size ? (
            <div className="row">
              <button type="button" onClick={() => onCompose({ contactIds: [...selected] })}>
                Send to selected
              </button>
              {group ? (
                <button
                  type="button"
                  onClick={() =>
                    void api()
                      .groups.addMembers({ id: group.id, contactIds: [...selected] })
                      .then(() => {
                        setSelected(new Set());
                        load();
                      }, fail)
                  }
                >
                  Add to “{group.name}”
                </button>
              ) : null}
            </div>
          ) : null}
          <table className="table" aria-label="Contacts">
            <thead>
              <tr>
                <th aria-label="Select" />
                <th>Name</th>
                <th>Number</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {shown.map((c) => (
                <tr key={c.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select ${c.name}`}
                      checked={selected.has(c.id)}
                      onChange={() => toggle(c.id)}
                    />
                  </td>
                  <td>{c.name}</td>
                  <td>{displayNumber(c.number)}</td>
                  <td className="actions">
                    <button type="button" className="link" onClick={() => onCompose({ contactIds: [c.id] })}>
                      Message
                    </button>
                    <button type="button" className="link" onClick={() => setEditing(c)}>
                      Edit
                    </button>
                    <button
                      type="button"
                      className="link danger"
                      onClick={() =>
                        void dialog
                          .confirm({ title: `Delete ${c.name}?`, confirmLabel: 'Delete', danger: true })
                          .then((yes) => (yes ? api().contacts.delete(c.id).then(load, fail) : undefined))
                      }
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="panel groups">
          <h2>Groups</h2>
          <form className="row" onSubmit={newGroup} aria-label="New group">
            <input name="groupName" aria-label="New group name" placeholder="New group name" />
            <button type="submit">
              {selected.size ? `Create with ${selected.size} selected` : 'Create group'}
            </button>
          </form>
          <ul className="plain">
            {groups.map((g) => (
              <li key={g.id}>
                <button
                  type="button"
                  className={group?.id === g.id ? 'group-item selected' : 'group-item'}
                  aria-pressed={group?.id === g.id}
                  onClick={() => setGroup(group?.id === g.id ? null : g)}
                >
                  {g.name} <span className="muted small">({g.memberCount})</span>
                </button>
              </li>
            ))}
          </ul>
          {group ? (
            <div className="group-detail" aria-label={`Group ${group.name}`} role="region">
              <div className="row">
                <button type="button" className="primary" onClick={() => onCompose({ groupIds: [group.id] })}>
                  Send to group
                </button>
                <button
                  type="button"
                  onClick={() =>
                    void dialog
                      .askText({
                        title: `Rename group ${group.name}`,
                        label: 'Group name',
                        initial: group.name,
                        confirmLabel: 'Rename',
                        required: 'A group needs a name.',
                      })
                      .then((name) =>
                        name
                          ? api()
                              .groups.rename({ id: group.id, name })
                              .then((g) => (setGroup(g), load()), fail)
                          : undefined,
                      )
                  }
                >
                  Rename
                </button>
                <button
                  type="button"
                  className="danger"
                  onClick={() =>
                    void dialog
                      .confirm({
                        title: `Delete group ${group.name}?`,
                        message: 'Its contacts stay.',
                        confirmLabel: 'Delete group',
                        danger: true,
                      })
                      .then((yes) =>
                        yes
                          ? api()
                              .groups.delete(group.id)
                              .then(() => (setGroup(null), load()), fail)
                          : undefined,
                      )
                  }
                >
                  Delete group
                </button>
              </div>
              <ul className="plain">
                {members.map((m) => (
                  <li key={m.id} className="row spread">
                    <span>
                      {m.name} <span className="muted small">{displayNumber(m.number)}</span>
                    </span>
                    <button
                      type="button"
                      className="link"
                      aria-label={`Remove ${m.name} from group`}
                      onClick={() =>
                        void api()
                          .groups.removeMembers({ id: group.id, contactIds: [m.id] })
                          .then(load, fail)
                      }
                    >
                      Remove
                    </button>
                  </li>
                ))}
                {members.length === 0 ? (
                  <li className="muted small">No members: select contacts and “Add to group”.</li>
                ) : null}
              </ul>
            </div>
          ) : null}
        </div>
      </div>
      <ServerAddressBooks />
    </section>
  );
}

function ContactForm({
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
