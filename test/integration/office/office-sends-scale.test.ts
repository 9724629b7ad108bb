// Office mode (issue 28): sharing a large send is a few PostgreSQL statements, not one per recipient;
// and a desk of its own (no office mode) has no hook on its journal at all. Against a real PostgreSQL.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppStore } from '../../../main/store/app-store.ts';
import type { OpenedAppStore } from '../../../main/store/app-store.ts';
import { migrateOffice } from '../../../main/office/db.ts';
import { OfficeLocal } from '../../../main/office/local.ts';
import { createShareSends } from '../../../main/office/share-sends.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function store(): Promise<OpenedAppStore> {
  const dir = await mkdtemp(join(tmpdir(), 'office-scale-'));
  const s = openAppStore(join(dir, 'messenger.sqlite'), { defaultCountry: 'GB' });
  cleanups.push(async () => {
    s.close();
    await rm(dir, { recursive: true, force: true });
  });
  return s;
}

const numbers = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `4479${String(i).padStart(8, '0')}`);

const count = (s: OpenedAppStore, sql: string): number => (s.app.db.prepare(sql).get() as { n: number }).n;

describe.skipIf(!havePostgres())('office mode: a large send shared', () => {
  it('a 100,000-recipient send and its results are written in a few dozen statements', async () => {
    const server = await startTestPostgres(cleanups);
    const c = new pg.Client({
      host: '127.0.0.1',
      port: server.port,
      user: 'messenger',
      database: 'messenger',
      password: server.password,
    });
    await c.connect();
    cleanups.push(() => c.end());
    await migrateOffice(c);
    // every statement the share makes, counted
    let statements = 0;
    const query = c.query.bind(c) as (...args: unknown[]) => unknown;
    (c as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      statements++;
      return query(...args);
    };

    const s = await store();
    const account = s.accounts.save({ username: 'office', primaryUrl: 'https://gw.example' });
    const share = createShareSends({
      store: s,
      local: new OfficeLocal(s.app),
      desk: 'desk-a',
      keyOf: (a) => `${a.username}@${a.primaryUrl}`,
      emit: () => {},
    });
    const job = s.outbox.createJob(
      numbers(100_000),
      { kind: 'text', text: 'To everyone' },
      {
        accountId: account.id,
        normalized: true,
      },
    );
    expect(share.pendingCount()).toBe(100_000);
    await share.push(c);
    expect(statements).toBeLessThanOrEqual(20 * 6); // 5,000 recipients a transaction of 6 statements
    expect(share.pendingCount()).toBe(0);
    expect(await server.query('SELECT count(*)::int AS n FROM send_recipients')).toEqual([{ n: 100_000 }]);

    // every batch requested and answered: 200,000 changes (sending, then accepted), written as states
    for (let b = s.outbox.claimNext(job.id); b; b = s.outbox.claimNext(job.id))
      s.outbox.recordResults(
        b.id,
        b.recipients.map((to, i) => ({ to, report: '-3', messageIdentifier: `M${b.id}x${i}` })),
      );
    statements = 0;
    await share.push(c);
    expect(statements).toBeLessThanOrEqual(40 * 6);
    expect(
      await server.query('SELECT status, count(*)::int AS n FROM send_recipients GROUP BY status'),
    ).toEqual([{ status: 'accepted', n: 100_000 }]);
  }, 300_000);

  it('a desk of its own has no hook on its journal: a send queues nothing', async () => {
    const s = await store();
    s.outbox.createJob(numbers(500), { kind: 'text', text: 'Alone' }, { normalized: true });
    expect(count(s, "SELECT count(*) AS n FROM sqlite_temp_master WHERE type = 'trigger'")).toBe(0);
    expect(count(s, 'SELECT count(*) AS n FROM office_send_changes')).toBe(0);
  });
});
