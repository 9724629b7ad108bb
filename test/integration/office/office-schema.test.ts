// Issue 28: the office database's schema on a real PostgreSQL: numbered migrations applied once
// (also by desks starting together), a failed one leaving the previous version whole, a newer
// schema refused; TLS with the server's certificate checked; the password never in a log or file.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import { clientConfig, parseOfficeUrl } from '../../../main/office/connection.ts';
import { migrateOffice, officeMigrations } from '../../../main/office/db.ts';
import { makeTestCert } from '../../support/https-server.ts';
import { startTestGateway } from '../../support/gateway.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups, TestPostgres } from '../../support/office-db.ts';
import { waitFor } from '../../support/office-desk.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function client(server: TestPostgres, database = 'messenger'): Promise<pg.Client> {
  const c = new pg.Client({
    host: '127.0.0.1',
    port: server.port,
    user: 'messenger',
    password: server.password,
    database,
  });
  await c.connect();
  cleanups.push(() => c.end());
  return c;
}

describe.skipIf(!havePostgres())('the office database schema', () => {
  it('is migrated once, also by five desks at once, and a newer schema is refused', async () => {
    const server = await startTestPostgres(cleanups);
    const known = officeMigrations().at(-1)!.version;
    const desks = await Promise.all([1, 2, 3, 4, 5].map(() => client(server)));
    expect(await Promise.all(desks.map((c) => migrateOffice(c)))).toEqual([
      known,
      known,
      known,
      known,
      known,
    ]);
    const c = desks[0]!;
    const rows = await c.query('SELECT version FROM office_schema_version ORDER BY version');
    expect(rows.rows.map((r: { version: number }) => r.version)).toEqual(
      officeMigrations().map((m) => m.version),
    );
    expect((await c.query('SELECT count(*)::int AS n FROM office')).rows[0]).toEqual({ n: 1 });
    expect(await migrateOffice(c)).toBe(known);

    await c.query("INSERT INTO office_schema_version (version, name) VALUES (999, 'from-the-future')");
    await expect(migrateOffice(c)).rejects.toThrow(
      /schema version 999, newer than this version of Messenger knows/,
    );
  });

  it('rolls a failed migration back whole, leaving the version before it', async () => {
    const server = await startTestPostgres(cleanups);
    const c = await client(server);
    const good = officeMigrations();
    const bad = {
      version: 900,
      name: 'broken',
      sql: 'CREATE TABLE half_done (x int); SELECT no_such_function();',
    };
    await expect(migrateOffice(c, [...good, bad])).rejects.toThrow(/no_such_function/);
    expect((await c.query('SELECT max(version) AS v FROM office_schema_version')).rows[0]).toEqual({
      v: good.at(-1)!.version,
    });
    expect((await c.query("SELECT to_regclass('half_done') AS t")).rows[0]).toEqual({ t: null });
  });

  it('checks the server certificate over TLS: trusted CA connects encrypted, an unknown one is refused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'office-tls-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const cert = makeTestCert(dir);
    const server = await startTestPostgres(cleanups, { tls: { cert: cert.cert, key: cert.key } });
    const url = `postgres://messenger@127.0.0.1:${server.port}/messenger`;
    const parsed = parseOfficeUrl(
      `${url}?sslmode=verify-full&sslrootcert=${encodeURIComponent(cert.certFile)}`,
    );
    if (!parsed.ok) throw new Error(parsed.reason);
    const ok = new pg.Client(clientConfig(parsed.target, server.password, {}));
    await ok.connect();
    const ssl = await ok.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
    await ok.end();
    expect(ssl.rows[0]).toEqual({ ssl: true });

    // The system's CAs do not know this self-signed certificate: refused, never sent in clear.
    const strict = parseOfficeUrl(`${url}?sslmode=verify-full`);
    if (!strict.ok) throw new Error(strict.reason);
    const refused = new pg.Client(clientConfig(strict.target, server.password, {}));
    await expect(refused.connect()).rejects.toThrow(/self[- ]signed certificate/);
  });

  it('keeps the password out of the logs and the data folder', async () => {
    const server = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ receiptDelayMs: 100 });
    cleanups.push(() => gw.close());
    const dir = await mkdtemp(join(tmpdir(), 'office-secret-'));
    const logs: string[] = [];
    const app = await createMessengerApp({
      dataDir: dir,
      env: {},
      log: (m) => logs.push(m),
      office: server.urlWithPassword,
    });
    cleanups.push(async () => {
      await app.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    });
    await app.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    await waitFor('connected', async () => (await app.api.office.status())?.connected);
    await server.stop('fast');
    await waitFor('offline', async () => (await app.api.office.status())?.connected === false);
    await app.close();
    expect(logs.some((l) => l.includes(`postgres://messenger@127.0.0.1:${server.port}/messenger`))).toBe(
      true,
    );
    expect(logs.filter((l) => l.includes(server.password))).toEqual([]);
    for (const f of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (!f.isFile()) continue;
      const bytes = await readFile(join(f.parentPath, f.name));
      expect(bytes.includes(server.password), f.name).toBe(false);
    }
  });
});
