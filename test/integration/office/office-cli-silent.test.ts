// Office mode (issue 28) against a real PostgreSQL: `messenger inbox` on a desk's data folder holds
// the account's collector lease for its run (main/office/cli-office.ts). When the network to the
// office database goes silent (connections stay open, nothing passes: a lost network, not a server
// that closes them), the CLI's queries fail within a bound, as the app's pool's do. Before, its
// connection had no query timeout: the end of a run waited for TCP to give up (minutes), and a lease
// renewal never failed, so the CLI went on collecting after its lease had passed to another desk.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppStore } from '../../../main/store/app-store.ts';
import { openCliOffice } from '../../../main/office/cli-office.ts';
import { startTestGateway } from '../../support/gateway.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { openDesk } from '../../support/office-desk.ts';
import { startTcpProxy } from '../../support/tcp-proxy.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe.skipIf(!havePostgres())(
  'office mode: the CLI on a desk’s folder when the network goes silent',
  () => {
    it('ends its run within the query timeout, its queue kept for the app', async () => {
      const pg = await startTestPostgres(cleanups);
      const gw = await startTestGateway({});
      cleanups.push(() => gw.close());
      const desk = await openDesk(cleanups, gw, pg.urlWithPassword);
      await desk.app.close(); // the folder's app not running: the CLI may take the lease
      const proxy = await startTcpProxy(pg.port);
      cleanups.push(() => proxy.close());
      const viaProxy = `postgres://messenger:${pg.password}@127.0.0.1:${proxy.port}/messenger`;

      const store = openAppStore(join(desk.dir, 'messenger.sqlite'), { defaultCountry: 'GB' });
      cleanups.push(async () => store.close());
      const account = store.accounts.findByLogin(gw.username, gw.url);
      expect(account).not.toBeNull();
      const lines: string[] = [];
      const office = await openCliOffice(store, account, { MESSENGER_OFFICE: viaProxy }, (l) =>
        lines.push(l),
      );
      if (office === null || 'refused' in office)
        throw new Error(`not collecting: ${JSON.stringify(office)}`);
      expect(
        await pg.query('SELECT count(*)::int AS n FROM collector_leases WHERE expires_at > now()'),
      ).toEqual([{ n: 1 }]);

      proxy.cut(); // the network lost: nothing passes, nothing is closed
      const ended = await Promise.race([
        office.close().then(() => 'ended'),
        new Promise((r) => setTimeout(() => r('still waiting'), 45_000).unref()),
      ]);
      expect(ended).toBe('ended');
      expect(lines.join('\n')).toMatch(/wait in this folder's queue/);
    }, 120_000);
  },
);
