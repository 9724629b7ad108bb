// Issue 17, item 19: an interrupted send continues with only the recipients never requested: each
// number reaches the gateway exactly once, however the send was interrupted; nothing to continue
// is refused with the reason.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import { messageCount, startTestGateway } from '../../support/gateway.ts';
import { jobFinished, loopStopped } from '../../support/app.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('Continue sending', () => {
  it('sends only what was never requested, once', { timeout: 60_000 }, async () => {
    const gw = await startTestGateway({ credit: '100000.00' });
    cleanups.push(() => gw.close());
    const dir = await mkdtemp(join(tmpdir(), 'messenger-continue-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
    cleanups.push(() => a.close());
    const signIn = () =>
      a.api.accounts.signIn({ username: gw.username, pin: gw.pin, primaryUrl: gw.url, rememberPin: false });
    await signIn();
    const numbers = Array.from({ length: 2000 }, (_, i) => `447911${201000 + i}`);
    const firstBatch = new Promise<void>((resolve) => a.events.on('outbox:progress', () => resolve()));
    const sent = await a.api.send.submit({
      recipients: numbers,
      content: { kind: 'text', text: 'continue me' },
    });
    await firstBatch;
    await a.api.accounts.signOut();
    const before = await loopStopped(a, sent.job.id);
    expect(before.map((b) => b.state)).toContain('pending');
    const requested = before
      .filter((b) => b.state !== 'pending')
      .reduce((n, b) => n + b.recipients.length, 0);
    expect(messageCount(gw.ctx, gw.username)).toBe(requested);

    await expect(a.api.outbox.continue(sent.job.id)).rejects.toMatchObject({ code: 'not-signed-in' });
    await signIn();
    await a.api.outbox.continue(sent.job.id);
    await jobFinished(a, sent.job.id);
    const after = await a.api.outbox.batches(sent.job.id);
    expect(after.every((b) => b.state === 'accepted')).toBe(true);
    // Every number requested exactly once: none of the first batch again.
    expect(messageCount(gw.ctx, gw.username)).toBe(numbers.length);
    await expect(a.api.outbox.continue(sent.job.id)).rejects.toMatchObject({
      code: 'invalid-state',
      message: expect.stringMatching(/never requested/),
    });
  });
});
