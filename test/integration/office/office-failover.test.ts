// Office mode (issue 28) when things fail, against a real PostgreSQL and a reference gateway: the
// collecting desk (a child process) killed with SIGKILL → another desk collects within two poll
// intervals, nothing lost or doubled; the office database stopped and started again under the
// desks → they say so, keep what they must write, and catch up, each reply once everywhere; the
// collecting desk's network going silent (a relay that stops passing anything) → it stops
// collecting by itself and another desk takes over.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_NUMBER } from '../../../gateway/demo.ts';
import { queueReplies, startTestGateway } from '../../support/gateway.ts';
import { startChildDesk } from '../../support/office-child.ts';
import { startTcpProxy } from '../../support/tcp-proxy.ts';
import type { ChildDesk } from '../../support/office-child.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { inboundTexts, openDesk, POLL_SECONDS, waitFor } from '../../support/office-desk.ts';
import type { MessengerApp } from '../../../main/services/app.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function setup() {
  const server = await startTestPostgres(cleanups);
  const gw = await startTestGateway({ receiptDelayMs: 100 });
  cleanups.push(() => gw.close());
  const childDir = await mkdtemp(join(tmpdir(), 'office-child-'));
  cleanups.push(() => rm(childDir, { recursive: true, force: true }));
  const children: ChildDesk[] = [];
  cleanups.push(async () => {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) await c.kill();
  });
  const child = async (pollSeconds = POLL_SECONDS): Promise<ChildDesk> => {
    const c = await startChildDesk(childDir, gw, server, pollSeconds);
    children.push(c);
    return c;
  };
  return { server, gw, child };
}

/** Waits until the desk holds exactly `n` replies, each once. */
async function holdsEachOnce(app: MessengerApp, n: number, ms = 60_000): Promise<void> {
  const texts = await waitFor(
    `${n} replies`,
    async () => {
      const t = await inboundTexts(app);
      return t.size === n ? t : undefined;
    },
    ms,
  );
  expect([...texts.entries()].filter(([, k]) => k !== 1)).toEqual([]);
}

