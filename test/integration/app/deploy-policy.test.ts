// The deploy policy enforced by the app facade against a real reference gateway: a locked gateway
// URL (others refused, the policy's secondary used), allowed usernames, the local sandbox refused,
// the poll interval clamped to the bounds, a bad policy file (safe defaults, the error exposed by
// policy.get()) and an account signed in before the policy came being signed out at start.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import { startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function gateway(): Promise<TestGateway> {
  const gw = await startTestGateway({ secondary: true });
  cleanups.push(() => gw.close());
  return gw;
}

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'messenger-policy-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** An app whose deploy policy is the file `policy` written into its data folder. */
async function appWith(dir: string, policy: unknown): Promise<MessengerApp> {
  const file = join(dir, 'policy.json');
  await writeFile(file, typeof policy === 'string' ? policy : JSON.stringify(policy));
  const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {}, policy: { file } });
  const close = a.close.bind(a);
  let closed = false;
  a.close = async () => {
    if (closed) return;
    closed = true;
    await close();
  };
  cleanups.push(() => a.close());
  return a;
}

describe('deploy policy enforcement', () => {
  it('locks the gateway URL: another URL is refused, the policy URLs are the ones used', async () => {
    const gw = await gateway();
    const other = await gateway();
    const app = await appWith(await dataDir(), {
      gateway: { primaryUrl: gw.url, secondaryUrl: gw.secondaryUrl, locked: true },
    });
    expect((await app.api.policy.get()).gateway).toEqual({
      primaryUrl: gw.url,
      secondaryUrl: gw.secondaryUrl,
      locked: true,
    });
    await expect(
      app.api.accounts.signIn({
        username: other.username,
        pin: other.pin,
        primaryUrl: other.url,
        rememberPin: false,
      }),
    ).rejects.toMatchObject({
      code: 'policy',
      message: `the deploy policy allows only the gateway ${gw.url}, not ${other.url}`,
    });
    expect(await app.api.accounts.list()).toEqual([]);
    const account = await app.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: `${gw.url}/`,
      rememberPin: false,
    });
    expect(account).toMatchObject({ primaryUrl: gw.url, secondaryUrl: gw.secondaryUrl });
  });

  it('refuses usernames the policy does not allow, with the reason', async () => {
    const gw = await gateway();
    const allowed = gw.addAccount({ credit: '1.00' });
    const app = await appWith(await dataDir(), { allowedUsernames: [allowed.username] });
    await expect(
      app.api.accounts.signIn({ username: gw.username, pin: gw.pin, primaryUrl: gw.url, rememberPin: false }),
    ).rejects.toMatchObject({
      code: 'policy',
      message: `the deploy policy does not allow the account "${gw.username}" on this computer (allowed: ${allowed.username})`,
    });
    await expect(
      app.api.accounts.signIn({
        username: allowed.username,
        pin: allowed.pin,
        primaryUrl: gw.url,
        rememberPin: false,
      }),
    ).resolves.toMatchObject({ username: allowed.username });
  });

  it('refuses the local sandbox when the policy does not offer it', async () => {
    const app = await appWith(await dataDir(), { offerSandbox: false });
    await expect(app.api.accounts.signIn({ sandbox: true })).rejects.toMatchObject({
      code: 'policy',
      message: 'the deploy policy of this computer does not offer the local sandbox',
    });
    expect(await app.api.accounts.current()).toBeNull();
  });

  it('clamps the poll interval setting to the bounds', async () => {
    const app = await appWith(await dataDir(), { pollIntervalSeconds: { min: 60, max: 120 } });
    expect((await app.api.settings.get()).pollIntervalSeconds).toBe(60);
    expect((await app.api.settings.update({ pollIntervalSeconds: 5 })).pollIntervalSeconds).toBe(60);
    expect((await app.api.settings.update({ pollIntervalSeconds: 90 })).pollIntervalSeconds).toBe(90);
    expect((await app.api.settings.update({ pollIntervalSeconds: 3600 })).pollIntervalSeconds).toBe(120);
    expect((await app.api.policy.get()).pollIntervalSeconds).toEqual({ min: 60, max: 120 });
  });

  it('hands its update rules to the update checker: channel, and checks off when disabled', async () => {
    const gw = await gateway();
    const beta = await appWith(await dataDir(), { updates: { enabled: true, channel: 'beta' } });
    expect(await beta.api.updates.status()).toMatchObject({ enabled: true, channel: 'beta' });
    const off = await appWith(await dataDir(), { updates: { enabled: false } });
    expect(await off.api.updates.status()).toMatchObject({ enabled: false });
    await off.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    await expect(off.api.updates.check()).rejects.toMatchObject({ code: 'updates-disabled' });
  });

  it('starts with safe defaults on a bad file and exposes the path and every problem', async () => {
    const dir = await dataDir();
    const app = await appWith(dir, { offerSandbox: 'maybe', pollIntervalSeconds: { min: 1, max: 60 } });
    const p = await app.api.policy.get();
    expect(p.error).toEqual({
      path: join(dir, 'policy.json'),
      problems: [
        'pollIntervalSeconds.min: must be a whole number from 5 to 3600 (1)',
        'offerSandbox: must be true or false ("maybe")',
      ],
    });
    expect(p).toMatchObject({ offerSandbox: false, updates: { enabled: false }, allowedUsernames: null });
    await expect(app.api.accounts.signIn({ sandbox: true })).rejects.toMatchObject({ code: 'policy' });
    expect(await app.api.updates.status()).toMatchObject({ enabled: false });
    // Signing in to a gateway stays possible.
    const gw = await gateway();
    await expect(
      app.api.accounts.signIn({ username: gw.username, pin: gw.pin, primaryUrl: gw.url, rememberPin: false }),
    ).resolves.toMatchObject({ username: gw.username });
  });

  it('signs out at start an account the policy no longer allows', async () => {
    const gw = await gateway();
    const dir = await dataDir();
    const first = await appWith(dir, {});
    await first.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    await first.close();
    const logs: string[] = [];
    const file = join(dir, 'policy.json');
    await writeFile(file, JSON.stringify({ allowedUsernames: ['someone.else'] }));
    const again = await createMessengerApp({
      dataDir: dir,
      env: { MESSENGER_PIN: gw.pin },
      log: (m) => logs.push(m),
      policy: { file },
    });
    cleanups.push(() => again.close());
    expect(await again.api.accounts.current()).toBeNull();
    expect(logs.join('\n')).toContain(`signed out of ${gw.username}: the deploy policy does not allow`);
  });
});
