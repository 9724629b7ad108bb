// Issue 28: what a desk queues of its contacts, groups, templates and rules for the office database
// (main/office/share-library-local.ts): nothing on a desk of its own; in office mode every change,
// in the transaction that makes it (a failed import queues nothing), each record once by its key,
// a cascade and a renumbered contact's memberships included; what comes from the office database is
// applied without being queued back, and a record changed here and not written yet is kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppStore } from '../../../main/store/app-store.ts';
import type { OpenedAppStore } from '../../../main/store/app-store.ts';
import { LibraryLocal } from '../../../main/office/share-library-local.ts';

const opened: Array<{ store: OpenedAppStore; dir: string }> = [];
afterEach(() => {
  for (const { store, dir } of opened.splice(0)) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function open(): OpenedAppStore {
  const dir = mkdtempSync(join(tmpdir(), 'library-local-'));
  const store = openAppStore(join(dir, 'messenger.db'));
  opened.push({ store, dir });
  return store;
}

const queue = (s: OpenedAppStore) =>
  (
    s.app.db.prepare('SELECT kind, key, mode FROM office_library_queue ORDER BY seq').all() as Array<{
      kind: string;
      key: string;
      mode: string;
    }>
  ).map((r) => `${r.kind}:${r.key.replace('\n', '|')}${r.mode === 'join' ? ' (join)' : ''}`);

describe('the shared library, the desk’s side', () => {
  it('queues nothing on a desk of its own', () => {
    const s = open();
    const c = s.contacts.add({ name: 'Ann', number: '+447700900101' });
    const g = s.groups.create('Staff');
    s.groups.addMembers(g.id, [c.id]);
    s.templates.create({ name: 'Hi', text: 'Hello' });
    expect(queue(s)).toEqual([]);
  });

  it('in office mode queues each change by its key, in the transaction that makes it', () => {
    const s = open();
    let told = 0;
    const local = new LibraryLocal(s.app, () => told++);
    const ann = s.contacts.add({ name: 'Ann', number: '+447700900101' });
    const g = s.groups.create('Staff');
    s.groups.addMembers(g.id, [ann.id]);
    s.contacts.edit(ann.id, { name: 'Ann Lee' });
    expect(queue(s)).toEqual(['group:staff', 'member:staff|447700900101', 'contact:447700900101']);
    expect(told).toBeGreaterThan(0);
    // a new number: the old record and membership go, the new ones come
    local.done(local.pending(100).map((r) => r.seq));
    s.contacts.edit(ann.id, { number: '+447700900102' });
    expect(queue(s)).toEqual([
      'contact:447700900102',
      'contact:447700900101',
      'member:staff|447700900101',
      'member:staff|447700900102',
    ]);
    expect(local.pending(100).map((r) => r.data)).toEqual([
      expect.objectContaining({ name: 'Ann Lee', numberTyped: '+447700900102' }),
      null,
      null,
      {},
    ]);
    local.done(local.pending(100).map((r) => r.seq));
    // a deleted contact leaves its group (a cascade): both queued
    s.contacts.delete(ann.id);
    expect(queue(s)).toEqual(['member:staff|447700900102', 'contact:447700900102']);
    local.done(local.pending(100).map((r) => r.seq));
    // a CSV import that fails queues nothing
    expect(() =>
      s.contacts.importCsv('Name,Number\nBo,+447700900103\n', { name: 'Name', number: 'Nope' }),
    ).toThrow();
    expect(queue(s)).toEqual([]);
  });

  it('applies the office’s records without queueing them; a record changed here and not written yet stays', () => {
    const s = open();
    const local = new LibraryLocal(s.app, () => undefined);
    s.contacts.add({ name: 'Mine', number: '+447700900201' });
    local.apply(
      [
        { scope: 'office', kind: 'contact', key: '447700900201', data: { name: 'Theirs', numberTyped: 'x', email: '', notes: '', createdAt: 1 } },
        { scope: 'office', kind: 'contact', key: '447700900202', data: { name: 'New', numberTyped: '+447700900202', email: '', notes: '', createdAt: 1 } },
        { scope: 'office', kind: 'group', key: 'vip', data: { name: 'VIP', createdAt: 1 } },
        { scope: 'office', kind: 'member', key: 'vip\n447700900202', data: {} },
      ],
      'office',
      () => undefined,
    ); // prettier-ignore
    expect(s.contacts.list().map((c) => c.name)).toEqual(['Mine', 'New']);
    expect(s.groups.members(s.groups.list()[0]!.id).map((c) => c.name)).toEqual(['New']);
    expect(queue(s)).toEqual(['contact:447700900201']);
  });

  it('a membership that comes before its contact (edited since, so later in the feed) is made when the contact comes', () => {
    const s = open();
    const local = new LibraryLocal(s.app, () => undefined);
    const contact = { name: 'Late', numberTyped: '+447700900301', email: '', notes: '', createdAt: 1 };
    local.apply(
      [
        { scope: 'office', kind: 'group', key: 'vip', data: { name: 'VIP', createdAt: 1 } },
        { scope: 'office', kind: 'member', key: 'vip\n447700900301', data: {} },
      ],
      'office',
      () => undefined,
    );
    const vip = s.groups.list()[0]!;
    expect(s.groups.members(vip.id)).toEqual([]);
    local.apply(
      [{ scope: 'office', kind: 'contact', key: '447700900301', data: contact }],
      'office',
      () => undefined,
    );
    expect(s.groups.members(vip.id).map((c) => c.name)).toEqual(['Late']);
    expect(s.app.db.prepare('SELECT count(*) AS n FROM office_library_waiting').get()).toEqual({ n: 0 });
    expect(queue(s)).toEqual([]);
  });

  it('a desk joining queues what it holds, to be written only where the office has none', () => {
    const s = open();
    s.contacts.add({ name: 'Ann', number: '+447700900101' });
    s.templates.create({ name: 'Hi', text: 'Hello' });
    const local = new LibraryLocal(s.app, () => undefined);
    local.queueJoin('office');
    expect(queue(s)).toEqual(['contact:447700900101 (join)', 'template:hi (join)']);
  });
});
