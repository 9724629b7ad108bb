// The groups panel of the Contacts view: create a group (with the selected contacts), open one to
// send to it, rename, delete, and see and remove its members.
import { useEffect, useState, type FormEvent } from 'react';
import type { Contact, Group } from '../../domain/index.ts';
import { api } from '../api.ts';
import { useDialog } from '../components/Dialog.tsx';
import { displayNumber } from '../format.ts';
import type { ComposeDraft } from './compose/Compose.tsx';

/** Members listed in the panel (a group of 5,000 is counted, not listed). */
const MEMBERS_SHOWN = 200;

export function ContactsGroups({
  groups,
  group,
  selected,
  onOpen,
  onCreated,
  onChanged,
  onCompose,
  fail,
}: {
  groups: Group[];
  /** The open group. */
  group: Group | null;
  selected: ReadonlySet<number>;
  onOpen: (g: Group | null) => void;
  onCreated: (g: Group) => void;
  onChanged: () => void;
  onCompose: (d: ComposeDraft) => void;
  fail: (e: unknown) => void;
}) {
  const dialog = useDialog();
  const [members, setMembers] = useState<Contact[]>([]);
  useEffect(() => {
    if (group)
      api()
        .groups.members(group.id)
        .then(setMembers, (e: unknown) => fail(e));
    // The members change with the groups' counts (groups is reloaded after every change).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [group, groups]);

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
        onCreated(g);
      }, fail);
  };

  return (
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
              onClick={() => onOpen(group?.id === g.id ? null : g)}
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
                          .then((g) => (onOpen(g), onChanged()), fail)
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
                          .then(() => (onOpen(null), onChanged()), fail)
                      : undefined,
                  )
              }
            >
              Delete group
            </button>
          </div>
          <ul className="plain">
            {members.slice(0, MEMBERS_SHOWN).map((m) => (
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
                      .then(onChanged, fail)
                  }
                >
                  Remove
                </button>
              </li>
            ))}
            {members.length > MEMBERS_SHOWN ? (
              <li className="muted small">and {members.length - MEMBERS_SHOWN} more</li>
            ) : null}
            {members.length === 0 ? (
              <li className="muted small">No members: select contacts and “Add to group”.</li>
            ) : null}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
