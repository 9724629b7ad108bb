// Office mode (issue 28) against a real PostgreSQL: a desk that ran without office mode for a while
// (started once without --office, or its office setting cleared and set again) shares the sends it
// made meanwhile when it is back in the office. Before, a desk shared the sends it made before
// joining only the first time it joined: a send made while it was away from office mode never
// reached the other desks' History.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp, type MessengerApp } from '../../../main/services/app.ts';
import { startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';
import { jobFinished } from '../../support/app.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { openDesk, waitFor } from '../../support/office-desk.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function signIn(app: MessengerApp, gw: TestGateway): Promise<void> {
  await app.api.accounts.signIn({
    username: gw.username,
    pin: gw.pin,
    primaryUrl: gw.url,
    rememberPin: false,
  });
}

const textsAt = async (app: MessengerApp): Promise<string[]> =>
  (await app.api.outbox.jobs()).map((j) => j.content.text ?? '');

describe.skipIf(!havePostgres())('office mode: a desk back in the office after running without it', () => {
  it('shares the sends it made while it was not in office mode', async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ credit: '1000.00' });
    cleanups.push(() => gw.close());
    const dir = await mkdtemp(join(tmpdir(), 'office-rejoin-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const b = await openDesk(cleanups, gw, pg.urlWithPassword);
    const open = async (office: string | undefined): Promise<MessengerApp> => {
      const app = await createMessengerApp({
        dataDir: dir,
        env: {},
        log: () => {},
        ...(office ? { office } : {}),
      });
      await signIn(app, gw);
      return app;
    };
    const send = async (app: MessengerApp, text: string, to: string): Promise<void> => {
      const sent = await app.api.send.submit({ recipients: [to], content: { kind: 'text', text } });
      await jobFinished(app, sent.job.id, 100);
    };

    // Desk A in the office: its send reaches B.
    let a = await open(pg.urlWithPassword);
    try {
      await waitFor('A connected', async () => (await a.api.office.status())?.connected);
      await send(a, 'In the office', '447700900101');
      await waitFor(
        'the first send at B',
        async () => (await textsAt(b.app)).includes('In the office'),
        60_000,
      );
    } finally {
      await a.close();
    }
    // Desk A started once without office mode: a send of its own.
    a = await open(undefined);
    try {
      await send(a, 'While away', '447700900102');
    } finally {
      await a.close();
    }
    // Back in the office: the send made meanwhile reaches B (with its result), as the next one does.
    a = await open(pg.urlWithPassword);
    try {
      await waitFor('A connected again', async () => (await a.api.office.status())?.connected);
      await send(a, 'Back again', '447700900103');
      await waitFor('the send after at B', async () => (await textsAt(b.app)).includes('Back again'), 60_000);
      await waitFor(
        'the send made without office mode at B',
        async () => (await textsAt(b.app)).includes('While away'),
        30_000,
      );
      const away = (await b.app.api.outbox.jobs()).find((j) => j.content.text === 'While away')!;
      expect(await b.app.api.outbox.recipients(away.id)).toMatchObject([{ to: '447700900102' }]);
      expect(await pg.query('SELECT count(*)::int AS n FROM sends')).toEqual([{ n: 3 }]);
    } finally {
      await a.close();
    }
  }, 180_000);
});
