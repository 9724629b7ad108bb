// safeStorage itself exists only inside Electron (not launchable here): the stand-in below keeps
// its contract (async encrypt/decrypt, availability, the Linux backend name) with a real cipher
// (AES-256-GCM from node:crypto), so what is tested is the store's policy: when it refuses, what it
// says, and that what it stores is not the PIN.
import { describe, expect, it } from 'vitest';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  NO_ENCRYPTION_MESSAGE,
  SecretStoreError,
  createSafeStorageSecretStore,
} from '../../../main/electron/secrets.ts';
import { BASIC_TEXT_MESSAGE } from '../../../main/services/secrets.ts';
import type { SafeStorageLike } from '../../../main/electron/secrets.ts';

function standIn(opts: { available?: boolean; backend?: string; rotateKey?: boolean } = {}): SafeStorageLike {
  const key = randomBytes(32);
  return {
    isAsyncEncryptionAvailable: async () => opts.available ?? true,
    getSelectedStorageBackend: () => opts.backend ?? 'gnome_libsecret',
    async encryptStringAsync(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    async decryptStringAsync(encrypted) {
      const d = createDecipheriv('aes-256-gcm', key, encrypted.subarray(0, 12));
      d.setAuthTag(encrypted.subarray(12, 28));
      const result = Buffer.concat([d.update(encrypted.subarray(28)), d.final()]).toString('utf8');
      return { result, shouldReEncrypt: opts.rotateKey ?? false };
    },
  };
}

describe('PIN store over safeStorage', () => {
  it('stores an encrypted PIN (not the PIN) and reads it back', async () => {
    const store = await createSafeStorageSecretStore(standIn(), 'linux');
    expect(store.backend).toBe('os');
    const sealed = await store.encrypt('4321-pin');
    expect(sealed).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(sealed).includes(Buffer.from('4321-pin'))).toBe(false);
    expect(await store.decrypt(sealed)).toBe('4321-pin');
    expect(await store.decryptWithRotation(sealed)).toEqual({ plain: '4321-pin', reEncrypted: null });
  });

  it('reports basic_text on Linux and refuses to store there unless the user accepted it', async () => {
    const store = await createSafeStorageSecretStore(standIn({ backend: 'basic_text' }), 'linux');
    expect(store.backend).toBe('basic_text');
    const refused = await store.encryptChecked('4321', { allowPlainText: false }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SecretStoreError);
    expect((refused as SecretStoreError).code).toBe('secret-storage-plain-text');
    expect((refused as SecretStoreError).message).toBe(BASIC_TEXT_MESSAGE);
    // accepted explicitly: stored
    const sealed = await store.encryptChecked('4321', { allowPlainText: true });
    expect(await store.decrypt(sealed)).toBe('4321');
  });

  it('ignores the Linux backend name on other platforms', async () => {
    const store = await createSafeStorageSecretStore(standIn({ backend: 'basic_text' }), 'win32');
    expect(store.backend).toBe('os');
    expect(await store.decrypt(await store.encryptChecked('1', { allowPlainText: false }))).toBe('1');
  });

  it('refuses when the OS offers no encryption at all', async () => {
    const store = await createSafeStorageSecretStore(standIn({ available: false }), 'darwin');
    expect(store.backend).toBe('none');
    const e = await store.encrypt('4321').catch((x: unknown) => x);
    expect((e as SecretStoreError).code).toBe('secret-storage-unavailable');
    expect((e as Error).message).toBe(NO_ENCRYPTION_MESSAGE);
    await expect(store.decrypt(new Uint8Array([1, 2, 3]))).rejects.toThrow(NO_ENCRYPTION_MESSAGE);
  });

  it('re-encrypts when safeStorage says the key rotated', async () => {
    const store = await createSafeStorageSecretStore(standIn({ rotateKey: true }), 'linux');
    const sealed = await store.encrypt('9999');
    const out = await store.decryptWithRotation(sealed);
    expect(out.plain).toBe('9999');
    expect(out.reEncrypted).not.toBeNull();
    expect(Buffer.from(out.reEncrypted ?? []).equals(Buffer.from(sealed))).toBe(false);
    expect(await store.decrypt(out.reEncrypted ?? new Uint8Array())).toBe('9999');
  });
});
