// Issue 25 item 4: a full disk while sending. The data folder is a small tmpfs; the gateway's answer
// to the send is held while the disk is filled to the last byte, then let through: the journal
// takes no write (SQLITE_FULL), the sending loop stops, and the app says so at once ('outbox:halted')
// and to a view opened later (outbox.halts()), instead of the send staying "sending" with the error
// only in the log. Needs root for mount(8) (skipped otherwise).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import type { SendHalt } from '../../../preload/api.ts';
import { startFrontGateway } from '../../support/front-gateway.ts';
import { startTestGateway } from '../../support/gateway.ts';
import type { Cleanups } from '../../support/app.ts';
import { canMount, fillDisk, smallDisk } from '../../support/small-disk.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe.skipIf(!canMount)('a full disk while sending', () => {
  it('stops the send and says so, not "sending" until a restart', { timeout: 60_000 }, async () => {
    const gw = await startTestGateway();
    cleanups.push(() => gw.close());
    // The send's request is held until the disk is full.
    let release: () => void = () => undefined;
    let arrived: () => void = () => undefined;
    const requested = new Promise<void>((r) => (arrived = r));
    const front = await startFrontGateway(gw.url, {
      answer: null,
      probes: 0,
      intercept: (path) => {
        if (path !== '/webservices/http/sendsms') return 'pass';
        arrived();
        return new Promise((r) => (release = () => r('pass')));
      },
    });
    cleanups.push(() => front.close());
    const disk = smallDisk('16m');
    expect(disk).not.toBeNull();
    const dataDir = join(disk!, 'data');
    const filler = join(disk!, 'filler');
    cleanups.push(async () => {
      execFileSync('umount', [disk!]);
      rmSync(disk!, { recursive: true, force: true });
    });
    const a = await createMessengerApp({ dataDir, env: {}, log: () => {} });
    cleanups.push(async () => {
      rmSync(filler, { force: true });
      await a.close();
    });
    const halted: SendHalt[] = [];
    a.events.on('outbox:halted', (h) => halted.push(h));
    await a.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: front.url,
      rememberPin: false,
      acceptInsecureGateway: true,
    });

    const { job } = await a.api.send.submit({
      recipients: ['447700900601', '447700900602'],
      content: { kind: 'text', text: 'Full disk' },
    });
    await requested;
    fillDisk(filler);
    release();

    await expect.poll(() => halted.length, { timeout: 30_000 }).toBe(1);
    expect(halted[0]).toMatchObject({ jobId: job.id });
    expect(halted[0]!.reason).toMatch(/full/i);
    // A view opened now learns it too; the journal still says 'sending' (it took no write).
    expect(await a.api.outbox.halts()).toEqual(halted);
    expect((await a.api.outbox.job(job.id))?.counts.sending).toBe(2);
  });
});
