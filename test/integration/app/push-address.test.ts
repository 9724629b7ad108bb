// Issue 17, item 17: the app's push receiver keeps one address (port and path) across restarts, so
// receipts the gateway retries after the app came back reach it; a kept port taken by another
// program gives way to a new one (kept from then on).
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import { startTestGateway } from '../../support/gateway.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('push receiver address', () => {
  it('is the same after a restart, and moves only when its port is taken', async () => {
    const gw = await startTestGateway();
    cleanups.push(() => gw.close());
    const dir = await mkdtemp(join(tmpdir(), 'messenger-push-address-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const run = async () =>
      createMessengerApp({ dataDir: dir, env: { MESSENGER_PIN: gw.pin }, log: () => {} });

    const first = await run();
    await first.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    await first.api.settings.update({ pushReceiver: { enabled: true, port: null } });
    const url = first.pushReceiverUrl();
    expect(url).toMatch(/\/push\/[0-9a-f]{32}$/);
    await first.close();

    const second = await run();
    cleanups.push(() => second.close());
    await second.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    expect(second.pushReceiverUrl()).toBe(url);
    await second.close();

    // Another program took the port meanwhile.
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(Number(new URL(url!).port), '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => squatter.close(() => r())));
    const third = await run();
    cleanups.push(() => third.close());
    await third.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    const moved = third.pushReceiverUrl();
    expect(moved).not.toBe(url);
    expect(new URL(moved!).pathname).toBe(new URL(url!).pathname);
  });
});
