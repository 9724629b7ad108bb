// Contacts: add, edit, delete, duplicate detection by normalised number (protocol/msisdn.ts),
// import from CSV with a column mapping (papaparse) and from vCard 2.1/3.0/4.0 (ical.js), and
// export to CSV. A contact's number is stored normalised (unique: two contacts never share a
// number) and as typed, so the user sees what they entered.
import Papa from 'papaparse';
import { normalizeMsisdn } from '../../protocol/msisdn.ts';
import type { AppDb } from './db.ts';
import { DuplicateContactError, StoreError } from './errors.ts';
import { CONTACT_COLUMNS, rowAs, rowsAs, toContact } from './rows.ts';
import type { ContactRow } from './rows.ts';
import { parseVcards } from './vcard-import.ts';
import type {
  Contact,
  ContactInput,
  CsvColumnMapping,
  DeletedContact,
  ImportOptions,
  ImportResult,
} from '../../domain/index.ts';

export const CONTACT_CSV_FIELDS = ['Name', 'Number', 'Email', 'Notes'] as const;
const NAME_MAX = 200;
const NOTES_MAX = 10_000;

interface CleanContact {
  name: string;
  number: string;
  numberTyped: string;
  email: string;
  notes: string;
}

export class ContactsRepo {
  readonly #app: AppDb;
  readonly #defaultCountry: string | undefined;

  constructor(app: AppDb, options: { defaultCountry?: string } = {}) {
    this.#app = app;
    this.#defaultCountry = options.defaultCountry;
  }

  list(): Contact[] {
    return rowsAs<ContactRow>(
      this.#app.db
        .prepare(`SELECT ${CONTACT_COLUMNS} FROM contacts c ORDER BY c.name COLLATE NOCASE, c.id`)
        .all(),
    ).map(toContact);
  }

  get(id: number): Contact | null {
    const row = rowAs<ContactRow>(
      this.#app.db.prepare(`SELECT ${CONTACT_COLUMNS} FROM contacts c WHERE c.id = ?`).get(id),
    );
    return row ? toContact(row) : null;
  }

  /** The contact whose normalised number equals `number` once normalised. */
  byNumber(number: string, defaultCountry?: string): Contact | null {
    const n = normalizeMsisdn(number, defaultCountry ?? this.#defaultCountry);
    if (!n.ok) return null;
    const row = rowAs<ContactRow>(
      this.#app.db.prepare(`SELECT ${CONTACT_COLUMNS} FROM contacts c WHERE c.number = ?`).get(n.msisdn),
    );
    return row ? toContact(row) : null;
  }

  /** The contacts of these normalised numbers (one query, however many numbers), by number. */
  byMsisdns(msisdns: readonly string[]): Map<string, Contact> {
    const rows = rowsAs<ContactRow>(
      this.#app.db
        .prepare(
          `SELECT ${CONTACT_COLUMNS} FROM contacts c WHERE c.number IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify(msisdns)),
    );
    return new Map(
      rows.map((r) => {
        const c = toContact(r);
        return [c.number, c] as const;
      }),
    );
  }

  /** Contacts that already have this number, however it is written ('+44 7700 900123', '07700900123', …). */
  findDuplicates(number: string, defaultCountry?: string): Contact[] {
    const c = this.byNumber(number, defaultCountry);
    return c ? [c] : [];
  }

  /** Add a contact; throws StoreError 'invalid-number' or DuplicateContactError. */
  add(input: ContactInput, options: { defaultCountry?: string } = {}): Contact {
    const clean = this.#clean(input, options.defaultCountry);
    return this.#app.transaction(() => {
      this.#refuseDuplicate(clean.number, null);
      const now = Date.now();
      const row = rowAs<{ id: number }>(
        this.#app.db
          .prepare(
            `INSERT INTO contacts (name, number, number_typed, email, notes, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
          )
          .get(clean.name, clean.number, clean.numberTyped, clean.email, clean.notes, now, now),
      );
      if (!row) throw new StoreError('invalid-state', 'the contact was not stored');
      return this.#must(row.id);
    });
  }

