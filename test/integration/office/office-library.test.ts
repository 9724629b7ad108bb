// Office mode (issue 28) against a real PostgreSQL: contacts, groups and their members, templates
// and keyword auto-reply rules shared by the desks of an office (main/office/share-library.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromPhone } from '../../support/app.ts';
import { messageCount, startTestGateway } from '../../support/gateway.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { collectAll, collectorOf, openDesk, waitFor } from '../../support/office-desk.ts';
import { createMessengerApp } from '../../../main/services/app.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import { libraryTimings } from '../../../main/office/share-library.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function office(desks: number) {
  const pg = await startTestPostgres(cleanups);
  const gw = await startTestGateway({ receiptDelayMs: 100 });
  cleanups.push(() => gw.close());
  const all = [];
  for (let i = 0; i < desks; i++) all.push(await openDesk(cleanups, gw, pg.urlWithPassword));
  return { pg, gw, desks: all };
}

const contactsOf = async (app: MessengerApp) =>
  (await app.api.contacts.list()).map((c) => `${c.name}|${c.number}|${c.email}|${c.notes}`);

const has = (app: MessengerApp, want: string) =>
  waitFor(`"${want}" at the desk`, async () => (await contactsOf(app)).includes(want));

describe.skipIf(!havePostgres())(
  'office mode: contacts, groups, templates and auto-reply rules shared',
  () => {
    it('a contact added, edited and deleted at desk A is so at desk B; a group and its members; a template', async () => {
      const { desks } = await office(2);
      const [a, b] = desks.map((d) => d.app) as [MessengerApp, MessengerApp];
      const alice = await a.api.contacts.add({ name: 'Alice', number: '+447700900101' });
      await has(b, 'Alice|447700900101||');
      await a.api.contacts.edit({
        id: alice.id,
        changes: { name: 'Alice Smith', email: 'alice@example.com' },
      });
      await has(b, 'Alice Smith|447700900101|alice@example.com|');
      // a new number: the contact is the same at B, under its new number (and no longer under the old)
      await a.api.contacts.edit({ id: alice.id, changes: { number: '+447700900102' } });
      await has(b, 'Alice Smith|447700900102|alice@example.com|');
      expect((await contactsOf(b)).filter((c) => c.startsWith('Alice'))).toHaveLength(1);

      const bob = await b.api.contacts.add({ name: 'Bob', number: '+447700900103' });
      const staff = await a.api.groups.create('Staff');
      await has(a, 'Bob|447700900103||');
      const bobAtA = (await a.api.contacts.list()).find((c) => c.name === 'Bob')!;
      await a.api.groups.addMembers({ id: staff.id, contactIds: [alice.id, bobAtA.id] });
      const members = async (app: MessengerApp, group: string) => {
        const g = (await app.api.groups.list()).find((x) => x.name === group);
        return g ? (await app.api.groups.members(g.id)).map((c) => c.name).join(',') : null;
      };
      await waitFor('Staff at B with both', async () => (await members(b, 'Staff')) === 'Alice Smith,Bob');
      // B takes Bob out and renames the group: A follows
      const staffAtB = (await b.api.groups.list()).find((g) => g.name === 'Staff')!;
      await b.api.groups.removeMembers({ id: staffAtB.id, contactIds: [bob.id] });
      await b.api.groups.rename({ id: staffAtB.id, name: 'Front desk' });
      await waitFor('renamed at A', async () => (await members(a, 'Front desk')) === 'Alice Smith');
      expect(await members(a, 'Staff')).toBeNull();

      const t = await a.api.templates.create({ name: 'Hours', text: 'Open 9 to 5' });
      await waitFor('template at B', async () =>
        (await b.api.templates.list()).some((x) => x.name === 'Hours' && x.text === 'Open 9 to 5'),
      );
      await a.api.templates.update({ id: t.id, text: 'Open 8 to 6' });
      await waitFor('template edit at B', async () =>
        (await b.api.templates.list()).some((x) => x.name === 'Hours' && x.text === 'Open 8 to 6'),
      );
      await b.api.templates.delete((await b.api.templates.list())[0]!.id);
      await waitFor('template gone at A', async () => (await a.api.templates.list()).length === 0);

      // deleted at A: gone at B (and from B's group)
      await a.api.contacts.delete(alice.id);
      await waitFor('Alice gone at B', async () => !(await contactsOf(b)).some((c) => c.startsWith('Alice')));
      await waitFor('B group empty', async () => (await members(b, 'Front desk')) === '');
      // a bulk delete and its undo
      const gone = await b.api.contacts.deleteMany([bob.id]);
      await waitFor('Bob gone at A', async () => (await contactsOf(a)).length === 0);
      await b.api.contacts.restore(gone);
      await has(a, 'Bob|447700900103||');
    }, 120_000);

    it('a CSV import of 10,000 contacts reaches the second desk, in batches', async () => {
      const { pg, desks } = await office(2);
      const [a, b] = desks.map((d) => d.app) as [MessengerApp, MessengerApp];
      const lines = ['Name,Number,Group'];
      for (let i = 0; i < 10_000; i++) lines.push(`Person ${i},+44 7911 ${String(100000 + i)},Customers`);
      libraryTimings.statements = 0;
      const t0 = performance.now();
      const r = await a.api.contacts.importCsv({
        csv: lines.join('\n'),
        mapping: { name: 'Name', number: 'Number', groups: 'Group' },
      });
      expect(r.duplicates.length + r.invalid.length).toBe(0);
      expect(await a.api.contacts.list()).toHaveLength(10_000);
      await waitFor(
        '10,000 at B',
        async () => {
          const g = (await b.api.groups.list()).find((x) => x.name === 'Customers');
          return g?.memberCount === 10_000 && (await b.api.contacts.list()).length === 10_000;
        },
        120_000,
      );
      console.log(`10,000 contacts imported at A and at B in ${Math.round(performance.now() - t0)} ms`);
      const rows = await pg.query<{ kind: string; n: string }>(
        'SELECT kind, count(*) AS n FROM library GROUP BY kind ORDER BY kind',
      );
      expect(rows).toEqual([
        { kind: 'contact', n: '10000' },
        { kind: 'group', n: '1' },
        { kind: 'member', n: '10000' },
      ]);
      expect((await a.api.office.status())?.pending).toBe(0);
      // 20,001 records (10,000 contacts, a group, 10,000 members) in batches of 1,000: one statement each
      expect(libraryTimings.statements).toBeLessThanOrEqual(25);
    }, 240_000);

    it('two desks editing one contact at once end with the same contact: the last written wins', async () => {
      const { pg, desks } = await office(2);
      const [a, b] = desks.map((d) => d.app) as [MessengerApp, MessengerApp];
      const c = await a.api.contacts.add({ name: 'Carol', number: '+447700900201' });
      await has(b, 'Carol|447700900201||');
      const atB = (await b.api.contacts.list())[0]!;
      await Promise.all([
        a.api.contacts.edit({ id: c.id, changes: { notes: 'from A' } }),
        b.api.contacts.edit({ id: atB.id, changes: { notes: 'from B' } }),
      ]);
      const final = await waitFor('both desks agree', async () => {
        const [x, y] = [await contactsOf(a), await contactsOf(b)];
        const rows = await pg.query<{ notes: string }>("SELECT data->>'notes' AS notes FROM library");
        return x[0] === y[0] && x[0] === `Carol|447700900201||${rows[0]?.notes}` ? x[0] : undefined;
      });
      expect(['Carol|447700900201||from A', 'Carol|447700900201||from B']).toContain(final);
    }, 120_000);

    it('the office database down while editing: the changes are queued and caught up', async () => {
      const { pg, desks } = await office(2);
      const [a, b] = desks.map((d) => d.app) as [MessengerApp, MessengerApp];
      await waitFor('B connected', async () => (await b.api.office.status())?.connected);
      await pg.stop('fast');
      await waitFor('A offline', async () => (await a.api.office.status())?.connected === false);
      await a.api.contacts.add({ name: 'Dan', number: '+447700900301' });
      await a.api.templates.create({ name: 'Away', text: 'Back soon' });
      expect((await a.api.office.status())?.pending).toBe(2);
      await pg.restart();
      await has(b, 'Dan|447700900301||');
      await waitFor('template at B', async () =>
        (await b.api.templates.list()).some((t) => t.name === 'Away'),
      );
      await waitFor('A queue written', async () => (await a.api.office.status())?.pending === 0, 60_000);
    }, 120_000);

    it('a desk joining merges its own contacts by number: one contact each, the office’s version kept', async () => {
      const { pg, gw, desks } = await office(1);
      const a = desks[0]!.app;
      await a.api.contacts.add({ name: 'Erin (office)', number: '+447700900401' });
      await a.api.templates.create({ name: 'Hello', text: 'Hi!' });
      // desk B has its own data before it joins
      const dir = await mkdtemp(join(tmpdir(), 'office-desk-'));
      const alone = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
      await alone.api.contacts.add({ name: 'Erin (desk B)', number: '+447700900401' });
      await alone.api.contacts.add({ name: 'Fay', number: '+447700900402' });
      await alone.close();
      const b = await createMessengerApp({
        dataDir: dir,
        env: {},
        log: () => {},
        office: pg.urlWithPassword,
      });
      cleanups.push(async () => {
        await b.close();
        await rm(dir, { recursive: true, force: true });
      });
      await b.api.accounts.signIn({
        username: gw.username,
        pin: gw.pin,
        primaryUrl: gw.url,
        rememberPin: false,
      });
      await has(b, 'Erin (office)|447700900401||');
      await has(a, 'Fay|447700900402||');
      expect(await contactsOf(b)).toEqual(['Erin (office)|447700900401||', 'Fay|447700900402||']);
      await waitFor('template at B', async () =>
        (await b.api.templates.list()).some((t) => t.name === 'Hello'),
      );
    }, 120_000);

    it('an auto-reply rule made at desk B is answered once by the collecting desk; changed at B, its next reply too', async () => {
      const { gw, desks } = await office(3);
      const collector = await collectorOf(desks);
      const others = desks.filter((d) => d !== collector);
      const b = others[0]!.app;
      const rule = await b.api.autoreplies.create({ keyword: 'HOURS', reply: 'Open 9 to 5' });
      await waitFor('the rule at the collector', async () =>
        (await collector.app.api.autoreplies.list()).some((r) => r.reply === 'Open 9 to 5'),
      );
      const before = messageCount(gw.ctx, gw.username);
      await fromPhone(gw, '447700900821', 'hours?');
      expect(await collectAll(collector.app, 1)).toBe(1);
      await waitFor('the answer sent', async () => messageCount(gw.ctx, gw.username) === before + 1);
      for (const d of desks) await d.app.api.inbox.pollNow();
      await new Promise((r) => setTimeout(r, 1000));
      expect(messageCount(gw.ctx, gw.username)).toBe(before + 1);

      await b.api.autoreplies.update({ id: rule.id, reply: 'Open 8 to 6 from Monday' });
      await waitFor('the change at the collector', async () =>
        (await collector.app.api.autoreplies.list()).some((r) => r.reply === 'Open 8 to 6 from Monday'),
      );
      await fromPhone(gw, '447700900822', 'HOURS');
      expect(await collectAll(collector.app, 1)).toBe(1);
      await waitFor('the second answer', async () => messageCount(gw.ctx, gw.username) === before + 2);
      const sent = await collector.app.api.history.messages({});
      expect(JSON.stringify(sent)).toContain('Open 8 to 6 from Monday');
      // every desk holds one rule
      for (const d of desks) expect(await d.app.api.autoreplies.list()).toHaveLength(1);
    }, 120_000);
  },
);
