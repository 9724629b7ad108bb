// Crash recovery of the sending loop: the app, in a child process, is killed with SIGKILL in the middle
// of a 5,000-recipient send. On restart every recipient is accepted once, unknown, or still pending
// (never requested); nothing is re-sent by itself; and the gateway's own records show no number twice.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import type { MessengerEvents } from '../../../preload/api.ts';
import { startTestGateway } from '../../support/gateway.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

interface GatewayRow {
  recipient: string;
  message_identifier: string;
}

it('kill -9 mid-send: on restart each recipient is accepted once or unknown, and no number reached the gateway twice', async () => {
  const gw = await startTestGateway({ credit: '100000.00', receiptDelayMs: 60_000 });
  cleanups.push(() => gw.close());
  const dataDir = await mkdtemp(join(tmpdir(), 'messenger-crash-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));

  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, 'crash-child.ts'), dataDir, gw.url, gw.username],
    { env: { ...process.env, MESSENGER_PIN: gw.pin }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  let jobId = 0;
  let answered = 0;
  for await (const line of createInterface({ input: child.stdout })) {
    const msg = JSON.parse(line) as { journaled?: number; batches?: number; jobId?: number };
    if (msg.journaled !== undefined) {
      jobId = msg.journaled;
      expect(msg.batches).toBe(15);
    } else if (++answered === 4) {
      child.kill('SIGKILL');
      break;
    }
  }
  expect(await exited).toBe('SIGKILL');
  expect(jobId).toBeGreaterThan(0);

  const rows = (): GatewayRow[] =>
    gw.ctx.db
      .prepare(
        'SELECT m.recipient, m.message_identifier FROM messages m JOIN accounts a ON a.id = m.account_id WHERE a.username = ?',
      )
      .all(gw.username) as unknown as GatewayRow[];
  // A request the child had sent before it died is still handled by the gateway (its handler does not
  // notice the closed socket): count what reached the gateway once its row count stops moving.
  let atKill = rows().length;
  for (let stableSince = Date.now(), deadline = Date.now() + 10_000; Date.now() < deadline;) {
    await new Promise((r) => setTimeout(r, 50));
    const now = rows().length;
    if (now !== atKill) [atKill, stableSince] = [now, Date.now()];
    else if (Date.now() - stableSince >= 500) break;
  }
  expect(atKill).toBeGreaterThanOrEqual(4 * 350);
  expect(atKill).toBeLessThan(5000);

  const app = await createMessengerApp({ dataDir, env: { MESSENGER_PIN: gw.pin }, log: () => {} });
  cleanups.push(() => app.close());
  const recovered = await new Promise<MessengerEvents['outbox:recovered'] | null>((resolve) => {
    app.events.on('outbox:recovered', resolve);
    setTimeout(() => resolve(null), 500);
  });
  // Signed in again with MESSENGER_PIN, but nothing is sent without the user.
  expect(await app.api.accounts.current()).toMatchObject({ username: gw.username });
  await new Promise((r) => setTimeout(r, 1000));
  expect(rows().length).toBe(atKill);

  const outcomes = await app.api.outbox.recipients(jobId);
  expect(outcomes).toHaveLength(5000);
  const byNumber = new Map<string, GatewayRow[]>();
  for (const r of rows()) byNumber.set(r.recipient, [...(byNumber.get(r.recipient) ?? []), r]);
  for (const [, list] of byNumber) expect(list).toHaveLength(1);

  const unknownBatches = await app.api.outbox.unknownBatches();
  expect(recovered?.batches.map((b) => b.id) ?? []).toEqual(unknownBatches.map((b) => b.id));
  let accepted = 0;
  let pending = 0;
  for (const o of outcomes) {
    expect(['accepted', 'queued', 'unknown', 'pending']).toContain(o.status);
    const sent = byNumber.get(o.to) ?? [];
    if (o.status === 'accepted' || o.status === 'queued') {
      accepted++;
      expect(sent.map((r) => r.message_identifier)).toEqual([o.messageIdentifier]);
    } else if (o.status === 'pending') {
      pending++;
      expect(sent).toEqual([]);
    } else {
      expect(sent.length).toBeLessThanOrEqual(1);
    }
  }
  expect(accepted).toBeGreaterThanOrEqual(4 * 350);
  expect(accepted + pending).toBeGreaterThan(0);
  // What was never requested waits for the user: cancelling it sends nothing.
  await app.api.outbox.cancel(jobId);
  expect(rows().length).toBe(atKill);
}, 120_000);
