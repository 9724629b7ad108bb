// The Contacts view: a header (add, import, export), the result of the last change with its Undo,
// and its sections side by side (one column where the window is narrow): the contacts list
// (./ContactsTable.tsx) and the groups (./ContactsGroups.tsx). A further section is one more child
// of `.contacts-sections`.
import { useCallback, useEffect, useState } from 'react';
import type { Contact, Group, ImportResult } from '../../domain/index.ts';
import { api, useEvent } from '../api.ts';
import { download, plural } from '../format.ts';
import type { ComposeDraft } from './compose/Compose.tsx';
import { ImportButtons } from './ContactImport.tsx';
import { ServerAddressBooks } from './ServerAddressBooks.tsx';
import { useDialog } from '../components/Dialog.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import { ContactForm } from './ContactsForm.tsx';
import { ContactsGroups } from './ContactsGroups.tsx';
import { ContactsTable, type BulkActions } from './ContactsTable.tsx';
import { AccountScope } from '../components/AccountScope.tsx';

/** What the last change did, and how to undo it. */
interface Done {
  text: string;
  undo?: () => Promise<unknown>;
  /** Another step offered (merge the duplicates an import skipped). */
  next?: { label: string; run: () => void };
}

export function Contacts({ onCompose }: { onCompose: (d: ComposeDraft) => void }) {
  const [contacts, setContacts] = useState<Contact[]>([]);
  const [groups, setGroups] = useState<Group[]>([]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [group, setGroup] = useState<Group | null>(null);
  const [editing, setEditing] = useState<Contact | 'new' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<Done | null>(null);
  const [country, setCountry] = useState<string | undefined>(undefined);
  const dialog = useDialog();

  const load = useCallback(() => {
    const a = api();
    a.contacts.list().then(setContacts, (e: unknown) => setError(e));
    a.groups.list().then(setGroups, (e: unknown) => setError(e));
  }, []);
  // issue 28: another desk of the office changed the contacts or groups
  useEvent('office:library', load);
  useEffect(() => {
    load();
    api()
      .settings.get()
      .then(
        (s) => setCountry(s.defaultCountry || undefined),
        () => undefined,
      );
  }, [load]);

  const fail = (e: unknown) => setError(e);
  const report = (d: Done) => {
    setError(null);
    setDone(d);
    load();
  };
  const n = (k: number) => `${k.toLocaleString()} contact${k === 1 ? '' : 's'}`;

  const actions: BulkActions = {
    send: (ids) => onCompose({ contactIds: ids }),
    message: (c) => onCompose({ contactIds: [c.id] }),
    edit: (c) => setEditing(c),
    addToGroup: (g, ids) =>
      void (async () => {
        // Only the ones not yet in the group are taken out again by Undo.
        const before = new Set((await api().groups.members(g.id)).map((m) => m.id));
        const added = ids.filter((id) => !before.has(id));
        await api().groups.addMembers({ id: g.id, contactIds: ids });
        setSelected(new Set());
        report({
          text: `Added ${n(added.length)} to “${g.name}”.`,
          undo: () => api().groups.removeMembers({ id: g.id, contactIds: added }),
        });
      })().catch(fail),
    removeFromGroup: (g, ids) =>
      void (async () => {
        const before = new Set((await api().groups.members(g.id)).map((m) => m.id));
        const removed = ids.filter((id) => before.has(id));
        await api().groups.removeMembers({ id: g.id, contactIds: removed });
        setSelected(new Set());
        report({
          text: `Removed ${n(removed.length)} from “${g.name}”.`,
          undo: () => api().groups.addMembers({ id: g.id, contactIds: removed }),
        });
      })().catch(fail),
    deleteMany: (ids) =>
      void dialog
        .confirm({
          title: `Delete ${n(ids.length)}?`,
          message:
            'They leave their groups; their conversations stay. You can undo this until the next change.',
          confirmLabel: 'Delete',
          danger: true,
        })
        .then(async (yes) => {
          if (!yes) return;
          const gone = await api().contacts.deleteMany(ids);
          setSelected(new Set());
          report({ text: `Deleted ${n(gone.length)}.`, undo: () => api().contacts.restore(gone) });
        })
        .catch(fail),
    deleteOne: (c) =>
      void dialog
        .confirm({ title: `Delete ${c.name}?`, confirmLabel: 'Delete', danger: true })
        .then(async (yes) => {
          if (!yes) return;
          const gone = await api().contacts.deleteMany([c.id]);
          setSelected((s) => {
            const next = new Set(s);
            next.delete(c.id);
            return next;
          });
          report({ text: `Deleted ${c.name}.`, undo: () => api().contacts.restore(gone) });
        })
        .catch(fail),
  };

  const showImport = (r: ImportResult, merge: () => Promise<ImportResult>) =>
    report({
      ...(r.duplicates.length
        ? {
            next: {
              label: `Merge the ${plural(r.duplicates.length, 'duplicate')} into the existing contacts`,
              run: () => void merge().then((m) => showImport(m, merge), fail),
            },
          }
        : {}),
      text:
        `Imported: ${r.added.length} added, ${r.updated.length} updated, ${plural(r.duplicates.length, 'duplicate')} skipped, ${r.invalid.length} invalid` +
        (r.invalid.length
          ? ` (${r.invalid
              .slice(0, 5)
              .map((i) => `row ${i.row}: ${i.reason}`)
              .join('; ')})`
          : '') +
        (r.groups?.length
          ? `; groups: ${r.groups.map((g) => `${g.name} (${g.created ? 'new, ' : ''}${g.added} joined)`).join(', ')}`
          : ''),
    });

  return (
    <section className="view contacts" aria-labelledby="contacts-title">
      <div className="row spread wrap view-head">
        <h1 id="contacts-title">Contacts &amp; groups</h1>
        <div className="row wrap">
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            Add contact
          </button>
          <ImportButtons country={country} onDone={showImport} onError={fail} />
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
      <AccountScope scope="desk" what="Contacts and groups" />
      <ErrorText error={error} />
      {done ? (
        <p className="notice row wrap" role="status">
          <span>{done.text}</span>
          {done.undo ? (
            <button
              type="button"
              className="link"
              onClick={() => {
                const undo = done.undo;
                setDone(null);
                void undo?.().then(() => report({ text: 'Undone.' }), fail);
              }}
            >
              Undo
            </button>
          ) : null}
          {done.next ? (
            <button
              type="button"
              className="link"
              onClick={() => {
                const next = done.next;
                setDone(null);
                next?.run();
              }}
            >
              {done.next.label}
            </button>
          ) : null}
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
      <div className="contacts-sections">
        <ContactsTable
          contacts={contacts}
          groups={groups}
          openGroup={group}
          country={country}
          selected={selected}
          setSelected={setSelected}
          actions={actions}
        />
        <ContactsGroups
          groups={groups}
          group={group}
          selected={selected}
          onOpen={setGroup}
          onCreated={(g) => {
            setSelected(new Set());
            load();
            setGroup(g);
          }}
          onChanged={load}
          onCompose={onCompose}
          fail={fail}
        />
      </div>
      <ServerAddressBooks />
    </section>
  );
}
