// Office mode (issue 28) and receipts that come early (issue 25, a report of the day): desk A's send's
// receipts are pushed to desk B (the account's one push URL) before desk A has stored the send's
// answer; desk B passes them on through the office database and desk A reads them while its answer
// is still on its way. Desk A keeps them and applies them with the answer: none is lost.
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestGateway } from '../../support/gateway.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { openDesk, waitFor } from '../../support/office-desk.ts';
import { startTcpProxy } from '../../support/tcp-proxy.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** How far a desk has read the office database's receipts (its cursor, 0 before any). */
function receiptsCursor(dir: string): number {
  const db = new DatabaseSync(join(dir, 'messenger.sqlite'), { readOnly: true });
  try {
    const rows = db
      .prepare("SELECT value FROM office_state WHERE key LIKE 'cursor:%:receipts:%'")
      .all() as Array<{
      value: string;
    }>;
    return Math.max(0, ...rows.map((r) => Number(r.value)));
  } finally {
    db.close();
  }
}

describe.skipIf(!havePostgres())('office mode: receipts before the answer', () => {
  it("receipts of desk A's send that reach desk A through the office before its answer are applied", async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ receiptDelayMs: 0 });
    cleanups.push(() => gw.close());
    // both desks reach the gateway through a relay that can hold its answers (one address: one account)
    const relay = await startTcpProxy(Number(new URL(gw.url).port));
    cleanups.push(() => relay.close());
    const viaRelay = { ...gw, url: `http://127.0.0.1:${relay.port}` };
    const a = await openDesk(cleanups, viaRelay, pg.urlWithPassword);
    const b = await openDesk(cleanups, viaRelay, pg.urlWithPassword);
    await b.app.api.settings.update({ pushReceiver: { enabled: true, port: null } });
    gw.ctx.db
      .prepare('UPDATE accounts SET push_url = ? WHERE username = ?')
      .run(b.app.pushReceiverUrl(), gw.username);

    relay.cut('answers'); // the send reaches the gateway; its answer waits
    const sent = await a.app.api.send.submit({
      recipients: ['447700900302', '447700900303', '447700900304'],
      content: { kind: 'text', text: 'Early receipts' },
    });
    // the gateway pushed the three receipts to desk B, which passed them to the office database ...
    await waitFor(
      'the receipts in the office database',
      async () =>
        ((await pg.query('SELECT count(*)::int AS n FROM receipts')) as Array<{ n: number }>)[0]?.n === 3,
      30_000,
    );
    const [{ id: last } = { id: 0 }] = (await pg.query('SELECT max(id)::int AS id FROM receipts')) as Array<{
      id: number;
    }>;
    // ... and desk A read them there while its answer was still held
    await waitFor('desk A reads the receipts', async () => receiptsCursor(a.dir) >= last, 30_000);
    expect((await a.app.api.outbox.job(sent.job.id))?.counts.sending).toBe(3);
    relay.restore();
    const done = await waitFor(
      'the receipts applied at A',
      async () => {
        const rs = await a.app.api.outbox.recipients(sent.job.id);
        return rs.every((r) => r.status === 'delivered') ? rs : null;
      },
      30_000,
    ).catch(async () => a.app.api.outbox.recipients(sent.job.id));
    expect(done.map((r) => [r.to, r.status])).toEqual([
      ['447700900302', 'delivered'],
      ['447700900303', 'delivered'],
      ['447700900304', 'delivered'],
    ]);
  }, 120_000);
});
