// Issue 15: the sending loop requests the next batch before it stores the answered batch's 350
// results, so the gateway and the app work at the same time; the answer is held in the journal
// (outbox_batches.answer) from before the next request goes out until its results are stored.
// Observed from outside the app: undici reports each request as it writes it to the connection
// (diagnostics channel 'undici:client:sendHeaders'), and a second, read-only connection to the
// app's database shows what the journal had committed at that moment.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import { jobFinished } from '../../support/app.ts';
import { startTestGateway } from '../../support/gateway.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

interface Journaled {
  seq: number;
  state: string;
  held: number;
  stored: number;
}

describe('the sending loop', () => {
  it('writes the next request while the answered batch is only held, then stores it', async () => {
    const gw = await startTestGateway({ credit: '100000.00' });
    cleanups.push(() => gw.close());
    const dir = await mkdtemp(join(tmpdir(), 'messenger-pipeline-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
    cleanups.push(() => a.close());
    await a.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });

    const db = new DatabaseSync(join(dir, 'messenger.sqlite'), { readOnly: true });
    cleanups.push(async () => db.close());
    const journal = db.prepare(
      `SELECT b.seq, b.state, b.answer IS NOT NULL AS held,
              (SELECT count(*) FROM messages m WHERE m.batch_id = b.id AND m.report IS NOT NULL) +
              (SELECT count(*) FROM outbox_recipients r WHERE r.batch_id = b.id AND r.report IS NOT NULL) AS stored
         FROM outbox_batches b ORDER BY b.seq`,
    );
    const atRequest: Journaled[][] = [];
    const onWrite = (message: unknown): void => {
      const { request } = message as { request: { path: string } };
      if (request.path === '/webservices/http/sendsms')
        atRequest.push(journal.all() as unknown as Journaled[]);
    };
    subscribe('undici:client:sendHeaders', onWrite);
    cleanups.push(async () => void unsubscribe('undici:client:sendHeaders', onWrite));

    const numbers = Array.from({ length: 1050 }, (_, i) => String(447400100000 + i));
    const sent = await a.api.send.submit({ recipients: numbers, content: { kind: 'text', text: 'in turn' } });
    const job = await jobFinished(a, sent.job.id);
    expect(job.counts).toMatchObject({ accepted: 1050, pending: 0, sending: 0 });

    expect(atRequest).toHaveLength(3);
    // The second request went out after the first was answered and its answer held, before its
    // 350 results were stored; the third likewise for the second.
    expect(atRequest[1]).toEqual([
      { seq: 1, state: 'sending', held: 1, stored: 0 },
      { seq: 2, state: 'sending', held: 0, stored: 0 },
      { seq: 3, state: 'pending', held: 0, stored: 0 },
    ]);
    expect(atRequest[2]).toEqual([
      { seq: 1, state: 'accepted', held: 0, stored: 350 },
      { seq: 2, state: 'sending', held: 1, stored: 0 },
      { seq: 3, state: 'sending', held: 0, stored: 0 },
    ]);
    // Every answer stored in the end, none left held.
    expect(journal.all()).toEqual([
      { seq: 1, state: 'accepted', held: 0, stored: 350 },
      { seq: 2, state: 'accepted', held: 0, stored: 350 },
      { seq: 3, state: 'accepted', held: 0, stored: 350 },
    ]);
  });
});
