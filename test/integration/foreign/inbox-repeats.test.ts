// Issue 24, item 1: a gateway that never removes collected messages answers every CollectMessages
// with the same full page. `inbox` and the app's poller make at most a few calls, keep each message
// once, and say plainly that the gateway keeps returning the same messages.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli as cli } from '../../support/cli-run.ts';
import { createMessengerApp } from '../../../main/services/app.ts';
import { foreignCollectAnswer, foreignServer } from '../../support/foreign-server.ts';
import type { ForeignRequest, ForeignServer } from '../../support/foreign-server.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const PAGE = [
  { from: '447700900301', text: 'first', at: '2026-11-27T08:00:00Z' },
  { from: '447700900302', text: 'second', at: '2026-11-27T08:01:00Z' },
  { from: '447700900303', text: 'third', at: '2026-11-27T08:02:00Z' },
];

const isCollect = (r: ForeignRequest): boolean =>
  r.method === 'POST' && r.body.toString('utf8').includes('CollectMessages');

/** Answers every CollectMessages with the same three messages; credit for the sign-in probe. */
async function keepingServer(): Promise<ForeignServer> {
  const server = await foreignServer((r) => {
    if (isCollect(r)) return { body: foreignCollectAnswer(PAGE) };
    if (r.path.includes('queryaccount'))
      return { contentType: 'text/plain', body: 'Currency=GBP&AvailableCredit=5.0000' };
    return { status: 404, contentType: 'text/plain', body: 'not here' };
  });
  cleanups.push(() => server.close());
  return server;
}

describe('a gateway that never removes collected messages', () => {
  it('inbox: two calls, each message printed once, and a warning', async () => {
    const server = await keepingServer();
    const env = { MESSENGER_URL: server.url, MESSENGER_USERNAME: 'acme.1', MESSENGER_PIN: 'Secret9' };
    const r = await cli(['inbox'], env);
    expect(r.code).toBe(0);
    expect(server.requests.filter(isCollect).length).toBeLessThanOrEqual(2);
    expect(r.out.trim().split('\n')).toHaveLength(3);
    for (const m of PAGE) expect(r.out.split(m.text).length - 1).toBe(1);
    expect(r.err).toMatch(/keeps returning the same messages/);

    const json = await cli(['inbox', '--json'], env);
    const doc = JSON.parse(json.out) as { value: { MessageList: { item: unknown[] } }; warning: string };
    expect(doc.value.MessageList.item).toHaveLength(3);
    expect(doc.warning).toMatch(/keeps returning the same messages/);
  });

  it('the poller: a few calls a poll, each message stored once, a warning logged and returned', async () => {
    const server = await keepingServer();
    const dir = await mkdtemp(join(tmpdir(), 'messenger-repeats-'));
    const logged: string[] = [];
    const a = await createMessengerApp({ dataDir: dir, env: {}, log: (l) => logged.push(l) });
    cleanups.push(async () => {
      await a.close();
      await rm(dir, { recursive: true, force: true });
    });
    await a.api.accounts.signIn({
      username: 'acme.1',
      pin: 'Secret9',
      primaryUrl: server.url,
      rememberPin: false,
    });
    const before = server.requests.filter(isCollect).length;
    const first = await a.api.inbox.pollNow();
    expect(first.received).toBe(3);
    const afterFirst = server.requests.filter(isCollect).length;
    expect(afterFirst - before).toBeLessThanOrEqual(2);
    expect(first.warning).toMatch(/keeps returning the same messages/);
    const second = await a.api.inbox.pollNow();
    expect(second.received).toBe(0);
    expect(server.requests.filter(isCollect).length - afterFirst).toBe(1);
    expect(second.warning).toMatch(/keeps returning the same messages/);
    expect(logged.filter((l) => l.includes('keeps returning the same messages'))).toHaveLength(1);
    expect(await a.api.inbox.unreadTotal()).toBe(3);
  });

  it("the poller after a restart, and a dead run's spooled answer: the messages already kept are not kept again", async () => {
    const server = await keepingServer();
    const dir = await mkdtemp(join(tmpdir(), 'messenger-repeats-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const open = async () => {
      const app = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
      await app.api.accounts.signIn({
        username: 'acme.1',
        pin: 'Secret9',
        primaryUrl: server.url,
        rememberPin: false,
      });
      return app;
    };
    const first = await open();
    expect((await first.api.inbox.pollNow()).received).toBe(3);
    await first.close();

    // A later run was killed with the gateway's next (same) answer on disk, not yet parsed.
    const db = new DatabaseSync(join(dir, 'messenger.sqlite'));
    try {
      const row = db
        .prepare(
          `INSERT INTO reply_spool (answer, source, username, owner, received_at)
           VALUES ('answer-of-a-dead-run', 'collect', 'acme.1', 'a-run-that-died', ?) RETURNING id`,
        )
        .get(Date.now()) as { id: number };
      db.prepare('INSERT INTO reply_spool_chunks (spool_id, seq, bytes) VALUES (?, 0, ?)').run(
        row.id,
        Buffer.from(foreignCollectAnswer(PAGE)),
      );
    } finally {
      db.close();
    }

    const again = await open();
    cleanups.push(() => again.close());
    expect(await again.api.inbox.unreadTotal()).toBe(3);
    const before = server.requests.filter(isCollect).length;
    const poll = await again.api.inbox.pollNow();
    expect(poll.received).toBe(0);
    expect(server.requests.filter(isCollect).length - before).toBeLessThanOrEqual(2);
    expect(await again.api.inbox.unreadTotal()).toBe(3);
  });
});
