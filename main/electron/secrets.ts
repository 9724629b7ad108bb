// The PIN's SecretStore (main/services/secrets.ts) over Electron's safeStorage, async API (Electron 45:
// isAsyncEncryptionAvailable / encryptStringAsync / decryptStringAsync). No 'electron' import:
// index.ts passes the real safeStorage in, the unit test a stand-in of the same shape.
//
// On Linux without a secret service (GNOME libsecret, KWallet) Chromium's backend is 'basic_text':
// the "encryption" key is a constant, so a stored PIN would be as good as clear text. The store
// reports that as `backend: 'basic_text'`; the accounts service then refuses to remember the PIN
// unless the user accepted it (SignInRequest.acceptPlainTextStorage, BASIC_TEXT_MESSAGE), and this
// store refuses on its own too unless told the user accepted (`allowPlainText`).
import type { SecretBackend, SecretStore } from '../services/secrets.ts';
import { BASIC_TEXT_MESSAGE } from '../services/secrets.ts';

/** The part of Electron's SafeStorage used here. */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Uint8Array>;
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  getSelectedStorageBackend(): string;
}

export class SecretStoreError extends Error {
  readonly code: 'secret-storage-unavailable' | 'secret-storage-plain-text';
  constructor(code: SecretStoreError['code'], message: string) {
    super(message);
    this.name = 'SecretStoreError';
    this.code = code;
  }
}

export const NO_ENCRYPTION_MESSAGE =
  'the PIN cannot be stored: the operating system offers no encryption for saved secrets right now ' +
  '(sign in without remembering the PIN to keep it in memory for this run only)';

export interface SafeStorageSecretStore extends SecretStore {
  /**
   * Encrypt; on basic_text only when `allowPlainText` (the user accepted plain-text storage).
   * The SecretStore contract's encrypt(plain) is this with allowPlainText: the accounts service
   * calls it only after checking the backend and the user's acceptance.
   */
  encryptChecked(plain: string, opts: { allowPlainText: boolean }): Promise<Uint8Array>;
  /** Decrypt, with a re-encrypted value when safeStorage says the key rotated (store it instead). */
  decryptWithRotation(encrypted: Uint8Array): Promise<{ plain: string; reEncrypted: Uint8Array | null }>;
}

/**
 * The store for this run. Call after app 'ready' (safeStorage initialises its async encryptor
 * lazily; the backend name is 'unknown' before ready).
 */
export async function createSafeStorageSecretStore(
  safeStorage: SafeStorageLike,
  platform: NodeJS.Platform | string = process.platform,
): Promise<SafeStorageSecretStore> {
  const available = await safeStorage.isAsyncEncryptionAvailable();
  const backendNow = (): SecretBackend => {
    if (!available) return 'none';
    return platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text'
      ? 'basic_text'
      : 'os';
  };

  async function encryptChecked(plain: string, opts: { allowPlainText: boolean }): Promise<Uint8Array> {
    const backend = backendNow();
    if (backend === 'none') throw new SecretStoreError('secret-storage-unavailable', NO_ENCRYPTION_MESSAGE);
    if (backend === 'basic_text' && !opts.allowPlainText) {
      throw new SecretStoreError('secret-storage-plain-text', BASIC_TEXT_MESSAGE);
    }
    return new Uint8Array(await safeStorage.encryptStringAsync(plain));
  }

  async function decryptWithRotation(encrypted: Uint8Array) {
    if (backendNow() === 'none')
      throw new SecretStoreError('secret-storage-unavailable', NO_ENCRYPTION_MESSAGE);
    const out = await safeStorage.decryptStringAsync(
      Buffer.from(encrypted.buffer, encrypted.byteOffset, encrypted.byteLength),
    );
    const reEncrypted = out.shouldReEncrypt
      ? new Uint8Array(await safeStorage.encryptStringAsync(out.result))
      : null;
    return { plain: out.result, reEncrypted };
  }

  return {
    get backend() {
      return backendNow();
    },
    // The accounts service checks backend + acceptPlainTextStorage before calling this.
    encrypt: (plain) => encryptChecked(plain, { allowPlainText: true }),
    async decrypt(encrypted) {
      return (await decryptWithRotation(encrypted)).plain;
    },
    encryptChecked,
    decryptWithRotation,
  };
}