  /** Change some fields of a contact; a new number is normalised and checked for duplicates. */
  edit(id: number, changes: Partial<ContactInput>, options: { defaultCountry?: string } = {}): Contact {
    return this.#app.transaction(() => {
      const current = this.#must(id);
      const clean = this.#clean(
        {
          name: changes.name ?? current.name,
          number: changes.number ?? current.numberTyped,
          email: changes.email ?? current.email,
          notes: changes.notes ?? current.notes,
        },
        options.defaultCountry,
      );
      this.#refuseDuplicate(clean.number, id);
      this.#app.db
        .prepare(
          'UPDATE contacts SET name = ?, number = ?, number_typed = ?, email = ?, notes = ?, updated_at = ? WHERE id = ?',
        )
        .run(clean.name, clean.number, clean.numberTyped, clean.email, clean.notes, Date.now(), id);
      return this.#must(id);
    });
  }

  /** Delete a contact (it leaves every group; its conversation stays, shown by number). */
  delete(id: number): void {
    const r = this.#app.db.prepare('DELETE FROM contacts WHERE id = ?').run(id);
    if (r.changes === 0) throw new StoreError('not-found', `no contact ${id}`);
  }

  /**
   * Import rows of a CSV file (first line: column names) through a mapping of columns to
   * fields. Every row is checked: invalid numbers and duplicates (of stored contacts or of an
   * earlier row) are reported by row number, never silently dropped. One transaction: a failure
   * imports nothing.
   */
  importCsv(csv: string, mapping: CsvColumnMapping, options: ImportOptions = {}): ImportResult {
    const parsed = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: 'greedy',
      transformHeader: (h) => h.trim(),
    });
    const headers = parsed.meta.fields ?? [];
    const wanted = [
      mapping.number,
      ...[mapping.name ?? []].flat(),
      mapping.email,
      mapping.notes,
      mapping.groups,
    ].filter((c): c is string => c !== undefined);
    const missing = wanted.filter((c) => !headers.includes(c));
    if (missing.length > 0) {
      throw new StoreError(
        'invalid-input',
        `the CSV has no column ${missing.map((m) => `"${m}"`).join(', ')} (its columns: ${headers.join(', ')})`,
      );
    }
    const cell = (row: Record<string, string>, col: string | undefined): string =>
      col === undefined ? '' : (row[col] ?? '').trim();
    const entries = parsed.data.map((row) => ({
      name: [mapping.name ?? []]
        .flat()
        .map((c) => cell(row, c))
        .filter((v) => v !== '')
        .join(' '),
      number: cell(row, mapping.number),
      email: cell(row, mapping.email),
      notes: cell(row, mapping.notes),
    }));
    // A Group column: names separated by ; or |, each group created when it does not exist yet.
    const groups = parsed.data.map((row) =>
      cell(row, mapping.groups)
        .split(/[;|]/)
        .map((g) => g.trim())
        .filter((g) => g !== ''),
    );
    return this.#importEntries(entries, options, groups);
  }

  /** Import every vCard (2.1, 3.0 or 4.0) of `text`; a card without a telephone number is reported invalid. */
  importVcard(text: string, options: ImportOptions = {}): ImportResult {
    let cards;
    try {
      cards = parseVcards(text);
    } catch (err) {
      throw new StoreError('invalid-input', `not a readable vCard file: ${(err as Error).message}`);
    }
    if (cards.length === 0)
      throw new StoreError('invalid-input', 'no vCard (BEGIN:VCARD … END:VCARD) in this file');
    return this.#importEntries(
      cards.map((c) => ({ name: c.name, number: c.number ?? '', email: c.email, notes: c.notes })),
      options,
    );
  }

  /** Every contact as CSV (Name, Number, Email, Notes), readable by importCsv with the same names. */
  exportCsv(): string {
    const data = this.list().map((c) => [c.name, c.number, c.email, c.notes]);
    // escapeFormulae: a name starting with = + - @ must not run as a formula in a spreadsheet.
    return `${Papa.unparse({ fields: [...CONTACT_CSV_FIELDS], data }, { escapeFormulae: true, newline: '\r\n' })}\r\n`;
  }

  #importEntries(entries: ContactInput[], options: ImportOptions, groupsOf: string[][] = []): ImportResult {
    const result: ImportResult = { added: [], updated: [], duplicates: [], invalid: [] };
    // Group name (as first written) → the contacts of the file that name it.
    const members = new Map<string, { name: string; ids: Set<number> }>();
    const join = (row: number, contactId: number) => {
      for (const g of groupsOf[row - 1] ?? []) {
        const key = g.toLowerCase();
        const entry = members.get(key) ?? { name: g, ids: new Set<number>() };
        entry.ids.add(contactId);
        members.set(key, entry);
      }
    };
    const policy = options.onDuplicate ?? 'skip';
    this.#app.transaction(() => {
      const seenInFile = new Map<string, number>();
      entries.forEach((entry, i) => {
        const row = i + 1;
        let clean: CleanContact;
        try {
          clean = this.#clean(
            entry.name === '' ? { ...entry, name: entry.number } : entry,
            options.defaultCountry,
          );
        } catch (err) {
          result.invalid.push({ row, input: entry.number, reason: (err as Error).message });
          return;
        }
        const existing = this.#byNormalised(clean.number);
        if (existing && (policy === 'skip' || seenInFile.has(clean.number))) {
          result.duplicates.push({ row, number: clean.number, existing });
          join(row, existing.id);
          return;
        }
        seenInFile.set(clean.number, row);
        if (existing) {
          const updated = this.edit(
            existing.id,
            {
              name: clean.name,
              number: clean.numberTyped,
              email: clean.email || existing.email,
              notes: clean.notes || existing.notes,
            },
            options,
          );
          result.updated.push(updated);
          join(row, updated.id);
        } else {
          const added = this.add(entry.name === '' ? { ...entry, name: entry.number } : entry, options);
          result.added.push(added);
          join(row, added.id);
        }
      });
      if (members.size > 0) result.groups = this.#joinGroups([...members.values()]);
    });
    return result;
  }

  /** Put contacts into groups by name (case ignored), creating the groups that do not exist. */
  #joinGroups(wanted: Array<{ name: string; ids: Set<number> }>): NonNullable<ImportResult['groups']> {
    const db = this.#app.db;
    const find = db.prepare('SELECT id FROM groups WHERE name = ?');
    const create = db.prepare('INSERT INTO groups (name, created_at) VALUES (?, ?) RETURNING id');
    const insert = db.prepare('INSERT OR IGNORE INTO group_members (group_id, contact_id) VALUES (?, ?)');
    return wanted.map(({ name, ids }) => {
      const found = rowAs<{ id: number }>(find.get(name));
      const id = found?.id ?? rowAs<{ id: number }>(create.get(name.slice(0, NAME_MAX), Date.now()))?.id;
      if (id === undefined) throw new StoreError('invalid-state', `the group ${name} was not stored`);
      let added = 0;
      for (const c of ids) added += Number(insert.run(id, c).changes);
      return { id, name, created: !found, added };
    });
  }

  /**
   * Delete several contacts at once; returns what `restore` needs to undo it (each contact with
   * the groups it was in). Unknown ids are ignored.
   */
  deleteMany(ids: readonly number[]): DeletedContact[] {
    return this.#app.transaction(() => {
      const groupsOf = this.#app.db.prepare('SELECT group_id FROM group_members WHERE contact_id = ?');
      const del = this.#app.db.prepare('DELETE FROM contacts WHERE id = ?');
      const out: DeletedContact[] = [];
      for (const id of new Set(ids)) {
        const contact = this.get(id);
        if (!contact) continue;
        const groupIds = rowsAs<{ group_id: number }>(groupsOf.all(id)).map((r) => r.group_id);
        del.run(id);
        out.push({ contact, groupIds });
      }
      return out;
    });
  }

  /**
   * Undo of deleteMany: the contacts come back with their fields and groups (and their ids where still free) (a group deleted
   * since is left out). A number that another contact took since is skipped; the count restored.
   */
  restore(deleted: readonly DeletedContact[]): number {
    return this.#app.transaction(() => {
      const db = this.#app.db;
      // The old id when it is still free (SQLite may have given it to a newer contact), else a new one.
      const insert = db.prepare(
        `INSERT OR IGNORE INTO contacts (id, name, number, number_typed, email, notes, created_at, updated_at)
         VALUES ((SELECT CASE WHEN EXISTS (SELECT 1 FROM contacts WHERE id = ?1) THEN NULL ELSE ?1 END),
                 ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id`,
      );
      const member = db.prepare(
        'INSERT OR IGNORE INTO group_members (group_id, contact_id) SELECT id, ? FROM groups WHERE id = ?',
      );
      let restored = 0;
      for (const { contact: c, groupIds } of deleted) {
        const row = rowAs<{ id: number }>(
          insert.get(c.id, c.name, c.number, c.numberTyped, c.email, c.notes, c.createdAt, Date.now()),
        );
        if (!row) continue;
        restored++;
        for (const g of groupIds) member.run(row.id, g);
      }
      return restored;
    });
  }

  /** Validate and normalise an input (throws StoreError with a readable reason). */
  #clean(input: ContactInput, defaultCountry?: string): CleanContact {
    const name = input.name.trim();
    if (name === '') throw new StoreError('invalid-input', 'a contact needs a name');
    if (name.length > NAME_MAX)
      throw new StoreError('invalid-input', `the name is longer than ${NAME_MAX} characters`);
    const notes = (input.notes ?? '').trim();
    if (notes.length > NOTES_MAX)
      throw new StoreError('invalid-input', `the notes are longer than ${NOTES_MAX} characters`);
    const email = (input.email ?? '').trim();
    if (email !== '' && !/^[^\s@]+@[^\s@]+$/.test(email)) {
      throw new StoreError('invalid-input', `"${email}" is not an e-mail address`);
    }
    const n = normalizeMsisdn(input.number, defaultCountry ?? this.#defaultCountry);
    if (!n.ok) throw new StoreError('invalid-number', `"${input.number}" is not a valid number: ${n.reason}`);
    return { name, number: n.msisdn, numberTyped: input.number.trim(), email, notes };
  }

  #byNormalised(number: string): Contact | null {
    const row = rowAs<ContactRow>(
      this.#app.db.prepare(`SELECT ${CONTACT_COLUMNS} FROM contacts c WHERE c.number = ?`).get(number),
    );
    return row ? toContact(row) : null;
  }

  #refuseDuplicate(number: string, exceptId: number | null): void {
    const existing = this.#byNormalised(number);
    if (existing && existing.id !== exceptId)
      throw new DuplicateContactError(number, existing.id, existing.name);
  }

  #must(id: number): Contact {
    const c = this.get(id);
    if (!c) throw new StoreError('not-found', `no contact ${id}`);
    return c;
  }
}
