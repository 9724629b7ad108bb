// Electron's safeStorage exists only inside Electron (not launchable here). This stand-in keeps its
// contract (async encrypt/decrypt, availability, the Linux backend name) with a real cipher
// (AES-256-GCM from node:crypto), as test/unit/electron/secrets.test.ts's does, so that
// main/electron/secrets.ts's real SecretStore can be used by the app in integration tests.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SafeStorageLike } from '../../main/electron/secrets.ts';

export function safeStorageStandIn(): SafeStorageLike {
  const key = randomBytes(32);
  return {
    isAsyncEncryptionAvailable: async () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret',
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
      return { result, shouldReEncrypt: false };
    },
  };
}
