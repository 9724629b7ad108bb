// Office mode (issue 28) against a real PostgreSQL: the office database reachable but refusing a
// desk's writes (here a trigger raising an error on the shared sends and library tables, as a
// permission or constraint error would). Before: the sends queue was tried again every 300 ms and
// every try logged. Now each refused step is held back longer each time, its error logged once and
// said in the office status (the banner), the other steps go on, nothing queued is dropped, and
// once the database is mended everything reaches the other desk.
import pgLib from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestGateway } from '../../support/gateway.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups, TestPostgres } from '../../support/office-db.ts';
import { openDesk, waitFor, waitLong } from '../../support/office-desk.ts';
import type { Desk } from '../../support/office-desk.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const REFUSAL = 'refused by the test';
const REFUSED_DB = 'is not currently accepting connections';

/** Runs `sql` from the server's other database (one that refuses connections cannot be changed from itself). */
/** Desk A's contact and send written once the office database takes them again: at desk B, A's error gone. */
async function caughtUp(a: Desk, b: Desk, contact: string, send: string): Promise<void> {
  await waitLong('the contact at B', async () =>
    (await b.app.api.contacts.list()).some((c) => c.name === contact),
  );
  await waitLong("A's send at B", async () =>
    (await b.app.api.outbox.jobs()).some((j) => j.content.text === send),
  );
  await waitLong('no error at A', async () => (await a.app.api.office.status())?.error === null);
}

async function admin(server: TestPostgres, sql: string): Promise<void> {
  const c = new pgLib.Client({
    host: '127.0.0.1',
    port: server.port,
    user: 'messenger',
    database: 'postgres',
    password: server.password,
  });
  c.on('error', () => undefined);
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end().catch(() => undefined);
  }
}

describe.skipIf(!havePostgres())('office mode: writes the office database refuses', () => {
  it('are held back and logged once per error, said in the status, kept, and written once it is mended', async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ receiptDelayMs: 100, credit: '1000.00' });
    cleanups.push(() => gw.close());
    const logA: string[] = [];
    const a = await openDesk(cleanups, gw, pg.urlWithPassword, { log: (m) => logA.push(m) });
    const b = await openDesk(cleanups, gw, pg.urlWithPassword);

    await pg.query(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION '${REFUSAL}'; END $$`);
    await pg.query(
      'CREATE TRIGGER refuse_sends BEFORE INSERT OR UPDATE ON sends FOR EACH ROW EXECUTE FUNCTION refuse()',
    );
    await pg.query(
      'CREATE TRIGGER refuse_library BEFORE INSERT OR UPDATE ON library FOR EACH ROW EXECUTE FUNCTION refuse()',
    );

    await a.app.api.contacts.add({ name: 'Refused Rita', number: '+447700900201' });
    await a.app.api.send.submit({
      recipients: ['447700900202'],
      content: { kind: 'text', text: 'Refused send' },
    });
    // the status says it while the desk is connected (the banner shows it)
    const refused = await waitFor('the refusal in the status', async () => {
      const s = await a.app.api.office.status();
      return s?.connected === true && s.error?.includes(REFUSAL) ? s : undefined;
    });
    expect(refused.pending).toBeGreaterThan(0);
    // a few seconds of refusals (10+ tries of the sends queue at its 300 ms before): each step's
    // error logged once
    await new Promise((r) => setTimeout(r, 4000));
    const said = logA.filter((m) => m.includes(REFUSAL));
    expect(said.length).toBeGreaterThanOrEqual(1);
    expect(said.length).toBeLessThanOrEqual(2); // sends, library
    expect(new Set(said).size).toBe(said.length);
    expect((await a.app.api.office.status())?.connected).toBe(true);

    await pg.query('DROP TRIGGER refuse_sends ON sends');
    await pg.query('DROP TRIGGER refuse_library ON library');
    await caughtUp(a, b, 'Refused Rita', 'Refused send');
    expect(logA.filter((m) => m.includes(REFUSAL))).toHaveLength(said.length);
  }, 120_000);
});

describe.skipIf(!havePostgres())('office mode: connections the office database refuses', () => {
  it('are held back too, logged once, said in the status; the desk catches up once they are allowed', async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ receiptDelayMs: 100, credit: '1000.00' });
    cleanups.push(() => gw.close());
    const logA: string[] = [];
    const a = await openDesk(cleanups, gw, pg.urlWithPassword, { log: (m) => logA.push(m) });
    const b = await openDesk(cleanups, gw, pg.urlWithPassword);
    // new connections refused (the test's role is PostgreSQL's superuser: no privilege or connection
    // limit holds for it, a database that allows none does); the desks' pool connections ended
    // (their listeners, which ran LISTEN last, kept: each desk still counts as connected)
    await admin(pg, 'ALTER DATABASE messenger ALLOW_CONNECTIONS false');
    await admin(
      pg,
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = 'messenger' AND pid <> pg_backend_pid() AND query NOT LIKE 'LISTEN%'`,
    );
    await a.app.api.contacts.add({ name: 'Later Lee', number: '+447700900211' });
    await a.app.api.send.submit({
      recipients: ['447700900212'],
      content: { kind: 'text', text: 'Later send' },
    });
    await waitFor('the refusal in the status', async () => {
      const s = await a.app.api.office.status();
      // (connected, the listener kept; or, when a pool connection was ended in the middle of a query —
      // a lost connection — reconnecting, refused the same way)
      return s?.error?.includes(REFUSED_DB) ? s : undefined;
    });
    await new Promise((r) => setTimeout(r, 4000));
    const said = logA.filter((m) => m.includes(REFUSED_DB));
    expect(said.length).toBeGreaterThanOrEqual(1);
    expect(said.length).toBeLessThanOrEqual(3); // the sync's connection, the lease's, a reconnection's
    expect(new Set(said).size).toBe(said.length);
    await admin(pg, 'ALTER DATABASE messenger ALLOW_CONNECTIONS true');
    await caughtUp(a, b, 'Later Lee', 'Later send');
  }, 120_000);
});

describe.skipIf(!havePostgres())('office mode: why a desk cannot reconnect', () => {
  it('is logged when it changes (the connection lost, then refused), once each', async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({});
    cleanups.push(() => gw.close());
    const log: string[] = [];
    const a = await openDesk(cleanups, gw, pg.urlWithPassword, { log: (m) => log.push(m) });
    // every connection of the desk ended (its listener's too: offline), new ones refused
    await admin(pg, 'ALTER DATABASE messenger ALLOW_CONNECTIONS false');
    await admin(
      pg,
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'messenger' AND pid <> pg_backend_pid()`,
    );
    await waitFor('the refusal in the status', async () =>
      (await a.app.api.office.status())?.error?.includes(REFUSED_DB),
    );
    await new Promise((r) => setTimeout(r, 3000)); // a few reconnections, refused the same way
    const unreachable = log.filter((m) => m.includes('unreachable'));
    expect(unreachable.some((m) => m.includes(REFUSED_DB))).toBe(true);
    expect(unreachable.filter((m) => m.includes(REFUSED_DB))).toHaveLength(1);
    await admin(pg, 'ALTER DATABASE messenger ALLOW_CONNECTIONS true');
    await waitFor('connected again', async () => (await a.app.api.office.status())?.connected, 60_000);
  }, 120_000);
});