describe.skipIf(!havePostgres())('office mode when a desk or the office database fails', () => {
  it('kill -9 of the collecting desk: another collects within two poll intervals, nothing lost or doubled', async () => {
    const { server, gw, child } = await setup();
    const a = await child();
    await waitFor('the child desk collects', async () => a.statuses.at(-1)?.collector === true);
    const b = await openDesk(cleanups, gw, server.urlWithPassword);
    expect((await b.app.api.office.status())?.collector).toBe(false);

    queueReplies(gw, DEMO_NUMBER, 1500);
    expect(await a.poll()).toBe(1500);
    await holdsEachOnce(b.app, 1500);

    queueReplies(gw, DEMO_NUMBER, 1500, 1500);
    const killedAt = Date.now();
    await a.kill();
    const tookOver = await waitFor('desk B collects', async () =>
      b.statuses.some((s) => s.collector) ? Date.now() : undefined,
    );
    expect(tookOver - killedAt).toBeLessThan(2 * POLL_SECONDS * 1000);
    await holdsEachOnce(b.app, 3000);

    // The killed desk, started again, catches up on what B collected meanwhile; it no longer collects.
    const again = await child();
    await waitFor('desk A connected', async () => again.statuses.at(-1)?.connected === true);
    expect(await again.poll()).toBe(0);
    await waitFor('desk A holds 3000', async () => (await again.texts()).total === 3000);
    expect(await again.texts()).toEqual({ total: 3000, distinct: 3000 });
    const rows = await server.query<{ n: string; d: string }>(
      'SELECT count(*) AS n, count(DISTINCT uid) AS d FROM inbound',
    );
    expect(rows[0]).toEqual({ n: '3000', d: '3000' });
  }, 180_000);

  it('the office database stopped and started again under the desks: banner, queue, catch-up', async () => {
    const { server, gw, child } = await setup();
    // A long interval: the child's lease (as long as one interval) outlives the server's stop.
    const a = await child(30);
    await waitFor('the child desk collects', async () => a.statuses.at(-1)?.collector === true);
    const b = await openDesk(cleanups, gw, server.urlWithPassword);
    await waitFor('desk B connected', async () => (await b.app.api.office.status())?.connected);

    await server.stop('fast');
    await waitFor('desk B says the office database is away', async () =>
      b.statuses.some((s) => !s.connected && s.error !== null),
    );
    // Desk A still holds its lease: what it collects now is kept and queued for the office database.
    queueReplies(gw, DEMO_NUMBER, 300);
    expect(await a.poll()).toBe(300);
    await waitFor('desk A queued 300', async () => a.statuses.some((s) => s.pending > 0 && !s.connected));
    // Desk B keeps working: its own list changes are queued too.
    await b.app.api.optouts.add(['447700900901']);
    expect((await b.app.api.office.status())?.pending).toBe(1);
    // …and desk A dies before the office database is back.
    await a.kill();

    await server.restart();
    await waitFor('desk B reconnected', async () => (await b.app.api.office.status())?.connected, 60_000);
    // what the renderer's banner follows: connected, lost (with the reason), connected again
    // (connected: false with no error is "connecting", before the first answer)
    const seen = b.statuses.filter((s) => s.connected || s.error !== null).map((s) => s.connected);
    expect(seen.indexOf(false)).toBeGreaterThan(seen.indexOf(true));
    expect(seen.lastIndexOf(true)).toBeGreaterThan(seen.indexOf(false));
    await waitFor('desk B queue written', async () => (await b.app.api.office.status())?.pending === 0);
    // Desk A, started again, writes what it had queued; B imports it, each once.
    const again = await child(30);
    await waitFor(
      'desk A reconnected',
      async () => again.statuses.some((s) => s.connected && s.pending === 0),
      60_000,
    );
    await holdsEachOnce(b.app, 300);
    const shared = await server.query<{ number: string }>('SELECT number FROM opt_outs');
    expect(shared).toEqual([{ number: '447700900901' }]);
    const rows = await server.query<{ n: string }>('SELECT count(*) AS n FROM inbound');
    expect(rows[0]).toEqual({ n: '300' });
    expect(await again.texts()).toEqual({ total: 300, distinct: 300 });
  }, 180_000);
});

describe.skipIf(!havePostgres())('office mode when the collecting desk loses the network', () => {
  it('stops collecting by itself; another desk takes over within two poll intervals; it catches up when back', async () => {
    const server = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ receiptDelayMs: 100 });
    cleanups.push(() => gw.close());
    const proxy = await startTcpProxy(server.port);
    cleanups.push(() => proxy.close());
    const viaProxy = `postgres://messenger:${server.password}@127.0.0.1:${proxy.port}/messenger`;
    const a = await openDesk(cleanups, gw, viaProxy);
    await waitFor('desk A collects', async () => (await a.app.api.office.status())?.collector);
    const b = await openDesk(cleanups, gw, server.urlWithPassword);
    await waitFor('desk B connected', async () => (await b.app.api.office.status())?.connected);

    queueReplies(gw, DEMO_NUMBER, 200);
    const cutAt = Date.now();
    proxy.cut();
    const tookOver = await waitFor('desk B collects', async () =>
      b.statuses.some((s) => s.collector) ? Date.now() : undefined,
    );
    expect(tookOver - cutAt).toBeLessThan(2 * POLL_SECONDS * 1000);
    // Desk A no longer collects (its lease ran out by its own clock) and says it lost the database.
    expect((await a.app.api.office.status())?.collector).toBe(false);
    await waitFor(
      'desk A says so',
      async () => a.statuses.some((s) => !s.connected && s.error !== null),
      30_000,
    );
    expect(await a.app.api.inbox.pollNow()).toEqual({ received: 0 });
    await holdsEachOnce(b.app, 200);

    proxy.restore();
    await waitFor('desk A reconnected', async () => (await a.app.api.office.status())?.connected, 60_000);
    await holdsEachOnce(a.app, 200);
    expect((await server.query<{ n: string }>('SELECT count(*) AS n FROM inbound'))[0]).toEqual({ n: '200' });
  }, 180_000);
});
