// Where the gateway PIN may be kept. The Electron shell provides a SecretStore over safeStorage
// (the OS keyring); outside Electron (the web shell, tests) there is none: the PIN then lives in
// this process's memory only, comes from MESSENGER_PIN or from signing in, and is never written
// to disk in clear (docs/ARCHITECTURE.md, "How code runs").

/** Which backend encrypts: an OS keyring, Linux's basic_text fallback (a fixed key), or none. */
export type SecretBackend = 'os' | 'basic_text' | 'none';

export interface SecretStore {
  readonly backend: SecretBackend;
  /** Encrypt a PIN for storage in the app database (pin_secret). */
  encrypt(plain: string): Promise<Uint8Array>;
  decrypt(encrypted: Uint8Array): Promise<string>;
}

/** Why a PIN cannot be remembered without a real keyring: said in API errors. */
export const NO_KEYRING_MESSAGE =
  'the PIN cannot be stored here: outside Electron there is no OS keyring, so the PIN is kept in memory only ' +
  'for this run (sign in again after a restart, or set MESSENGER_PIN)';

export const BASIC_TEXT_MESSAGE =
  'the OS keyring is not available (Electron safeStorage reports "basic_text" on this Linux desktop): a stored PIN ' +
  'would be obfuscated with a fixed key, not encrypted. Sign in with acceptPlainTextStorage to store it anyway, ' +
  'or without rememberPin to keep it in memory for this run only';

/** No persistent secrets: what the web shell and tests use. */
export const NO_SECRET_STORE: SecretStore = {
  backend: 'none',
  encrypt() {
    return Promise.reject(new Error(NO_KEYRING_MESSAGE));
  },
  decrypt() {
    return Promise.reject(new Error(NO_KEYRING_MESSAGE));
  },
};

/** The PINs of this run, by account id; never persisted. */
export class MemoryPins {
  readonly #pins = new Map<string, string>();
  get(accountId: string): string | undefined {
    return this.#pins.get(accountId);
  }
  set(accountId: string, pin: string): void {
    this.#pins.set(accountId, pin);
  }
  delete(accountId: string): void {
    this.#pins.delete(accountId);
  }
}
