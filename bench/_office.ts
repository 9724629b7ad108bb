// What the office-mode benches (office, office-library, office-inbox) start alike: a temporary
// folder, a real PostgreSQL in it (initdb + pg_ctl, as `npm run office-db` does), a reference gateway
// with the demo account, and desks opened on that account (`open`: with `office`, in office mode).
// `close` ends the desks, the gateway and PostgreSQL and removes the folder. Not a bench itself
// (run.ts skips files starting with _).
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDemoAccount } from '../gateway/demo.ts';
import type { NetworkSimulator } from '../gateway/network/simulator.ts';
import { startGateway } from '../gateway/server.ts';
import type { RunningGateway } from '../gateway/server.ts';
import { createMessengerApp } from '../main/services/app.ts';
import type { MessengerApp } from '../main/services/app.ts';
import { startLocalPostgres } from '../main/office/local-server.ts';
import type { LocalPostgres } from '../main/office/local-server.ts';

export interface OfficeBench {
  dir: string;
  server: LocalPostgres;
  gw: RunningGateway;
  /** The gateway's simulated network (a sandbox gateway's: replies can be queued on it). */
  network: NetworkSimulator;
  /** The demo account's login at the gateway. */
  login: { username: string; pin: string };
  /** A desk signed in to the demo account; in office mode on `office` (the server's URL) if given. */
  open(name: string, office?: string): Promise<MessengerApp>;
  close(): Promise<void>;
}

export async function startOfficeBench(
  prefix: string,
  options: { sandbox?: boolean } = {},
): Promise<OfficeBench> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // the postgres user (the bench runs as root) must reach the data folder inside
  chmodSync(dir, 0o755);
  const server = await startLocalPostgres(join(dir, 'pg'));
  const gw = await startGateway({
    dataDir: join(dir, 'gw'),
    port: 0,
    host: '127.0.0.1',
    quiet: true,
    ...(options.sandbox ? { sandbox: true } : {}),
  });
  const login = { username: 'demo', pin: 'demoPIN1' };
  createDemoAccount(gw.ctx.db, { ...login, credit: '10.00' });
  const apps: MessengerApp[] = [];
  return {
    dir,
    server,
    gw,
    network: gw.ctx.network as NetworkSimulator,
    login,
    async open(name, office) {
      const app = await createMessengerApp({
        dataDir: join(dir, name),
        env: office ? { MESSENGER_OFFICE_PASSWORD: server.password } : {},
        log: () => {},
        ...(office ? { office } : {}),
      });
      apps.push(app);
      await app.api.accounts.signIn({ ...login, primaryUrl: gw.url, rememberPin: false });
      return app;
    },
    async close() {
      for (const app of apps) await app.close().catch(() => undefined);
      await gw.close();
      await server.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
