// Issue 28: the Account view's office database setting: a URL without a password, the password kept
// by the OS keyring (main/electron/secrets.ts over a safeStorage stand-in with a real cipher), applied
// at the next start against a real PostgreSQL; refused without a keyring, locked by --office or the
// deploy policy; the password never in the data folder in clear.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSafeStorageSecretStore } from '../../../main/electron/secrets.ts';
import { NO_POLICY } from '../../../main/services/deploy-policy.ts';
import { createMessengerApp } from '../../../main/services/app.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { waitFor } from '../../support/office-desk.ts';
import { safeStorageStandIn } from '../../support/safe-storage-standin.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'office-setting-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe.skipIf(!havePostgres())('the office database setting', () => {
  it('keeps the password in the keyring and applies at the next start', async () => {
    const server = await startTestPostgres(cleanups);
    const dir = await dataDir();
    const secrets = await createSafeStorageSecretStore(safeStorageStandIn(), 'linux');
    const first = await createMessengerApp({ dataDir: dir, env: {}, log: () => {}, secrets });
    expect(await first.api.office.status()).toBeNull();
    expect(await first.api.office.setting()).toMatchObject({ url: null, source: null, keyring: true });
    await expect(
      first.api.office.configure({
        url: `postgres://messenger:${server.password}@127.0.0.1:${server.port}/messenger`,
      }),
    ).rejects.toMatchObject({ code: 'invalid-input', message: /password in its own field/ });
    await expect(first.api.office.configure({ url: 'mysql://x@y/z' })).rejects.toMatchObject({
      code: 'invalid-input',
    });
    const set = await first.api.office.configure({ url: server.url, password: server.password });
    expect(set).toMatchObject({
      url: server.url,
      source: 'account',
      passwordStored: true,
      active: null,
      restartNeeded: true,
    });
    await first.close();

    const second = await createMessengerApp({ dataDir: dir, env: {}, log: () => {}, secrets });
    cleanups.push(() => second.close());
    await waitFor('connected', async () => (await second.api.office.status())?.connected);
    expect(await second.api.office.setting()).toMatchObject({ active: server.url, restartNeeded: false });
    for (const f of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (f.isFile())
        expect((await readFile(join(f.parentPath, f.name))).includes(server.password), f.name).toBe(false);
    }
    // cleared: off at the next start
    expect(await second.api.office.configure({ url: null })).toMatchObject({
      url: null,
      passwordStored: false,
    });
  });

  it('needs a keyring for a password, and is locked by --office and the deploy policy', async () => {
    const noKeyring = await createMessengerApp({ dataDir: await dataDir(), env: {}, log: () => {} });
    cleanups.push(() => noKeyring.close());
    await expect(
      noKeyring.api.office.configure({ url: 'postgres://desk@127.0.0.1:5999/messenger', password: 'x' }),
    ).rejects.toMatchObject({ code: 'no-keyring', message: /MESSENGER_OFFICE_PASSWORD/ });
    // a URL alone is kept (the password then comes from the environment)
    expect(
      await noKeyring.api.office.configure({ url: 'postgres://desk@127.0.0.1:5999/messenger' }),
    ).toMatchObject({
      url: 'postgres://desk@127.0.0.1:5999/messenger',
      passwordStored: false,
      keyring: false,
    });

    const policy = {
      ...structuredClone(NO_POLICY),
      officeDatabase: 'postgres://desk@127.0.0.1:5998/messenger',
    };
    const managed = await createMessengerApp({ dataDir: await dataDir(), env: {}, log: () => {}, policy });
    cleanups.push(() => managed.close());
    expect(await managed.api.office.setting()).toMatchObject({
      source: 'policy',
      url: policy.officeDatabase,
    });
    await expect(managed.api.office.configure({ url: null })).rejects.toMatchObject({ code: 'policy' });
  });
});
