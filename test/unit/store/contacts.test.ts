import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { openAppDb } from '../../../main/store/db.ts';
import type { AppDb } from '../../../main/store/db.ts';
import { DuplicateContactError, StoreError } from '../../../main/store/errors.ts';
import { ContactsRepo } from '../../../main/store/contacts.ts';
import { GroupsRepo } from '../../../main/store/groups.ts';
import { TemplatesRepo } from '../../../main/store/templates.ts';
import { tempDbFile } from './helpers.ts';

let app: AppDb;
let cleanup: () => void;
let contacts: ContactsRepo;
beforeEach(() => {
  const t = tempDbFile();
  cleanup = t.cleanup;
  app = openAppDb(t.file);
  contacts = new ContactsRepo(app, { defaultCountry: 'GB' });
});
afterEach(() => {
  app.close();
  cleanup();
});

describe('contacts', () => {
  it('stores the number normalised and as typed, and finds it however it is written', () => {
    const c = contacts.add({ name: 'Alice', number: '07700 900123', email: 'alice@example.com' });
    expect(c.number).toBe('447700900123');
    expect(c.numberTyped).toBe('07700 900123');
    for (const written of ['+44 7700 900123', '0044 7700-900-123', '447700900123', '(07700) 900123']) {
      expect(contacts.findDuplicates(written).map((d) => d.id)).toEqual([c.id]);
    }
    expect(contacts.findDuplicates('+44 7700 900124')).toEqual([]);
  });

  it('refuses a second contact with the same number, naming the first', () => {
    const first = contacts.add({ name: 'Alice', number: '+447700900123' });
    let error: unknown;
    try {
      contacts.add({ name: 'Alicia', number: '07700900123' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DuplicateContactError);
    expect((error as DuplicateContactError).existingId).toBe(first.id);
    expect((error as Error).message).toContain('Alice');
    expect(contacts.list()).toHaveLength(1);
  });

  it('refuses an invalid number with the reason, and edits re-check duplicates', () => {
    expect(() => contacts.add({ name: 'Bob', number: '12ab' })).toThrow(/not a valid number/);
    const a = contacts.add({ name: 'A', number: '447700900001' });
    const b = contacts.add({ name: 'B', number: '447700900002' });
    expect(() => contacts.edit(b.id, { number: '+447700900001' })).toThrow(DuplicateContactError);
    const renamed = contacts.edit(a.id, { name: 'Anna', notes: 'met at the fair' });
    expect(renamed).toMatchObject({ name: 'Anna', number: '447700900001', notes: 'met at the fair' });
    contacts.delete(a.id);
    expect(contacts.get(a.id)).toBeNull();
    expect(() => contacts.delete(a.id)).toThrow(StoreError);
  });

  it('imports CSV through a column mapping, reporting invalid rows and duplicates by row', () => {
    contacts.add({ name: 'Existing', number: '447700900010' });
    const csv = [
      'First,Last,Mobile,E-mail,Comment',
      'Ann,Lee,07700 900011,ann@example.com,"likes ""quotes"", commas"',
      'Ben,Ray,+44 7700 900010,,',
      'Cy,,not a number,,',
      'Dee,Fox,0044 7700 900011,,',
      'Eve,Sun,447700900012,eve@example.com,',
      ',,,,',
    ].join('\r\n');
    const result = contacts.importCsv(
      csv,
      { name: ['First', 'Last'], number: 'Mobile', email: 'E-mail', notes: 'Comment' },
      { defaultCountry: 'GB' },
    );
    expect(result.added.map((c) => [c.name, c.number, c.email])).toEqual([
      ['Ann Lee', '447700900011', 'ann@example.com'],
      ['Eve Sun', '447700900012', 'eve@example.com'],
    ]);
    expect(result.added[0]?.notes).toBe('likes "quotes", commas');
    expect(result.duplicates.map((d) => [d.row, d.existing.name])).toEqual([
      [2, 'Existing'],
      [4, 'Ann Lee'],
    ]);
    expect(result.invalid.map((i) => [i.row, i.input])).toEqual([[3, 'not a number']]);
    expect(contacts.list()).toHaveLength(3);
  });

  it('updates existing contacts on import when asked', () => {
    const old = contacts.add({ name: 'Old name', number: '447700900020' });
    const result = contacts.importCsv(
      'name,phone\nNew name,+447700900020\n',
      { name: 'name', number: 'phone' },
      { onDuplicate: 'update' },
    );
    expect(result.updated.map((c) => [c.id, c.name])).toEqual([[old.id, 'New name']]);
    expect(result.added).toEqual([]);
  });

  it('refuses a mapping to a column the CSV does not have, importing nothing', () => {
    expect(() =>
      contacts.importCsv('Name,Phone\nA,447700900030\n', { name: 'Name', number: 'Mobile' }),
    ).toThrow(/no column "Mobile"/);
    expect(contacts.list()).toEqual([]);
  });

  it('imports vCard 2.1 (bare types, quoted-printable) and 3.0, preferring the mobile number', () => {
    const text = [
      'BEGIN:VCARD',
      'VERSION:2.1',
      'N:Smith;John',
      'TEL;WORK;VOICE:020 7946 0000',
      'TEL;CELL:+44 7700 900123',
      'EMAIL;INTERNET:john@example.com',
      'NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:Caf=C3=A9, on the corner; =',
      'opens at 8',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Zoë Ärger',
      'TEL;TYPE=HOME:020 7946 0001',
      'TEL;TYPE=CELL,VOICE:07700 900456',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:No Phone',
      'EMAIL:nophone@example.com',
      'END:VCARD',
      '',
    ].join('\r\n');
    const result = contacts.importVcard(text, { defaultCountry: 'GB' });
    expect(result.added.map((c) => [c.name, c.number])).toEqual([
      ['John Smith', '447700900123'],
      ['Zoë Ärger', '447700900456'],
    ]);
    expect(result.added[0]?.email).toBe('john@example.com');
    expect(result.added[0]?.notes).toBe('Café, on the corner; opens at 8');
    expect(result.invalid.map((i) => i.row)).toEqual([3]);
  });

  it('imports vCard 4.0 tel: URIs and semicolon-separated CSV', () => {
    const v4 =
      'BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Four\r\nTEL;VALUE=uri;TYPE=cell:tel:+44-7700-900301\r\nEND:VCARD\r\n';
    expect(contacts.importVcard(v4).added.map((c) => [c.name, c.number])).toEqual([['Four', '447700900301']]);
    const semi = 'Name;Phone\r\nSemi Colon;07700 900302\r\n';
    expect(contacts.importCsv(semi, { name: 'Name', number: 'Phone' }).added.map((c) => c.number)).toEqual([
      '447700900302',
    ]);
    expect(() => contacts.importVcard('this is not a vcard')).toThrow(StoreError);
  });

  it('exports CSV that imports back to the same contacts, and neutralises spreadsheet formulas', () => {
    contacts.add({ name: 'Ann, "the boss"', number: '447700900040', notes: 'line one\nline two' });
    contacts.add({ name: '=HYPERLINK("http://evil")', number: '447700900041' });
    const csv = contacts.exportCsv();
    const rows = Papa.parse<string[]>(csv.trim()).data;
    expect(rows[0]).toEqual(['Name', 'Number', 'Email', 'Notes']);
    expect(rows.find((r) => r[1] === '447700900041')?.[0]).toBe(`'=HYPERLINK("http://evil")`);

    const t = tempDbFile();
    const other = openAppDb(t.file);
    try {
      const imported = new ContactsRepo(other).importCsv(csv, {
        name: 'Name',
        number: 'Number',
        email: 'Email',
        notes: 'Notes',
      });
      expect(imported.invalid).toEqual([]);
      const ann = imported.added.find((c) => c.number === '447700900040');
      expect(ann?.name).toBe('Ann, "the boss"');
      expect(ann?.notes).toBe('line one\nline two');
    } finally {
      other.close();
      t.cleanup();
    }
  });
});

describe('groups', () => {
  it('keeps many-to-many membership, renames, and cascades deletes both ways', () => {
    const groups = new GroupsRepo(app);
    const a = contacts.add({ name: 'Ann', number: '447700900051' });
    const b = contacts.add({ name: 'Ben', number: '447700900052' });
    const team = groups.create('Team');
    const family = groups.create('Family');
    expect(() => groups.create('team')).toThrow(/exists already/);
    groups.addMembers(team.id, [a.id, b.id, a.id]);
    groups.addMembers(family.id, [a.id]);
    expect(groups.members(team.id).map((c) => c.name)).toEqual(['Ann', 'Ben']);
    expect(groups.groupsOf(a.id).map((g) => g.name)).toEqual(['Family', 'Team']);
    expect(() => groups.addMembers(team.id, [9999])).toThrow(/no contact 9999/);

    expect(groups.rename(team.id, 'Sales team').name).toBe('Sales team');
    groups.removeMembers(team.id, [b.id]);
    expect(groups.members(team.id).map((c) => c.name)).toEqual(['Ann']);

    contacts.delete(a.id);
    expect(groups.list().map((g) => [g.name, g.memberCount])).toEqual([
      ['Family', 0],
      ['Sales team', 0],
    ]);
    groups.delete(family.id);
    expect(contacts.get(b.id)?.name).toBe('Ben');
    expect(groups.list().map((g) => g.name)).toEqual(['Sales team']);
  });
});

describe('templates', () => {
  it('creates, lists by name, updates and deletes; names are unique', () => {
    const templates = new TemplatesRepo(app);
    const t = templates.create({ name: 'Reminder', text: 'Your appointment is tomorrow at {time}.' });
    templates.create({ name: 'Apology', text: 'Sorry for the delay.' });
    expect(templates.list().map((x) => x.name)).toEqual(['Apology', 'Reminder']);
    expect(() => templates.create({ name: 'reminder', text: 'x' })).toThrow(/exists already/);
    expect(() => templates.create({ name: 'Empty', text: '  ' })).toThrow(/needs a text/);
    expect(templates.update(t.id, { text: 'See you tomorrow.' }).text).toBe('See you tomorrow.');
    templates.delete(t.id);
    expect(templates.get(t.id)).toBeNull();
  });
});

describe('issue 13: a Group column on import, bulk delete with undo', () => {
  it('maps a Group column (; or | separated) to groups, creating them, case ignored', () => {
    const groups = new GroupsRepo(app);
    const existing = groups.create('Choir');
    const csv =
      'Name,Phone,Group\nAnn,+447700900401,choir; Parents\nBen,+447700900402,Parents|Board\nCy,+447700900403,\n';
    const r = contacts.importCsv(csv, { name: 'Name', number: 'Phone', groups: 'Group' });
    expect(r.added).toHaveLength(3);
    expect(r.groups).toEqual([
      { id: existing.id, name: 'choir', created: false, added: 1 },
      expect.objectContaining({ name: 'Parents', created: true, added: 2 }),
      expect.objectContaining({ name: 'Board', created: true, added: 1 }),
    ]);
    const byName = new Map(groups.list().map((g) => [g.name, g]));
    expect(groups.members(byName.get('Parents')!.id).map((c) => c.name)).toEqual(['Ann', 'Ben']);
    expect(groups.members(existing.id).map((c) => c.name)).toEqual(['Ann']);
    // A duplicate row still joins its groups.
    const again = contacts.importCsv('Name,Phone,Group\nAnn,+447700900401,Board\n', {
      name: 'Name',
      number: 'Phone',
      groups: 'Group',
    });
    expect(again.duplicates).toHaveLength(1);
    expect(groups.members(byName.get('Board')!.id).map((c) => c.name)).toEqual(['Ann', 'Ben']);
  });

  it('deletes many and restores them with their ids and groups', () => {
    const groups = new GroupsRepo(app);
    const g = groups.create('Team');
    const a = contacts.add({ name: 'Ann', number: '+447700900411' });
    const b = contacts.add({ name: 'Ben', number: '+447700900412' });
    groups.addMembers(g.id, [a.id, b.id]);
    const gone = contacts.deleteMany([a.id, b.id, 99999]);
    expect(gone.map((d) => d.contact.name)).toEqual(['Ann', 'Ben']);
    expect(contacts.list()).toEqual([]);
    expect(groups.members(g.id)).toEqual([]);
    // Someone took Ben's number meanwhile: Ann comes back, Ben is skipped.
    contacts.add({ name: 'Bea', number: '+447700900412' });
    expect(contacts.restore(gone)).toBe(1);
    expect(contacts.list().find((c) => c.name === 'Ann')).toMatchObject({ number: '447700900411' });
    expect(groups.members(g.id).map((c) => c.name)).toEqual(['Ann']);
  });
});
