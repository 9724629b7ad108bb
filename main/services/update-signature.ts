// Update signatures (issue 17; issue 23: signed by default, and bound to version and name). A release
// is signed with Ed25519 and its detached signature is published beside it as "<DownloadURL>.sig".
// What is signed is a statement (signedStatement): the file's SHA-512 digest, the version the
// release is offered as and the name the file is saved under. So a signature says "this file is
// version V, named N": an old signed build offered again as a newer version, or under another name,
// does not verify. The digest is computed while the file streams to disk, so a 1 GiB installer is
// never held in memory (Ed25519 itself needs the whole message at once). The .sig file is the
// 64-octet signature in base64 (one line; surrounding white space ignored).
//
// Keys: the public keys built into the release (BUILT_IN_UPDATE_KEYS) and those the deploy policy
// pins (updates.publicKeys); a signature by any of them verifies. A key is written as the base64
// of its 32 raw octets, or as a PEM "PUBLIC KEY" (SPKI). `npm run release-sign` makes keys and
// signatures (scripts/release-sign.ts); docs/ADMIN.md says where the private key lives and how a
// key is rotated.
import { createHash, createPublicKey, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/**
 * Public keys of this app's publisher (base64 of the raw 32 octets). Only the public half is here;
 * the private half is kept by the release manager outside the repository (docs/ADMIN.md, "Signed
 * updates": creating and rotating keys). During a rotation both the old and the new key are listed.
 */
export const BUILT_IN_UPDATE_KEYS: readonly string[] = [
  // made 2026-11-27 with `npm run release-sign -- --new-key` (issue 23)
  'EeSD1VsEFI5ArQ68CFf/4jlpR9riqHdfLeA8kLe0Q94=',
];

/** The largest .sig accepted (a signature is 88 base64 characters). */
export const MAX_SIGNATURE_BYTES = 1024;

/** Domain separation: a signature over an update statement is not a signature over anything else. */
export const SIGNED_PREFIX = 'messenger-update-v2\n';

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-octet key follows. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A public key from its text (base64 of 32 octets, or PEM SPKI); throws a readable Error. */
export function parsePublicKey(text: string): KeyObject {
  const t = text.trim();
  let key: KeyObject;
  if (t.startsWith('-----BEGIN')) {
    key = createPublicKey({ key: t, format: 'pem' });
  } else {
    const raw = Buffer.from(t, 'base64');
    if (raw.length !== 32 || raw.toString('base64').replace(/=+$/, '') !== t.replace(/=+$/, ''))
      throw new Error('an update key must be the base64 of 32 octets (an Ed25519 public key) or a PEM key');
    key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('an update key must be an Ed25519 key');
  return key;
}

/** The base64 of a public key's 32 raw octets (how keys are written in the policy and the source). */
export function rawPublicKey(key: KeyObject): string {
  const der = key.export({ format: 'der', type: 'spki' });
  return der.subarray(ED25519_SPKI_PREFIX.length).toString('base64');
}

/** What a release's signature says about one file. */
export interface UpdateStatement {
  /** SHA-512 of the file. */
  sha512: Buffer;
  /** The version the release is offered as (MobileMessengerVersion's Version). */
  version: string;
  /** The name the file is saved under (Content-Disposition's, else the URL's last path segment). */
  name: string;
}

/** A version or name that fits on one line of the statement (no control characters). */
function statementValue(what: string, v: string): string {
  if (v === '' || v.length > 200 || [...v].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f'))
    throw new Error(`the update's ${what} cannot be signed: ${JSON.stringify(v.slice(0, 40))}`);
  return v;
}

/** The message a signature covers: the prefix, then version, name and digest, one per line. */
export function signedStatement(s: UpdateStatement): Buffer {
  return Buffer.from(
    `${SIGNED_PREFIX}version ${statementValue('version', s.version)}\nname ${statementValue('name', s.name)}\nsha512 ${s.sha512.toString('hex')}\n`,
    'utf8',
  );
}

/** A running SHA-512 over the downloaded bytes. */
export function newDigest(): { update(chunk: Uint8Array): void; digest(): Buffer } {
  const h = createHash('sha512');
  return { update: (c) => void h.update(c), digest: () => h.digest() };
}

/** The signature octets of a .sig body, or null when it is not one. */
export function parseSignature(body: Buffer): Buffer | null {
  const text = body.toString('latin1').trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  const sig = Buffer.from(text, 'base64');
  return sig.length === 64 ? sig : null;
}

/** Whether `signature` is a signature of `statement` by one of `keys`. */
export function verifyUpdate(
  statement: UpdateStatement,
  signature: Buffer,
  keys: readonly KeyObject[],
): boolean {
  let message: Buffer;
  try {
    message = signedStatement(statement);
  } catch {
    return false;
  }
  return keys.some((k) => {
    try {
      return verify(null, message, k, signature);
    } catch {
      return false;
    }
  });
}

/** The keys in force: built-in plus the policy's, each parsed (a bad one is reported, not used). */
export function updateKeys(
  policyKeys: readonly string[] | undefined,
  log: (message: string) => void,
  builtIn: readonly string[] = BUILT_IN_UPDATE_KEYS,
): KeyObject[] {
  const out: KeyObject[] = [];
  for (const k of [...builtIn, ...(policyKeys ?? [])]) {
    try {
      out.push(parsePublicKey(k));
    } catch (err) {
      log(`update key ignored: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return out;
}

/** The NTFS Zone.Identifier stream Windows reads as the Mark of the Web (zone 3: Internet). */
export function zoneIdentifier(url: string): string {
  return `[ZoneTransfer]\r\nZoneId=3\r\nReferrerUrl=${url}\r\nHostUrl=${url}\r\n`;
}
