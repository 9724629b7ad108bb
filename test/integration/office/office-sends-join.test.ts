// Office mode (issue 28): a desk that joins an office shares the sends it made before, as a desk of its
// own — those of the account signed in, once — against a real PostgreSQL and the reference gateway.
// Desk B then lists them (numbers, results and a server book's batch) as desk A does; desk A started
// again does not write them again; a send of another account made before is not shared under this one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp, type MessengerApp } from '../../../main/services/app.ts';
import { serverBook, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';
import { jobFinished } from '../../support/app.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { openDesk, waitLong } from '../../support/office-desk.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const numbers = (n: number, from = 0): string[] =>
  Array.from({ length: n }, (_, i) => `447700900${String(from + i).padStart(3, '0')}`);

async function signIn(app: MessengerApp, gw: TestGateway): Promise<void> {
  await app.api.accounts.signIn({
    username: gw.username,
    pin: gw.pin,
    primaryUrl: gw.url,
    rememberPin: false,
  });
}

/** A send as History shows it at a desk, by its text. */
async function shownAt(app: MessengerApp, text: string) {
  const job = (await app.api.outbox.jobs()).find((j) => j.content.text === text);
  if (!job) return null;
  return {
    recipientCount: job.recipientCount,
    counts: job.counts,
    extraReach: job.extraReach,
    recipients: (await app.api.outbox.recipients(job.id)).map((r) => [r.to, r.status, r.messageIdentifier]),
    books: (await app.api.outbox.batches(job.id)).filter((b) => b.extras).map((b) => [b.state, b.extras]),
  };
}

describe.skipIf(!havePostgres())('office mode: a desk joining shares the sends it made before', () => {
  it("desk A's sends from before office mode appear at desk B, once, of the account signed in", async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ credit: '1000.00' });
    cleanups.push(() => gw.close());
    const other = await startTestGateway({ credit: '1000.00' });
    cleanups.push(() => other.close());
    serverBook(gw, 'Club', numbers(2, 100));
    const dir = await mkdtemp(join(tmpdir(), 'office-join-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));

    // Desk A on its own: a send on another account, then three on this one (numbers, a book, one number).
    const alone = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
    const texts = ['Before: numbers', 'Before: the club', 'Before: one'];
    try {
      await signIn(alone, other);
      const elsewhere = await alone.api.send.submit({
        recipients: numbers(1, 300),
        content: { kind: 'text', text: 'Before, other account' },
      });
      await jobFinished(alone, elsewhere.job.id, 100);
      await signIn(alone, gw);
      for (const req of [
        { recipients: numbers(3) },
        { recipients: [], addressBooks: ['Club'] },
        { recipients: numbers(1, 50) },
      ]) {
        const text = texts.shift()!;
        texts.push(text);
        const sent = await alone.api.send.submit({ ...req, content: { kind: 'text', text } });
        await jobFinished(alone, sent.job.id, 100);
      }
    } finally {
      await alone.close();
    }

    // Desk A joins the office (the same data folder), desk B is there already.
    const b = await openDesk(cleanups, gw, pg.urlWithPassword);
    const open = async () => {
      const app = await createMessengerApp({
        dataDir: dir,
        env: {},
        log: () => {},
        office: pg.urlWithPassword,
      });
      await signIn(app, gw);
      return app;
    };
    let a = await open();
    try {
      for (const text of texts) {
        const atA = await shownAt(a, text);
        expect(atA).not.toBeNull();
        await waitLong(`"${text}" at B as at A`, async () => {
          const atB = await shownAt(b.app, text);
          return JSON.stringify(atB) === JSON.stringify(atA);
        });
      }
      expect((await shownAt(b.app, 'Before: the club'))?.books).toHaveLength(1);
      expect(await shownAt(b.app, 'Before, other account')).toBeNull();
      expect(await pg.query('SELECT count(*)::int AS n FROM sends')).toEqual([{ n: 3 }]);
      const written = async () =>
        pg.query<{ n: number; max: string }>(
          'SELECT (SELECT count(*)::int FROM send_recipients) AS n, (SELECT max(change) FROM send_recipients) AS max',
        );
      const before = await written();

      // Started again: its sends are not queued or written again (B's new send shows it has synced).
      await a.close();
      a = await open();
      await waitLong('desk A connected', async () => (await a.api.office.status())?.connected);
      const fromB = await b.app.api.send.submit({
        recipients: numbers(1, 60),
        content: { kind: 'text', text: 'From B' },
      });
      await jobFinished(b.app, fromB.job.id, 100);
      await waitLong("B's send at A", async () => (await shownAt(a, 'From B'))?.counts.pending === 0);
      const after = await written();
      expect(after[0]!.n).toBe(before[0]!.n + 1);
      expect(
        await pg.query(
          `SELECT count(*)::int AS n FROM send_recipients r JOIN sends s ON s.id = r.send_id
            WHERE r.change > $1 AND s.desk <> (SELECT desk FROM sends WHERE content LIKE '%From B%')`,
          [before[0]!.max],
        ),
      ).toEqual([{ n: 0 }]);
    } finally {
      await a.close();
    }
  }, 120_000);
});
