// Issue 28: the desk's side of the shared library (contacts, groups and their members, templates,
// keyword auto-reply rules; share-library.ts for the office database's side, docs/OFFICE.md).
//
// Which records changed is noticed by TEMP triggers this module creates on the store's own
// connection when office mode starts: they exist only in office mode (a desk of its own runs no
// trigger, writes no queue, and is not slowed), they run inside the transaction of the change
// itself (whatever repository operation made it: an edit, a CSV import, a bulk delete and its
// undo, a cascade), and they name the record by its natural key in `office_library_queue`
// (migration 049). What is written to the office database is the record as it is when written.
// Changes that come from the office database are applied with the triggers silenced
// (temp.office_applying), so they are not echoed back.
import type { StatementSync } from 'node:sqlite';
import type { AppDb } from '../store/db.ts';
import { rowAs, rowsAs } from '../store/rows.ts';

export type LibraryKind = 'contact' | 'group' | 'member' | 'template' | 'rule';

/** The scope of what every desk of the office shares (a rule's scope is its account). */
export const OFFICE_SCOPE = 'office';

/** A record as the office database keeps it: null data once deleted. */
export interface LibraryRecord {
  scope: string;
  kind: LibraryKind;
  key: string;
  data: Record<string, unknown> | null;
}

export interface QueuedRecord extends LibraryRecord {
  seq: number;
  /** 'join': written only where the office database has no such record (a desk joining). */
  mode: 'set' | 'join';
}

const Q = 'INSERT OR REPLACE INTO main.office_library_queue (scope, kind, key)';
const QUIET = 'WHEN NOT EXISTS (SELECT 1 FROM temp.office_applying)';
const MEMBERS_OF_CONTACT = (id: string, number: string) =>
  `${Q} SELECT 'office', 'member', lower(g.name) || char(10) || ${number}
     FROM main.group_members gm JOIN main.groups g ON g.id = gm.group_id WHERE gm.contact_id = ${id};`;
const MEMBERS_OF_GROUP = (id: string, name: string) =>
  `${Q} SELECT 'office', 'member', lower(${name}) || char(10) || c.number
     FROM main.group_members gm JOIN main.contacts c ON c.id = gm.contact_id WHERE gm.group_id = ${id};`;
// a rule by its uid (migration 054): a keyword changed is the same record, its per-day log kept
const RULE_KEY = (r: string) => `'a:' || ${r}.account_id, 'rule', ${r}.uid`;

