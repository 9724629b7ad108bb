// Issue 25 with issue 12 (review of the merge): replies an earlier run spooled but never stored
// (kill -9) are stored at the next start — and handled like any reply collected for the account: a
// STOP among them puts its sender on the account's opt-out list. The start-up recovery ran before
// any session existed, so the opt-out keyword of a recovered reply was never applied.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import { foreignCollectAnswer } from '../../support/foreign-server.ts';
import { startTestGateway } from '../../support/gateway.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('replies a dead run spooled', () => {
  it('are stored once, and a STOP among them is on the opt-out list', async () => {
    const gw = await startTestGateway();
    cleanups.push(() => gw.close());
    const dir = await mkdtemp(join(tmpdir(), 'messenger-reply-recover-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const signIn = (app: Awaited<ReturnType<typeof createMessengerApp>>) =>
      app.api.accounts.signIn({ username: gw.username, pin: gw.pin, primaryUrl: gw.url, rememberPin: false });

    const first = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
    await signIn(first);
    await first.close();

    // What a run killed after spooling a CollectMessages answer leaves (reply-spool.ts).
    const db = new DatabaseSync(join(dir, 'messenger.sqlite'));
    try {
      const row = db
        .prepare(
          `INSERT INTO reply_spool (answer, source, username, owner, received_at)
           VALUES ('answer-of-a-dead-run', 'collect', ?, 'a-run-that-died', ?) RETURNING id`,
        )
        .get(gw.username, Date.now()) as { id: number };
      const body = foreignCollectAnswer([
        { from: '447700900851', text: 'STOP', at: '2026-11-27T09:00:00Z' },
        { from: '447700900852', text: 'thanks', at: '2026-11-27T09:00:01Z' },
      ]);
      db.prepare('INSERT INTO reply_spool_chunks (spool_id, seq, bytes) VALUES (?, 0, ?)').run(
        row.id,
        Buffer.from(body),
      );
    } finally {
      db.close();
    }

    const again = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
    cleanups.push(() => again.close());
    await signIn(again);
    expect(await again.api.inbox.unreadTotal()).toBe(2);
    expect((await again.api.optouts.list()).map((o) => [o.number, o.keyword])).toEqual([
      ['447700900851', 'STOP'],
    ]);
    // nothing stored twice by a second sign-in
    await signIn(again);
    expect(await again.api.inbox.unreadTotal()).toBe(2);
  });
});
