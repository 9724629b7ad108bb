// Office mode (issue 28): the store's connection reopened by database recovery (issue 25: damage
// found while the app runs → the recovery screen → the latest backup restored, or a new database)
// must not leave a desk whose changes no longer reach the office: the TEMP triggers that queue them
// live on the connection. The recovery opens the whole app again, office mode with it, so they are
// made again on the new connection: a contact, a rule and a send made at desk A after each
// recovery reach desk B.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GuardedApp } from '../../../main/services/db-recovery.ts';
import { startTestGateway } from '../../support/gateway.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { openDesk, waitFor } from '../../support/office-desk.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe.skipIf(!havePostgres())('office mode: the store reopened by database recovery', () => {
  it("desk A's changes still reach desk B after a backup is restored and after a new database is started", async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ receiptDelayMs: 100, credit: '1000.00' });
    cleanups.push(() => gw.close());
    const a = await openDesk(cleanups, gw, pg.urlWithPassword);
    const b = await openDesk(cleanups, gw, pg.urlWithPassword);
    await a.app.api.database.backupNow();
    const signIn = { username: gw.username, pin: gw.pin, primaryUrl: gw.url, rememberPin: false };
    const file = join(a.dir, 'messenger.sqlite');
    const damaged = { ok: false, file, problem: 'found by the test', checkMs: 1 };

    for (const [round, recover] of [
      ['restored', () => a.app.api.database.restoreLatest()],
      ['new', () => a.app.api.database.startNew()],
    ] as const) {
      // what the thorough check does when it finds damage while the app runs: the full app closed
      await (a.app as GuardedApp).damaged(damaged);
      expect((await a.app.api.database.status()).state).toBe('damaged');
      expect((await recover()).state).toBe('ok');
      await a.app.api.accounts.signIn(signIn); // (the PIN was in memory only: signed in again)
      await waitFor('A connected again', async () => (await a.app.api.office.status())?.connected);

      await a.app.api.contacts.add({
        name: `Contact ${round}`,
        number: round === 'new' ? '+447700900501' : '+447700900502',
      });
      await waitFor(`the contact made at A (${round}) at B`, async () =>
        (await b.app.api.contacts.list()).some((c) => c.name === `Contact ${round}`),
      );
      await a.app.api.autoreplies.create({ keyword: `RULE${round.toUpperCase()}`, reply: 'Hello' });
      await waitFor(`the rule made at A (${round}) at B`, async () =>
        (await b.app.api.autoreplies.list()).some((r) => r.keyword === `RULE${round.toUpperCase()}`),
      );
      await a.app.api.send.submit({
        recipients: ['447700900503'],
        content: { kind: 'text', text: `Sent ${round}` },
      });
      await waitFor(`the send made at A (${round}) at B`, async () =>
        (await b.app.api.outbox.jobs()).some((j) => j.content.text === `Sent ${round}`),
      );
    }
  }, 120_000);
});