/** The TEMP triggers (this connection only, gone when it closes). */
const TRIGGERS = `
CREATE TEMP TABLE IF NOT EXISTS office_applying (x INTEGER);
CREATE TEMP TRIGGER IF NOT EXISTS office_contact_ai AFTER INSERT ON main.contacts ${QUIET} BEGIN
  ${Q} VALUES ('office', 'contact', NEW.number); END;
CREATE TEMP TRIGGER IF NOT EXISTS office_contact_au AFTER UPDATE ON main.contacts ${QUIET} BEGIN
  ${Q} VALUES ('office', 'contact', NEW.number);
  ${Q} SELECT 'office', 'contact', OLD.number WHERE OLD.number <> NEW.number;
  ${MEMBERS_OF_CONTACT('NEW.id', 'OLD.number').replace(';', ' AND OLD.number <> NEW.number;')}
  ${MEMBERS_OF_CONTACT('NEW.id', 'NEW.number').replace(';', ' AND OLD.number <> NEW.number;')} END;
CREATE TEMP TRIGGER IF NOT EXISTS office_contact_bd BEFORE DELETE ON main.contacts ${QUIET} BEGIN
  ${MEMBERS_OF_CONTACT('OLD.id', 'OLD.number')} END;
CREATE TEMP TRIGGER IF NOT EXISTS office_contact_ad AFTER DELETE ON main.contacts ${QUIET} BEGIN
  ${Q} VALUES ('office', 'contact', OLD.number); END;
CREATE TEMP TRIGGER IF NOT EXISTS office_group_ai AFTER INSERT ON main.groups ${QUIET} BEGIN
  ${Q} VALUES ('office', 'group', lower(NEW.name)); END;
CREATE TEMP TRIGGER IF NOT EXISTS office_group_au AFTER UPDATE ON main.groups ${QUIET} BEGIN
  ${Q} VALUES ('office', 'group', lower(NEW.name));
  ${Q} SELECT 'office', 'group', lower(OLD.name) WHERE lower(OLD.name) <> lower(NEW.name);
  ${MEMBERS_OF_GROUP('NEW.id', 'OLD.name').replace(';', ' AND lower(OLD.name) <> lower(NEW.name);')}
  ${MEMBERS_OF_GROUP('NEW.id', 'NEW.name').replace(';', ' AND lower(OLD.name) <> lower(NEW.name);')} END;
CREATE TEMP TRIGGER IF NOT EXISTS office_group_bd BEFORE DELETE ON main.groups ${QUIET} BEGIN
  ${MEMBERS_OF_GROUP('OLD.id', 'OLD.name')} END;
CREATE TEMP TRIGGER IF NOT EXISTS office_group_ad AFTER DELETE ON main.groups ${QUIET} BEGIN
  ${Q} VALUES ('office', 'group', lower(OLD.name)); END;
CREATE TEMP TRIGGER IF NOT EXISTS office_member_ai AFTER INSERT ON main.group_members ${QUIET} BEGIN
  ${Q} SELECT 'office', 'member', lower(g.name) || char(10) || c.number FROM main.groups g, main.contacts c
    WHERE g.id = NEW.group_id AND c.id = NEW.contact_id; END;
CREATE TEMP TRIGGER IF NOT EXISTS office_member_ad AFTER DELETE ON main.group_members ${QUIET} BEGIN
  ${Q} SELECT 'office', 'member', lower(g.name) || char(10) || c.number FROM main.groups g, main.contacts c
    WHERE g.id = OLD.group_id AND c.id = OLD.contact_id; END;
CREATE TEMP TRIGGER IF NOT EXISTS office_template_ai AFTER INSERT ON main.templates ${QUIET} BEGIN
  ${Q} VALUES ('office', 'template', lower(NEW.name)); END;
CREATE TEMP TRIGGER IF NOT EXISTS office_template_au AFTER UPDATE ON main.templates ${QUIET} BEGIN
  ${Q} VALUES ('office', 'template', lower(NEW.name));
  ${Q} SELECT 'office', 'template', lower(OLD.name) WHERE lower(OLD.name) <> lower(NEW.name); END;
CREATE TEMP TRIGGER IF NOT EXISTS office_template_ad AFTER DELETE ON main.templates ${QUIET} BEGIN
  ${Q} VALUES ('office', 'template', lower(OLD.name)); END;
CREATE TEMP TRIGGER IF NOT EXISTS office_rule_ai AFTER INSERT ON main.auto_reply_rules ${QUIET} BEGIN
  ${Q} VALUES (${RULE_KEY('NEW')}); END;
CREATE TEMP TRIGGER IF NOT EXISTS office_rule_au AFTER UPDATE ON main.auto_reply_rules ${QUIET} BEGIN
  ${Q} VALUES (${RULE_KEY('NEW')});
  ${Q} SELECT ${RULE_KEY('OLD')} WHERE OLD.uid IS NOT NEW.uid; END;
CREATE TEMP TRIGGER IF NOT EXISTS office_library_queued AFTER INSERT ON main.office_library_queue BEGIN
  SELECT office_library_queued(); END;
CREATE TEMP TRIGGER IF NOT EXISTS office_rule_ad AFTER DELETE ON main.auto_reply_rules ${QUIET} BEGIN
  ${Q} VALUES (${RULE_KEY('OLD')}); END;
`;

/** The fields of a shared record (those of its kind). */
interface Shared {
  name: string;
  numberTyped: string;
  email: string;
  notes: string;
  text: string;
  createdAt: number;
  keyword: string;
  reply: string;
  enabled: boolean;
}

/** A member's key: its group's key and its contact's number. */
const splitMember = (key: string): [string, string] => {
  const i = key.indexOf('\n');
  return [key.slice(0, i), key.slice(i + 1)];
};

export class LibraryLocal {
  readonly #app: AppDb;
  readonly #read: Record<LibraryKind, StatementSync>;
  readonly #apply: Record<string, StatementSync>;
  readonly #queued: StatementSync;

