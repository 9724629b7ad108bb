// Office mode (issue 28) on a gateway that never removes collected messages (issue 24: every
// CollectMessages answers the same page). Desk A collects and shares three replies; desk B imports
// them; A closes and B takes over collecting: the gateway answers B with the same three, which B
// knows from the import (the repeat filter sees imported replies as collected), so B stores and
// shares none of them again.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import { foreignCollectAnswer, foreignServer } from '../../support/foreign-server.ts';
import type { ForeignRequest } from '../../support/foreign-server.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { inboundTexts, waitFor } from '../../support/office-desk.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const PAGE = [
  { from: '447700900301', text: 'reply 1', at: '2026-11-27T08:00:00Z' },
  { from: '447700900302', text: 'reply 2', at: '2026-11-27T08:01:00Z' },
  { from: '447700900303', text: 'reply 3', at: '2026-11-27T08:02:00Z' },
];

const isCollect = (r: ForeignRequest): boolean =>
  r.method === 'POST' && r.body.toString('utf8').includes('CollectMessages');

describe.skipIf(!havePostgres())('office mode on a gateway that keeps collected messages', () => {
  it('a desk taking over collecting does not store or share again the replies it imported', async () => {
    const pg = await startTestPostgres(cleanups);
    const server = await foreignServer((r) => {
      if (isCollect(r)) return { body: foreignCollectAnswer(PAGE) };
      if (r.path.includes('queryaccount'))
        return { contentType: 'text/plain', body: 'Currency=GBP&AvailableCredit=5.0000' };
      return { status: 404, contentType: 'text/plain', body: 'not here' };
    });
    cleanups.push(() => server.close());
    const open = async (): Promise<MessengerApp> => {
      const dir = await mkdtemp(join(tmpdir(), 'office-repeats-'));
      const app = await createMessengerApp({
        dataDir: dir,
        env: {},
        log: () => {},
        office: pg.urlWithPassword,
      });
      cleanups.push(async () => {
        await app.close(); // (a second close does nothing)
        await rm(dir, { recursive: true, force: true });
      });
      await app.api.settings.update({ pollIntervalSeconds: 5 });
      await app.api.accounts.signIn({
        username: 'acme.1',
        pin: 'Secret9',
        primaryUrl: server.url,
        rememberPin: false,
      });
      return app;
    };
    const a = await open();
    await waitFor('desk A collects', async () => (await a.api.office.status())?.collector === true);
    const b = await open();
    const held = (app: MessengerApp) => async () => {
      const t = await inboundTexts(app);
      return t.size === 3 && [...t.values()].every((n) => n === 1) ? t : undefined;
    };
    // (desk A polls by itself as it takes the lease: the three may be in before any pollNow of ours)
    await waitFor('the three replies at desk A, once each', async () => {
      await a.api.inbox.pollNow();
      return held(a)();
    });
    await waitFor('the three replies at desk B', held(b));

    // A closes (its lease released): B takes over and the gateway answers it with the same three
    await a.close();
    await waitFor('desk B collects', async () => (await b.api.office.status())?.collector === true);
    const before = server.requests.filter(isCollect).length;
    expect((await b.api.inbox.pollNow()).received).toBe(0);
    expect(server.requests.filter(isCollect).length).toBeGreaterThan(before);
    expect(await held(b)()).toBeDefined();
    expect(await b.api.inbox.unreadTotal()).toBe(3);
    // nothing queued for the office database: it holds the three, once
    expect((await b.api.office.status())?.pending).toBe(0);
    expect((await pg.query<{ n: string }>('SELECT count(*) AS n FROM inbound'))[0]?.n).toBe('3');
  });
});
