// Issue 15's pipelined sending loop when the journal refuses a write (SQLITE_BUSY from a second
// process on the data folder after busy_timeout, a full disk, an I/O error). Storing the answered
// batch's results fails while the next batch's request is already on its way: that request's answer
// must still be stored (or its batch made unknown), and the send chain must not start the next job's
// request while it is in flight (never two requests at once). Holding an answer fails (no request is
// out then): the answered batch is stored at once or made unknown, never left 'sending'.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import type { MessengerApp } from '../../../main/services/app.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import type { OutboxBatch } from '../../../preload/api.ts';
import { jobFinished, signedInApp, type Cleanups } from '../../support/app.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** The journal's `method` throws "database is locked" the first time it is called. */
function failOnce(method: 'recordResultsCounted' | 'holdAnswer'): { failed: () => boolean } {
  const proto = OutboxJournal.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = proto[method]!;
  let failed = false;
  proto[method] = function (this: OutboxJournal, ...args: unknown[]) {
    if (!failed) {
      failed = true;
      throw new Error('database is locked');
    }
    return original.apply(this, args);
  };
  cleanups.push(async () => {
    proto[method] = original;
  });
  return { failed: () => failed };
}

/** A job of three batches, then a job of one; the batches of the first once the second is done. */
async function twoJobs(a: MessengerApp, from: number): Promise<OutboxBatch[]> {
  const numbers = Array.from({ length: 1050 }, (_, i) => String(from + i));
  const first = await a.api.send.submit({ recipients: numbers, content: { kind: 'text', text: 'one' } });
  const second = await a.api.send.submit({
    recipients: numbers.slice(0, 350).map((n) => String(Number(n) + 5000)),
    content: { kind: 'text', text: 'two' },
  });
  await jobFinished(a, second.job.id);
  await new Promise((r) => setTimeout(r, 500));
  return a.api.outbox.batches(first.job.id);
}

describe('the sending loop when the journal refuses a write', () => {
  it('still stores the answer of the request already made, and never has two requests in flight', async () => {
    const { a } = await signedInApp(cleanups, 'messenger-pipeline-error-', { credit: '100000.00' });
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
    // The first batch's results cannot be stored (once): the loop stores them with
    // recordResultsCounted (recordResults counted by status, issue 27 item 6).
    const fault = failOnce('recordResultsCounted');

    const batches = await twoJobs(a, 447400100000);
    expect(fault.failed()).toBe(true);
    // The second batch was requested (the gateway answered it): its answer is stored, or the batch
    // is at least unknown; it is not left 'sending' by a live run, where nothing ever recovers it.
    expect({ second: batches[1]?.state, maxInFlight }).toEqual({
      second: expect.not.stringMatching(/^sending$/),
      maxInFlight: 1,
    });
  });

  it('an answer that cannot be held (holdAnswer fails) does not leave its batch "sending" in a live run', async () => {
    const { a } = await signedInApp(cleanups, 'messenger-pipeline-hold-', { credit: '100000.00' });
    const fault = failOnce('holdAnswer');

    const batches = await twoJobs(a, 447400200000);
    expect(fault.failed()).toBe(true);
    // The gateway accepted the first batch (350 messages sent): its answer is stored at once, or the
    // batch is at least unknown, not 'sending' with nothing left to settle it until a restart.
    expect(batches[0]?.state).not.toBe('sending');
  });
});
