// The push receiver under races: settings changes and a sign-out while a receiver is starting must
// leave no server listening that nothing closes (a fixed port would then be taken for good).
import { createServer, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { signedInApp } from '../../support/app.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('push receiver races', () => {
  it('two quick port changes and a sign-out leave nothing listening', async () => {
    const { a } = await signedInApp(cleanups, 'messenger-app-', {});
    const [p1, p2] = [await freePort(), await freePort()];
    const changes = [
      a.api.settings.update({ pushReceiver: { enabled: true, port: p1 } }),
      a.api.settings.update({ pushReceiver: { enabled: true, port: p2 } }),
      a.api.accounts.signOut(),
    ];
    await Promise.allSettled(changes);
    // Let any start still under way finish.
    await new Promise((r) => setTimeout(r, 200));
    expect(a.pushReceiverUrl()).toBeNull();
    expect(await listening(p1)).toBe(false);
    expect(await listening(p2)).toBe(false);
  });

  it('a settings change while signed in moves the receiver: the old port is free, the new one answers', async () => {
    const { a } = await signedInApp(cleanups, 'messenger-app-', {});
    const [p1, p2] = [await freePort(), await freePort()];
    await Promise.all([
      a.api.settings.update({ pushReceiver: { enabled: true, port: p1 } }),
      a.api.settings.update({ pushReceiver: { enabled: true, port: p2 } }),
    ]);
    expect(a.pushReceiverUrl()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${p2}/push/`));
    expect(await listening(p1)).toBe(false);
    expect(await listening(p2)).toBe(true);
  });
});
