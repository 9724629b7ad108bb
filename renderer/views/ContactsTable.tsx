// The contacts list of the Contacts view: the filter (./ContactsFilter.ts) with "N of M", select all
// (of the filter), shift-click ranges, and the bulk actions on the selection (send, add to a group,
// remove from the open group, delete), each reported with an Undo by the view. Rows are shown a
// page at a time so that 5,000 contacts stay quick; the selection covers the whole filter.
import { useMemo, useRef, useState, type MouseEvent } from 'react';
import type { Contact, Group } from '../../domain/index.ts';
import { displayNumber, plural } from '../format.ts';
import { contactMatcher } from './ContactsFilter.ts';

const SHOWN_STEP = 200;

export interface BulkActions {
  send: (ids: number[]) => void;
  addToGroup: (group: Group, ids: number[]) => void;
  removeFromGroup: (group: Group, ids: number[]) => void;
  deleteMany: (ids: number[]) => void;
  edit: (c: Contact) => void;
  deleteOne: (c: Contact) => void;
  message: (c: Contact) => void;
}

export function ContactsTable({
  contacts,
  groups,
  openGroup,
  country,
  selected,
  setSelected,
  actions,
}: {
  contacts: Contact[];
  groups: Group[];
  /** The group open in the groups panel ("Remove from" acts on it). */
  openGroup: Group | null;
  country: string | undefined;
  selected: ReadonlySet<number>;
  setSelected: (s: Set<number>) => void;
  actions: BulkActions;
}) {
  const [filter, setFilter] = useState('');
  const [limit, setLimit] = useState(SHOWN_STEP);
  const anchor = useRef<number | null>(null);
  const shown = useMemo(() => contacts.filter(contactMatcher(filter, country)), [contacts, filter, country]);
  const page = shown.slice(0, limit);
  const selectedShown = useMemo(() => shown.filter((c) => selected.has(c.id)).length, [shown, selected]);
  const allShown = shown.length > 0 && selectedShown === shown.length;

  const click = (index: number, e: MouseEvent<HTMLInputElement>) => {
    const c = shown[index];
    if (!c) return;
    const on = !selected.has(c.id);
    const next = new Set(selected);
    // Shift-click: the range from the last clicked row takes the clicked row's new state.
    const from = e.shiftKey && anchor.current !== null ? Math.min(anchor.current, index) : index;
    const to = e.shiftKey && anchor.current !== null ? Math.max(anchor.current, index) : index;
    for (let i = from; i <= to; i++) {
      const id = shown[i]?.id;
      if (id === undefined) continue;
      if (on) next.add(id);
      else next.delete(id);
    }
    anchor.current = index;
    setSelected(next);
  };
  const selectAll = (on: boolean) => {
    const next = new Set(selected);
    for (const c of shown) {
      if (on) next.add(c.id);
      else next.delete(c.id);
    }
    setSelected(next);
  };
  const ids = [...selected];

  return (
    <div className="panel contacts-list">
      <div className="row spread wrap">
        <input
          type="search"
          aria-label="Filter contacts"
          placeholder="Filter by name or number"
          value={filter}
          onChange={(e) => {
            setFilter(e.target.value);
            setLimit(SHOWN_STEP);
            anchor.current = null;
          }}
        />
        <span className="muted small" data-testid="contact-count">
          {filter.trim()
            ? `${shown.length.toLocaleString()} of ${plural(contacts.length, 'contact')}`
            : plural(contacts.length, 'contact')}
          {selected.size ? `, ${selected.size.toLocaleString()} selected` : ''}
        </span>
      </div>
      {selected.size ? (
        <div className="row wrap bulk-bar" role="toolbar" aria-label="Selected contacts">
          {!allShown && shown.length > selectedShown ? (
            <button type="button" className="link" onClick={() => selectAll(true)}>
              Select all {shown.length}
            </button>
          ) : null}
          <button type="button" className="link" onClick={() => setSelected(new Set())}>
            Clear selection
          </button>
          <button type="button" onClick={() => actions.send(ids)}>
            Send to selected
          </button>
          <select
            aria-label="Add the selected to a group"
            value=""
            onChange={(e) => {
              const g = groups.find((x) => x.id === Number(e.target.value));
              if (g) actions.addToGroup(g, ids);
            }}
          >
            <option value="">Add to group…</option>
            {groups.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
          {openGroup ? (
            <button type="button" onClick={() => actions.removeFromGroup(openGroup, ids)}>
              Remove from “{openGroup.name}”
            </button>
          ) : null}
          <button type="button" className="danger" onClick={() => actions.deleteMany(ids)}>
            Delete {selected.size}
          </button>
        </div>
      ) : null}
      <table className="table contacts-table" aria-label="Contacts">
        <thead>
          <tr>
            <th className="check-cell">
              <input
                type="checkbox"
                aria-label={filter.trim() ? `Select all ${shown.length} matching` : 'Select all'}
                checked={allShown}
                ref={(el) => {
                  if (el) el.indeterminate = selectedShown > 0 && !allShown;
                }}
                onChange={(e) => selectAll(e.target.checked)}
              />
            </th>
            <th>Name</th>
            <th>Number</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {page.map((c, i) => (
            <tr key={c.id} className={selected.has(c.id) ? 'selected' : undefined}>
              <td className="check-cell">
                <input
                  type="checkbox"
                  aria-label={`Select ${c.name}`}
                  checked={selected.has(c.id)}
                  onClick={(e) => click(i, e)}
                  onChange={() => undefined}
                />
              </td>
              <td className="name-cell">{c.name}</td>
              <td className="number-cell">{displayNumber(c.number)}</td>
              <td className="actions">
                <button type="button" className="link" onClick={() => actions.message(c)}>
                  Message
                </button>
                <button type="button" className="link" onClick={() => actions.edit(c)}>
                  Edit
                </button>
                <button type="button" className="link danger" onClick={() => actions.deleteOne(c)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length > page.length ? (
        <button type="button" className="link" onClick={() => setLimit((l) => l + SHOWN_STEP * 5)}>
          Show more ({shown.length - page.length} not shown)
        </button>
      ) : null}
      {shown.length === 0 && contacts.length > 0 ? <p className="muted">No contact matches.</p> : null}
    </div>
  );
}
