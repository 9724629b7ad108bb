// Issue 17, item 5: the PIN is not sent over plain http to another machine unless the user confirms
// on the sign-in screen or the deploy policy allows it (allowInsecureGateways); an account signed in
// that way is marked `insecure` (the Account view's lasting warning). Loopback http stays allowed.
// Against a real reference gateway listening on this machine's non-loopback address.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import { insecureGatewayUrls } from '../../../main/store/accounts.ts';
import { startTestGateway } from '../../support/gateway.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** An IPv4 address of this machine that is not loopback (the gateway listens on it). */
const LAN = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

async function app(policy?: unknown): Promise<MessengerApp> {
  const dir = await mkdtemp(join(tmpdir(), 'messenger-insecure-'));
  let file: string | undefined;
  if (policy !== undefined) {
    file = join(dir, 'policy.json');
    await writeFile(file, JSON.stringify(policy));
  }
  const a = await createMessengerApp({
    dataDir: dir,
    env: {},
    log: () => {},
    ...(file ? { policy: { file } } : {}),
  });
  cleanups.push(async () => {
    await a.close();
    await rm(dir, { recursive: true, force: true });
  });
  return a;
}

describe('plain-http gateways', () => {
  it('tells loopback from the network', () => {
    expect(
      insecureGatewayUrls([
        'http://127.0.0.1:8080',
        'http://localhost',
        'http://[::1]:1',
        'https://gw.example',
      ]),
    ).toEqual([]);
    expect(insecureGatewayUrls(['http://gw.example', 'http://192.0.2.7:80', null])).toEqual([
      'http://gw.example',
      'http://192.0.2.7:80',
    ]);
  });

  it.skipIf(LAN === undefined)('refuses until confirmed, then marks the account insecure', async () => {
    const gw = await startTestGateway({ gateway: { host: LAN! } });
    cleanups.push(() => gw.close());
    expect(gw.url).toMatch(/^http:\/\/(?!127\.)/);
    const a = await app();
    const req = { username: gw.username, pin: gw.pin, primaryUrl: gw.url, rememberPin: false };
    await expect(a.api.accounts.signIn(req)).rejects.toMatchObject({
      code: 'insecure-gateway',
      message: expect.stringMatching(/plain http.*unencrypted/),
    });
    expect(await a.api.accounts.current()).toBeNull();
    const signed = await a.api.accounts.signIn({ ...req, acceptInsecureGateway: true });
    expect(signed.insecure).toBe(true);
    expect((await a.api.accounts.current())?.insecure).toBe(true);
  });

  it.skipIf(LAN === undefined)('the deploy policy can allow plain http', async () => {
    const gw = await startTestGateway({ gateway: { host: LAN! } });
    cleanups.push(() => gw.close());
    const a = await app({ allowInsecureGateways: true });
    const signed = await a.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    expect(signed.insecure).toBe(true);
  });

  it('loopback http needs no confirmation', async () => {
    const gw = await startTestGateway();
    cleanups.push(() => gw.close());
    const a = await app();
    const signed = await a.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    expect(signed.insecure).toBe(false);
  });
});
