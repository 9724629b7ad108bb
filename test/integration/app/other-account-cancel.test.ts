// Review of issue 25 item 5 ("nothing of another account is offered for action"): Continue sending
// and Resend refuse a send of another account, and so does Cancel: signed in to account B, the
// pending rest of account A's send is not cancelled (A continues it after signing in again).
// Nor is it read: outbox.job, outbox.batches and outbox.recipients refuse another account's send
// with the same check (History and the campaign view already list the signed-in account's only).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import { startFrontGateway } from '../../support/front-gateway.ts';
import { startTestGateway } from '../../support/gateway.ts';
import { loopStopped } from '../../support/app.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe("another account's send", () => {
  it('is not cancelled while another account is signed in', { timeout: 60_000 }, async () => {
    const gw = await startTestGateway({ credit: '100000.00' });
    cleanups.push(() => gw.close());
    // Account A's gateway behind a front that holds every send request after the first until the
    // test lets them go: the sign-in below surely comes while batches are still to be sent (on a
    // busy machine a fast send could otherwise finish before it).
    let sends = 0;
    let letGo: (go: 'pass') => void = () => {};
    const held = new Promise<'pass'>((r) => (letGo = r));
    const front = await startFrontGateway(gw.url, {
      answer: null,
      probes: 0,
      intercept: (path) => (path.endsWith('/http/sendsms') && ++sends > 1 ? held : 'pass'),
    });
    cleanups.push(() => front.close());
    const other = await startTestGateway({ credit: '100000.00' });
    cleanups.push(() => other.close());
    const dir = await mkdtemp(join(tmpdir(), 'messenger-other-cancel-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
    cleanups.push(() => a.close());
    const signInA = () =>
      a.api.accounts.signIn({
        username: gw.username,
        pin: gw.pin,
        primaryUrl: front.url,
        rememberPin: false,
      });
    await signInA();
    const numbers = Array.from({ length: 2_000 }, (_, i) => `447911${200000 + i}`);
    // the batches answered so far (the loop decides whether to go on before it says so)
    let answered = 0;
    const answeredTimes = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (answered >= n ? resolve() : setTimeout(check, 10));
        check();
      });
    a.events.on('outbox:progress', () => answered++);
    const firstBatch = answeredTimes(1);
    const sent = await a.api.send.submit({ recipients: numbers, content: { kind: 'text', text: 'mine' } });
    await firstBatch;
    await a.api.accounts.signIn({
      username: other.username,
      pin: other.pin,
      primaryUrl: other.url,
      rememberPin: false,
    });
    await expect(a.api.outbox.cancel(sent.job.id)).rejects.toMatchObject({ code: 'invalid-state' });
    letGo('pass'); // the request in flight at the sign-in is answered; nothing after it is asked
    // (its answer seen while B is signed in: signing in to A again before it would let the loop go on)
    await answeredTimes(2);
    // Back in account A (sending does not resume by itself): the rest is still pending, none cancelled.
    await signInA();
    const after = await loopStopped(a, sent.job.id);
    expect(after.map((b) => b.state)).toContain('pending');
    expect(after.map((b) => b.state)).not.toContain('cancelled');
  });

  it('is not read while another account is signed in', { timeout: 60_000 }, async () => {
    const gw = await startTestGateway({ credit: '100000.00' });
    cleanups.push(() => gw.close());
    const other = await startTestGateway({ credit: '100000.00' });
    cleanups.push(() => other.close());
    const dir = await mkdtemp(join(tmpdir(), 'messenger-other-read-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
    cleanups.push(() => a.close());
    const signIn = (g: typeof gw) =>
      a.api.accounts.signIn({ username: g.username, pin: g.pin, primaryUrl: g.url, rememberPin: false });
    await signIn(gw);
    const sent = await a.api.send.submit({
      recipients: ['447911200001'],
      content: { kind: 'text', text: 'mine' },
    });
    await loopStopped(a, sent.job.id);
    expect((await a.api.outbox.job(sent.job.id))?.id).toBe(sent.job.id);
    expect(await a.api.outbox.recipients(sent.job.id)).toHaveLength(1);

    await signIn(other);
    const refused = { code: 'invalid-state', message: expect.stringMatching(/another account/) };
    await expect(a.api.outbox.job(sent.job.id)).rejects.toMatchObject(refused);
    await expect(a.api.outbox.batches(sent.job.id)).rejects.toMatchObject(refused);
    await expect(a.api.outbox.recipients(sent.job.id)).rejects.toMatchObject(refused);
    // A send of B's own is read as before.
    const own = await a.api.send.submit({
      recipients: ['447911200002'],
      content: { kind: 'text', text: 'b' },
    });
    expect(await loopStopped(a, own.job.id)).toHaveLength(1);
    expect((await a.api.outbox.job(own.job.id))?.id).toBe(own.job.id);
    expect(await a.api.outbox.recipients(own.job.id)).toHaveLength(1);

    // Signed in to A again, its send reads as before.
    await signIn(gw);
    expect(await a.api.outbox.batches(sent.job.id)).toHaveLength(1);
  });
});
