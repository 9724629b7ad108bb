// A real PostgreSQL for office-mode tests (issue 28), started the way `npm run office-db -- start`
// starts one (main/office/local-server.ts: initdb + pg_ctl in a temporary folder, as the postgres
// user when the tests run as root), on a free loopback port; stopped and removed by the cleanups.
import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { inject } from 'vitest';
import { clusterParent } from './global-setup.ts';
import { postgresBin, startLocalPostgres } from '../../main/office/local-server.ts';
import type { LocalPostgres } from '../../main/office/local-server.ts';

export type Cleanups = Array<() => Promise<void>>;

export const havePostgres = (): boolean => postgresBin() !== null;

export interface TestPostgres extends LocalPostgres {
  /** The URL with the password in it (what `--office` is given). */
  urlWithPassword: string;
  /** Starts the server again on the same folder, port and password (after stop()). */
  restart(): Promise<void>;
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
}

/**
 * The run's template cluster (test/support/global-setup.ts): made once, by the first test file that
 * needs it (the others wait), stopped cleanly, then copied by every test. Its settings are a test
 * server's: fsync and full-page writes off (they guard against a crash of the machine, which no test
 * makes; a stopped or killed server keeps what it committed); dynamic shared memory in the data
 * folder (a server stopped 'immediate' leaves no segment in /dev/shm). null: none (each test runs initdb).
 */
async function templateCluster(): Promise<string | null> {
  const root = inject('pgTemplateDir');
  if (!root || !existsSync(root)) return null;
  const cluster = join(root, 'data');
  const ready = join(root, 'ready');
  if (existsSync(ready)) return cluster;
  try {
    mkdirSync(join(root, 'lock'));
  } catch {
    // another test file makes it
    const end = Date.now() + 120_000;
    while (!existsSync(ready)) {
      if (Date.now() > end) return null;
      await new Promise((r) => setTimeout(r, 100));
    }
    return cluster;
  }
  const server = await startLocalPostgres(cluster);
  await server.stop('fast');
  appendFileSync(
    join(cluster, 'postgresql.conf'),
    '\n# tests (test/support/office-db.ts)\nfsync = off\nfull_page_writes = off\ndynamic_shared_memory_type = mmap\n',
  );
  writeFileSync(ready, '');
  return cluster;
}

export async function startTestPostgres(
  cleanups: Cleanups,
  opts: { tls?: { cert: string; key: string } } = {},
): Promise<TestPostgres> {
  const base = await mkdtemp(join(clusterParent(), 'office-pg-'));
  // the postgres user (as root) must reach the data folder inside
  await chmod(base, 0o755);
  const dataDir = join(base, 'data');
  const template = await templateCluster();
  // (cp -a keeps the postgres user's ownership and the 0700 mode PostgreSQL requires)
  if (template !== null) await promisify(execFile)('cp', ['-a', template, dataDir]);
  let server = await startLocalPostgres(dataDir, opts.tls ? { tls: opts.tls } : {});
  let running = true;
  cleanups.push(async () => {
    if (running) await server.stop('immediate').catch(() => undefined);
    await rm(base, { recursive: true, force: true });
  });
  const u = new URL(server.url);
  u.password = server.password;
  const t: TestPostgres = {
    ...server,
    urlWithPassword: u.href,
    async stop(mode) {
      await server.stop(mode);
      running = false;
    },
    async restart() {
      server = await startLocalPostgres(dataDir, {
        port: server.port,
        password: server.password,
        ...(opts.tls ? { tls: opts.tls } : {}),
      });
      running = true;
    },
    async query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
      const c = new pg.Client({
        host: '127.0.0.1',
        port: server.port,
        user: 'messenger',
        database: 'messenger',
        password: server.password,
      });
      // An error the server sends while no query is active (57P01 "terminating connection" when it
      // is stopped just as this query ends) is emitted on the client, not on the query: without a
      // listener it would be an uncaught exception of the test process. A query it cuts rejects.
      c.on('error', () => undefined);
      try {
        await c.connect();
        return (await c.query<T>(sql, params)).rows;
      } finally {
        await c.end().catch(() => undefined);
      }
    },
  };
  return t;
}
