// Groups of contacts (many-to-many through group_members): create, rename, delete, add and
// remove members, list members. Deleting a group keeps its contacts; deleting a contact removes
// it from every group (ON DELETE CASCADE).
import type { AppDb } from './db.ts';
import { StoreError } from './errors.ts';
import { CONTACT_COLUMNS, rowAs, rowsAs, toContact } from './rows.ts';
import type { ContactRow } from './rows.ts';
import type { Contact, Group } from '../../domain/index.ts';

const NAME_MAX = 100;

interface GroupRow {
  id: number;
  name: string;
  created_at: number;
  member_count: number;
}

const GROUP_SELECT = `SELECT g.id, g.name, g.created_at,
  (SELECT count(*) FROM group_members gm WHERE gm.group_id = g.id) AS member_count FROM groups g`;

function toGroup(row: GroupRow): Group {
  return { id: row.id, name: row.name, createdAt: row.created_at, memberCount: row.member_count };
}

export class GroupsRepo {
  readonly #app: AppDb;

  constructor(app: AppDb) {
    this.#app = app;
  }

  list(): Group[] {
    return rowsAs<GroupRow>(
      this.#app.db.prepare(`${GROUP_SELECT} ORDER BY g.name COLLATE NOCASE, g.id`).all(),
    ).map(toGroup);
  }

  get(id: number): Group | null {
    const row = rowAs<GroupRow>(this.#app.db.prepare(`${GROUP_SELECT} WHERE g.id = ?`).get(id));
    return row ? toGroup(row) : null;
  }

  create(name: string): Group {
    const clean = this.#name(name);
    return this.#app.transaction(() => {
      this.#refuseTaken(clean, null);
      const row = rowAs<{ id: number }>(
        this.#app.db
          .prepare('INSERT INTO groups (name, created_at) VALUES (?, ?) RETURNING id')
          .get(clean, Date.now()),
      );
      if (!row) throw new StoreError('invalid-state', 'the group was not stored');
      return this.#must(row.id);
    });
  }

  rename(id: number, name: string): Group {
    const clean = this.#name(name);
    return this.#app.transaction(() => {
      this.#must(id);
      this.#refuseTaken(clean, id);
      this.#app.db.prepare('UPDATE groups SET name = ? WHERE id = ?').run(clean, id);
      return this.#must(id);
    });
  }

  delete(id: number): void {
    const r = this.#app.db.prepare('DELETE FROM groups WHERE id = ?').run(id);
    if (r.changes === 0) throw new StoreError('not-found', `no group ${id}`);
  }

  /** Add contacts to a group (already a member: no change). Unknown contact ids are refused, nothing added. */
  addMembers(id: number, contactIds: readonly number[]): void {
    this.#app.transaction(() => {
      this.#must(id);
      const exists = this.#app.db.prepare('SELECT 1 FROM contacts WHERE id = ?');
      const unknown = contactIds.filter((c) => !exists.get(c));
      if (unknown.length > 0) throw new StoreError('not-found', `no contact ${unknown.join(', ')}`);
      const insert = this.#app.db.prepare(
        'INSERT OR IGNORE INTO group_members (group_id, contact_id) VALUES (?, ?)',
      );
      for (const c of contactIds) insert.run(id, c);
    });
  }

  removeMembers(id: number, contactIds: readonly number[]): void {
    this.#app.transaction(() => {
      this.#must(id);
      const del = this.#app.db.prepare('DELETE FROM group_members WHERE group_id = ? AND contact_id = ?');
      for (const c of contactIds) del.run(id, c);
    });
  }

  /** The members of a group, by name. */
  members(id: number): Contact[] {
    this.#must(id);
    return rowsAs<ContactRow>(
      this.#app.db
        .prepare(
          `SELECT ${CONTACT_COLUMNS} FROM group_members gm JOIN contacts c ON c.id = gm.contact_id
            WHERE gm.group_id = ? ORDER BY c.name COLLATE NOCASE, c.id`,
        )
        .all(id),
    ).map(toContact);
  }

  /** The groups a contact belongs to. */
  groupsOf(contactId: number): Group[] {
    return rowsAs<GroupRow>(
      this.#app.db
        .prepare(
          `${GROUP_SELECT} WHERE g.id IN (SELECT group_id FROM group_members WHERE contact_id = ?) ORDER BY g.name COLLATE NOCASE`,
        )
        .all(contactId),
    ).map(toGroup);
  }

  #name(name: string): string {
    const clean = name.trim();
    if (clean === '') throw new StoreError('invalid-input', 'a group needs a name');
    if (clean.length > NAME_MAX)
      throw new StoreError('invalid-input', `the group name is longer than ${NAME_MAX} characters`);
    return clean;
  }

  #refuseTaken(name: string, exceptId: number | null): void {
    const row = rowAs<{ id: number }>(this.#app.db.prepare('SELECT id FROM groups WHERE name = ?').get(name));
    if (row && row.id !== exceptId)
      throw new StoreError('duplicate', `a group named "${name}" exists already`);
  }

  #must(id: number): Group {
    const g = this.get(id);
    if (!g) throw new StoreError('not-found', `no group ${id}`);
    return g;
  }
}
