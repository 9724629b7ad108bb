// Office mode (issue 28): a desk killed (SIGKILL) while it imports the shared replies, page by page
// and 100 replies per local transaction (main/office/office.ts importInbound), holds each reply
// once when it is started again: what it committed is kept with its cursor, the rest is imported.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_NUMBER } from '../../../gateway/demo.ts';
import { queueReplies, startTestGateway } from '../../support/gateway.ts';
import { startChildDesk } from '../../support/office-child.ts';
import type { ChildDesk } from '../../support/office-child.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { collectAll, collectorOf, openDesk, waitFor } from '../../support/office-desk.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const REPLIES = 5000;

describe.skipIf(!havePostgres())('office mode, a desk killed while it imports', () => {
  it('holds each reply once when it is started again', async () => {
    const server = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ receiptDelayMs: 100 });
    cleanups.push(() => gw.close());
    const collector = await openDesk(cleanups, gw, server.urlWithPassword);
    await collectorOf([collector]);
    const dir = await mkdtemp(join(tmpdir(), 'office-import-crash-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const children: ChildDesk[] = [];
    cleanups.push(async () => {
      for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) await c.kill();
    });
    const first = await startChildDesk(dir, gw, server, 30);
    children.push(first);

    queueReplies(gw, DEMO_NUMBER, REPLIES);
    expect(await collectAll(collector.app, REPLIES)).toBe(REPLIES);
    // killed as soon as it has stored part of the feed (a page announced), not all of it
    const part = await waitFor('the desk imported a part', async () => first.unread.at(-1)?.n, 60_000);
    await first.kill();
    expect(part).toBeLessThan(REPLIES);

    const again = await startChildDesk(dir, gw, server, 30);
    children.push(again);
    await waitFor(
      'every reply at the desk started again',
      async () => (await again.texts()).total >= REPLIES,
      120_000,
    );
    expect(await again.texts()).toEqual({ total: REPLIES, distinct: REPLIES });
  }, 240_000);
});
