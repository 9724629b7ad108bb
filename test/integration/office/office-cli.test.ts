// Office mode (issue 28) against a real PostgreSQL: `messenger inbox` on a data folder that is a
// desk of an office. Before, the CLI collected there whoever held the account's collector lease and
// shared nothing: a reply it took from the gateway was kept from every other desk. Now it refuses
// while a desk collects (saying which), refuses when it does not know the office database, and
// otherwise takes the lease for its run and shares what it stores.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPhone } from '../../support/app.ts';
import { runCli } from '../../support/cli-run.ts';
import { startTestGateway } from '../../support/gateway.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { collectorOf, openDesk } from '../../support/office-desk.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe.skipIf(!havePostgres())('office mode: the CLI’s inbox on a desk’s data folder', () => {
  it('refuses while another desk collects or without the office database; else collects with the lease and shares', async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ receiptDelayMs: 100 });
    cleanups.push(() => gw.close());
    const a = await openDesk(cleanups, gw, pg.urlWithPassword);
    await a.app.api.office.rename({ name: 'Front desk' });
    const b = await openDesk(cleanups, gw, pg.urlWithPassword);
    expect(await collectorOf([a, b])).toBe(a);
    await b.app.close(); // B's folder: a desk of the office, its app not running
    const env = {
      MESSENGER_URL: gw.url,
      MESSENGER_USERNAME: gw.username,
      MESSENGER_PIN: gw.pin,
      MESSENGER_DATA: b.dir,
    };
    const inOffice = { ...env, MESSENGER_OFFICE: pg.urlWithPassword };
    await fromPhone(gw, '447700900851', 'while A collects');

    const refused = await runCli(['inbox'], inOffice);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/the desk "Front desk" collects the replies of .+ for the office/);
    const unknown = await runCli(['inbox'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/is a desk of an office .*MESSENGER_OFFICE=/);
    // nothing was collected into B's folder: the replies are A's to collect and share
    const db = new DatabaseSync(join(b.dir, 'messenger.sqlite'), { readOnly: true });
    expect(db.prepare("SELECT count(*) AS n FROM messages WHERE direction = 'in'").get()).toEqual({ n: 0 });
    db.close();

    // A closes (its lease given back): the CLI collects for the office, as B's desk, and shares
    await a.app.close();
    await fromPhone(gw, '447700900852', 'for the CLI');
    const collected = await runCli(['inbox'], inOffice);
    expect(collected.code).toBe(0);
    expect(collected.out).toContain('for the CLI');
    const shared = await pg.query<{ body: string }>('SELECT body FROM inbound ORDER BY id');
    expect(shared.map((r) => r.body)).toContain('for the CLI');
    expect(shared.filter((r) => r.body === 'for the CLI')).toHaveLength(1);
    // the lease given back at the end of the run
    expect(await pg.query('SELECT desk FROM collector_leases WHERE expires_at > now()')).toEqual([]);
  }, 120_000);

  it('collects after a run of its own on the folder was stopped (its lease still standing)', async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ receiptDelayMs: 100 });
    cleanups.push(() => gw.close());
    const b = await openDesk(cleanups, gw, pg.urlWithPassword);
    await collectorOf([b]);
    const [lease] = await pg.query<{ account: string }>('SELECT account FROM collector_leases');
    await b.app.close();
    const db = new DatabaseSync(join(b.dir, 'messenger.sqlite'), { readOnly: true });
    const desk = (
      db.prepare("SELECT value FROM office_state WHERE key = 'desk_id'").get() as { value: string }
    ).value;
    db.close();
    // a run of the CLI on B's folder stopped with Ctrl-C (no end of run): the lease it took stands
    await pg.query(
      `INSERT INTO collector_leases (account, desk, expires_at) VALUES ($1, $2, now() + interval '60 seconds')`,
      [lease!.account, `${desk}:cli`],
    );
    await fromPhone(gw, '447700900853', 'after a stopped run');
    const env = {
      MESSENGER_URL: gw.url,
      MESSENGER_USERNAME: gw.username,
      MESSENGER_PIN: gw.pin,
      MESSENGER_DATA: b.dir,
      MESSENGER_OFFICE: pg.urlWithPassword,
    };
    const run = await runCli(['inbox'], env);
    expect(run.err).not.toMatch(/collects the replies/);
    expect(run.code).toBe(0);
    expect(run.out).toContain('after a stopped run');
    expect(await pg.query('SELECT desk FROM collector_leases WHERE expires_at > now()')).toEqual([]);
  }, 120_000);
});
