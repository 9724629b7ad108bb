// Issue 15's pipelined sending loop: when storing the answered batch's results fails
// (SQLITE_BUSY from a second process on the data folder after busy_timeout, a full disk, an I/O
// error), the next batch's request is already on its way. The loop must not leave that request
// unobserved: its answer must still be stored (or the batch made unknown), and the send chain must
// not start the next job's request while it is in flight (never two requests at once).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { jobFinished } from '../../support/app.ts';
import { startTestGateway } from '../../support/gateway.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('the sending loop when storing an answer fails', () => {
  it('still stores the answer of the request already made, and never has two requests in flight', async () => {
    const gw = await startTestGateway({ credit: '100000.00' });
    cleanups.push(() => gw.close());
    const dir = await mkdtemp(join(tmpdir(), 'messenger-pipeline-error-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const logs: string[] = [];
    const a = await createMessengerApp({ dataDir: dir, env: {}, log: (l) => logs.push(l) });
    cleanups.push(() => a.close());
    await a.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });

    // sendsms requests written and answered, as undici reports them
    let inFlight = 0;
    let maxInFlight = 0;
    const sms = new WeakSet<object>();
    const onWrite = (m: unknown): void => {
      const { request } = m as { request: { path: string } };
      if (request.path !== '/webservices/http/sendsms') return;
      sms.add(request);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
    };
    const onAnswer = (m: unknown): void => {
      const { request } = m as { request: object };
      if (sms.has(request)) inFlight -= 1;
    };
    subscribe('undici:client:sendHeaders', onWrite);
    subscribe('undici:request:headers', onAnswer);
    cleanups.push(async () => {
      unsubscribe('undici:client:sendHeaders', onWrite);
      unsubscribe('undici:request:headers', onAnswer);
    });

    // The first batch's results cannot be stored (once).
    const original = OutboxJournal.prototype.recordResults;
    let failed = false;
    OutboxJournal.prototype.recordResults = function (this: OutboxJournal, ...args) {
      if (!failed) {
        failed = true;
        throw new Error('database is locked');
      }
      return original.apply(this, args);
    };
    cleanups.push(async () => {
      OutboxJournal.prototype.recordResults = original;
    });

    const numbers = Array.from({ length: 1050 }, (_, i) => String(447400100000 + i));
    const first = await a.api.send.submit({ recipients: numbers, content: { kind: 'text', text: 'one' } });
    const second = await a.api.send.submit({
      recipients: numbers.slice(0, 350).map((n) => String(Number(n) + 5000)),
      content: { kind: 'text', text: 'two' },
    });
    await jobFinished(a, second.job.id);
    await new Promise((r) => setTimeout(r, 500));

    expect(failed).toBe(true);
    const batches = await a.api.outbox.batches(first.job.id);
    // The second batch was requested (the gateway answered it): its answer is stored, or the batch
    // is at least unknown; it is not left 'sending' by a live run, where nothing ever recovers it.
    // and never two requests at once
    expect({ second: batches[1]?.state, maxInFlight }).toEqual({
      second: expect.not.stringMatching(/^sending$/),
      maxInFlight: 1,
    });
  });
  it('an answer that cannot be held (holdAnswer fails) does not leave its batch "sending" in a live run', async () => {
    const gw = await startTestGateway({ credit: '100000.00' });
    cleanups.push(() => gw.close());
    const dir = await mkdtemp(join(tmpdir(), 'messenger-pipeline-hold-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const logs: string[] = [];
    const a = await createMessengerApp({ dataDir: dir, env: {}, log: (l) => logs.push(l) });
    cleanups.push(() => a.close());
    await a.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });

    // The first answer cannot be held (SQLITE_BUSY, as the test above has recordResults fail).
    const original = OutboxJournal.prototype.holdAnswer;
    let failed = false;
    OutboxJournal.prototype.holdAnswer = function (this: OutboxJournal, ...args) {
      if (!failed) {
        failed = true;
        throw new Error('database is locked');
      }
      return original.apply(this, args);
    };
    cleanups.push(async () => {
      OutboxJournal.prototype.holdAnswer = original;
    });

    const numbers = Array.from({ length: 1050 }, (_, i) => String(447400200000 + i));
    const first = await a.api.send.submit({ recipients: numbers, content: { kind: 'text', text: 'one' } });
    const second = await a.api.send.submit({
      recipients: numbers.slice(0, 350).map((n) => String(Number(n) + 5000)),
      content: { kind: 'text', text: 'two' },
    });
    await jobFinished(a, second.job.id);
    await new Promise((r) => setTimeout(r, 500));

    expect(failed).toBe(true);
    const batches = await a.api.outbox.batches(first.job.id);
    // The gateway accepted the first batch (350 messages sent); its answer is gone, and the batch
    // must at least be unknown, not 'sending' with nothing left to settle it until a restart.
    expect(batches[0]?.state).not.toBe('sending');
  });
});