  /** `queued`: called when a change is queued (inside its transaction: write it once that commits). */
  constructor(app: AppDb, queued: () => void) {
    this.#app = app;
    const db = app.db;
    db.function('office_library_queued', { deterministic: false, varargs: false }, () => {
      queued();
      return null;
    });
    db.exec(TRIGGERS);
    this.#read = {
      contact: db.prepare(
        'SELECT name, number_typed AS numberTyped, email, notes, created_at AS createdAt FROM contacts WHERE number = ?',
      ),
      group: db.prepare('SELECT name, created_at AS createdAt FROM groups WHERE name = ?'),
      member: db.prepare(
        `SELECT 1 AS member FROM group_members gm JOIN groups g ON g.id = gm.group_id
          JOIN contacts c ON c.id = gm.contact_id WHERE g.name = ? AND c.number = ?`,
      ),
      template: db.prepare('SELECT name, text, created_at AS createdAt FROM templates WHERE name = ?'),
      rule: db.prepare(
        'SELECT keyword, reply, enabled FROM auto_reply_rules WHERE account_id = ? AND uid = ?',
      ),
    };
    this.#apply = {
      contact: db.prepare(
        `INSERT INTO contacts (name, number, number_typed, email, notes, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (number) DO UPDATE SET name = excluded.name,
           number_typed = excluded.number_typed, email = excluded.email, notes = excluded.notes,
           updated_at = excluded.updated_at`,
      ),
      contactGone: db.prepare('DELETE FROM contacts WHERE number = ?'),
      group: db.prepare(
        'INSERT INTO groups (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET name = excluded.name',
      ),
      groupGone: db.prepare('DELETE FROM groups WHERE name = ?'),
      member: db.prepare(
        `INSERT OR IGNORE INTO group_members (group_id, contact_id)
         SELECT g.id, c.id FROM groups g, contacts c WHERE g.name = ? AND c.number = ?`,
      ),
      // the group and the contact a membership names (null: not here yet)
      memberParts: db.prepare(
        'SELECT (SELECT id FROM groups WHERE name = ?) AS g, (SELECT id FROM contacts WHERE number = ?) AS c',
      ),
      wait: db.prepare('INSERT OR IGNORE INTO office_library_waiting (group_key, number) VALUES (?, ?)'),
      waitGone: db.prepare('DELETE FROM office_library_waiting WHERE group_key = ? AND number = ?'),
      memberGone: db.prepare(
        `DELETE FROM group_members WHERE group_id = (SELECT id FROM groups WHERE name = ?)
           AND contact_id = (SELECT id FROM contacts WHERE number = ?)`,
      ),
      template: db.prepare(
        `INSERT INTO templates (name, text, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET name = excluded.name, text = excluded.text, updated_at = excluded.updated_at`,
      ),
      templateGone: db.prepare('DELETE FROM templates WHERE name = ?'),
      rule: db.prepare(
        'UPDATE auto_reply_rules SET keyword = ?, reply = ?, enabled = ? WHERE account_id = ? AND uid = ?',
      ),
      // a rule of this desk the office database did not take when it joined (it had one of that
      // keyword already, share-library.ts): becomes the office's rule, its id and log kept
      ruleAdopt: db.prepare(
        `UPDATE auto_reply_rules SET uid = ?, keyword = ?, reply = ?, enabled = ?
          WHERE id = (SELECT id FROM auto_reply_rules WHERE account_id = ? AND upper(trim(keyword)) = upper(trim(?))
                         AND uid IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT 1)`,
      ),
      ruleNew: db.prepare(
        'INSERT INTO auto_reply_rules (account_id, keyword, reply, enabled, created_at, uid) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      ruleGone: db.prepare('DELETE FROM auto_reply_rules WHERE account_id = ? AND uid = ?'),
    };
    this.#queued = db.prepare(
      'SELECT 1 AS n FROM office_library_queue WHERE scope = ? AND kind = ? AND key = ?',
    );
  }

  /** Memberships waiting for their group or contact made, once both are here (inside apply). */
  #joinWaiting(): void {
    const db = this.#app.db;
    if (db.prepare('SELECT 1 AS n FROM office_library_waiting LIMIT 1').get() === undefined) return;
    db.exec(`INSERT OR IGNORE INTO group_members (group_id, contact_id)
      SELECT g.id, c.id FROM office_library_waiting w JOIN groups g ON g.name = w.group_key
        JOIN contacts c ON c.number = w.number;
      DELETE FROM office_library_waiting
       WHERE EXISTS (SELECT 1 FROM groups g WHERE g.name = office_library_waiting.group_key)
         AND EXISTS (SELECT 1 FROM contacts c WHERE c.number = office_library_waiting.number);`);
  }

  pendingCount(): number {
    return (
      rowAs<{ n: number }>(this.#app.db.prepare('SELECT count(*) AS n FROM office_library_queue').get())?.n ??
      0
    );
  }

  /**
   * Queues every record this desk holds, to be written where the office database has none (a desk
   * joining an office: its contacts merge with the office's by number, its groups and templates by
   * name; where both have one, the office's stays). A record queued already keeps its place.
   */
  queueJoin(scope: 'office' | { accountId: string }): void {
    const db = this.#app.db;
    const ins = `INSERT OR IGNORE INTO office_library_queue (scope, kind, key, mode)`;
    this.#app.transaction(() => {
      if (scope === OFFICE_SCOPE) {
        db.exec(`${ins} SELECT 'office', 'contact', number, 'join' FROM contacts ORDER BY id;
          ${ins} SELECT 'office', 'group', lower(name), 'join' FROM groups ORDER BY id;
          ${ins} SELECT 'office', 'member', lower(g.name) || char(10) || c.number, 'join'
            FROM group_members gm JOIN groups g ON g.id = gm.group_id JOIN contacts c ON c.id = gm.contact_id;
          ${ins} SELECT 'office', 'template', lower(name), 'join' FROM templates ORDER BY id;`);
      } else {
        db.prepare(
          `${ins} SELECT 'a:' || account_id, 'rule', uid, 'join' FROM auto_reply_rules
            WHERE account_id = ? ORDER BY id`,
        ).run(scope.accountId);
      }
    });
  }

  /** The oldest queued records as they are now (null data: deleted here). */
  pending(limit: number): QueuedRecord[] {
    const rows = rowsAs<{ seq: number; scope: string; kind: LibraryKind; key: string; mode: 'set' | 'join' }>(
      this.#app.db
        .prepare('SELECT seq, scope, kind, key, mode FROM office_library_queue ORDER BY seq LIMIT ?')
        .all(limit),
    );
    return rows.map((r) => ({ ...r, data: this.#state(r.scope, r.kind, r.key) }));
  }

  #state(scope: string, kind: LibraryKind, key: string): Record<string, unknown> | null {
    const args =
      kind === 'member' ? splitMember(key) : kind === 'rule' ? [scope.slice(2), key] : ([key] as const);
    const row = rowAs<Record<string, unknown>>(this.#read[kind].get(...args));
    if (row === undefined) return null;
    if (kind === 'rule') return { ...row, enabled: row.enabled === 1 };
    return kind === 'member' ? {} : { ...row };
  }

  /** Drops the queued records written, unless changed again since (a new seq). */
  done(seqs: readonly number[]): void {
    const del = this.#app.db.prepare('DELETE FROM office_library_queue WHERE seq = ?');
    this.#app.transaction(() => {
      for (const s of seqs) del.run(s);
    });
  }

  /**
   * Applies records from the office database (one transaction, the triggers silenced). A record
   * changed here and not written yet is left as it is here: it is written next and then is the
   * office's latest. `localScope`: the local scope of the records' account ('a:' + id) for rules;
   * `adoptable`: uids of this desk's rules the office database did not take when it joined (one of
   * the office's of the same keyword becomes that rule). Returns the kinds changed.
   */
  apply(
    records: readonly LibraryRecord[],
    localScope: string,
    cursor: () => void,
    adoptable: ReadonlySet<string> = new Set(),
  ): Set<LibraryKind> {
    const changed = new Set<LibraryKind>();
    const db = this.#app.db;
    const a = this.#apply;
    this.#app.transaction(() => {
      db.exec('INSERT INTO temp.office_applying VALUES (1)');
      const now = Date.now();
      for (const r of records) {
        if (this.#queued.get(localScope, r.kind, r.key) !== undefined) continue;
        const d = r.data as Shared | null;
        switch (r.kind) {
          case 'contact':
            if (d) a.contact!.run(d.name, r.key, d.numberTyped, d.email, d.notes, d.createdAt, now);
            else a.contactGone!.run(r.key);
            break;
          case 'group':
            if (d) a.group!.run(d.name, d.createdAt);
            else a.groupGone!.run(r.key);
            break;
          case 'member': {
            const [g, n] = splitMember(r.key);
            a.waitGone!.run(g, n);
            if (!d) a.memberGone!.run(g, n);
            else if (a.member!.run(g, n).changes === 0) {
              const parts = rowAs<{ g: number | null; c: number | null }>(a.memberParts!.get(g, n));
              if (parts === undefined || parts.g === null || parts.c === null) a.wait!.run(g, n);
            }
            break;
          }
          case 'template':
            if (d) a.template!.run(d.name, d.text, d.createdAt, now);
            else a.templateGone!.run(r.key);
            break;
          case 'rule': {
            const account = localScope.slice(2);
            const on = d?.enabled ? 1 : 0;
            const adopt = (): boolean =>
              adoptable.size > 0 &&
              Number(
                a.ruleAdopt!.run(
                  r.key,
                  d!.keyword,
                  d!.reply,
                  on,
                  account,
                  d!.keyword,
                  JSON.stringify([...adoptable]),
                ).changes,
              ) > 0;
            if (!d) a.ruleGone!.run(account, r.key);
            else if (Number(a.rule!.run(d.keyword, d.reply, on, account, r.key).changes) === 0 && !adopt())
              a.ruleNew!.run(account, d.keyword, d.reply, on, now, r.key);
            break;
          }
        }
        changed.add(r.kind);
      }
      this.#joinWaiting();
      cursor();
      db.exec('DELETE FROM temp.office_applying');
    });
    return changed;
  }
}
