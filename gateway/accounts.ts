// Accounts: Username + PIN (scrypt hash, constant-time check), credit, ReplyTo list, children.
import { createHmac, randomBytes, scrypt, scryptSync, timingSafeEqual, randomInt } from 'node:crypto';
import { promisify } from 'node:util';
import type { LoginGuard } from './login-guard.ts';
import { currentClientAddress } from './login-guard.ts';

const scryptAsync = promisify(scrypt) as (
  pin: string,
  salt: Buffer,
  keylen: number,
  opts: { N: number; r: number; p: number },
) => Promise<Buffer>;
import type { DatabaseSync } from 'node:sqlite';
import type { ChildAccountType } from '../protocol/limits.ts';
import { LIMITS } from '../protocol/limits.ts';
import { stmt, transaction } from './store/db.ts';

export interface Account {
  id: number;
  username: string;
  parentId: number | null;
  childType: ChildAccountType | null;
  /** Holds the restricted-service permission that manageaccount needs (spec 4.4, 5.5). */
  restricted: boolean;
  number: string | null;
  pushUrl: string | null;
  /** Permitted ReplyTo values stored for the account (the service default is added by callers). */
  replyTo: string[];
}

export interface NewAccount {
  username: string;
  pin: string;
  /** Ten-thousandths of GBP. */
  credit?: number;
  restricted?: boolean;
  number?: string | null;
  pushUrl?: string | null;
  replyTo?: string[];
  parentId?: number | null;
  childType?: ChildAccountType | null;
  email?: string;
  telephoneCountryCode?: string;
  mobileNumber?: string;
  givenName?: string;
  familyName?: string;
  companyName?: string;
}

export class AccountError extends Error {}

// scrypt cost: N=2^14, r=8, p=1 (≈16 MiB, a few ms): the OWASP minimum-ish setting, fast enough for
// a request per message on a two-core machine.
const SCRYPT = { N: 16384, r: 8, p: 1 } as const;
const KEY_LEN = 32;

export function hashPin(pin: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(pin, salt, KEY_LEN, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/**
 * Compares in constant time; a malformed stored hash never matches. Async: scrypt runs on libuv's
 * thread pool, never on the event loop (issue 17: 64 connections of wrong logins stalled the rest).
 */
export async function verifyPin(pin: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const expected = Buffer.from(parts[5] ?? '', 'base64');
  const actual = await scryptAsync(pin, salt, expected.length || KEY_LEN, { N, r, p });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

// Checked against when the username is unknown, so a wrong username costs the same scrypt as a wrong PIN.
const DUMMY_HASH = hashPin(randomBytes(12).toString('hex'));

// A PIN check costs a scrypt; a client sending many messages over keep-alive authenticates on every
// request. Successful checks are remembered briefly as a keyed digest (never the PIN) per username.
const verifiedCache = new Map<string, { key: string; stored: string; until: number }>();
const CACHE_MS = 60_000;

interface AccountRow {
  id: number;
  username: string;
  pin_hash: string;
  parent_id: number | null;
  child_type: ChildAccountType | null;
  restricted: number;
  number: string | null;
  push_url: string | null;
}

const CACHE_SECRET = randomBytes(32);
function cacheKey(username: string, pin: string): string {
  return createHmac('sha256', CACHE_SECRET).update(`${username}\0${pin}`).digest('base64');
}

function toAccount(db: DatabaseSync, row: AccountRow): Account {
  const replyTo = (
    stmt(db, 'SELECT value FROM reply_to WHERE account_id = ? ORDER BY value').all(row.id) as Array<{
      value: string;
    }>
  ).map((r) => r.value);
  return {
    id: row.id,
    username: row.username,
    parentId: row.parent_id,
    childType: row.child_type,
    restricted: row.restricted === 1,
    number: row.number,
    pushUrl: row.push_url,
    replyTo,
  };
}

/**
 * The account for Username+PIN, or null. Username and PIN are case-sensitive (spec 5.2). A username
 * or client address in back-off after repeated failures gets null without a check (./login-guard.ts);
 * the attempts for one username are taken one after another, so the back-off each one sees counts
 * every earlier one (issue 23).
 */
export function authenticate(
  db: DatabaseSync,
  username: string,
  pin: string,
  guard: LoginGuard,
  address = currentClientAddress(),
): Promise<Account | null> {
  // Longer than the spec allows (5.2): no account has it, so no lookup, hash or queue (issue 23: a
  // 4 MB Username in a SOAP envelope was looked up and hashed like any other).
  if (username.length > LIMITS.usernameMax || pin.length > LIMITS.pinMax) return Promise.resolve(null);
  return guard.serial(username, () => attempt(db, username, pin, guard, address));
}

async function attempt(
  db: DatabaseSync,
  username: string,
  pin: string,
  guard: LoginGuard,
  address: string,
): Promise<Account | null> {
  if (guard.retryAfterMs(username, address) > 0) return null;
  const row = stmt(db, 'SELECT * FROM accounts WHERE username = ?').get(username) as AccountRow | undefined;
  const stored = row?.pin_hash ?? DUMMY_HASH;
  const cached = verifiedCache.get(username);
  let ok = false;
  if (row && cached && cached.until > Date.now() && cached.stored === stored) {
    const a = Buffer.from(cached.key);
    const b = Buffer.from(cacheKey(username, pin));
    ok = a.length === b.length && timingSafeEqual(a, b);
  }
  if (!ok) {
    ok = await guard.limit(address, () => verifyPin(pin, stored));
    if (ok && row)
      verifiedCache.set(username, { key: cacheKey(username, pin), stored, until: Date.now() + CACHE_MS });
  }
  guard.record(username, address, ok && row !== undefined);
  // The row may have changed (PIN, deletion) while scrypt ran: read it again.
  const now =
    ok && row
      ? (stmt(db, 'SELECT * FROM accounts WHERE id = ?').get(row.id) as AccountRow | undefined)
      : undefined;
  return now && now.pin_hash === stored ? toAccount(db, now) : null;
}

export function getAccount(db: DatabaseSync, idOrUsername: number | string): Account | null {
  const row = (
    typeof idOrUsername === 'number'
      ? stmt(db, 'SELECT * FROM accounts WHERE id = ?').get(idOrUsername)
      : stmt(db, 'SELECT * FROM accounts WHERE username = ?').get(idOrUsername)
  ) as AccountRow | undefined;
  return row ? toAccount(db, row) : null;
}

export function listAccounts(db: DatabaseSync): Array<Account & { credit: number }> {
  const rows = stmt(db, 'SELECT * FROM accounts ORDER BY id').all() as unknown as Array<
    AccountRow & { credit: number }
  >;
  return rows.map((r) => ({ ...toAccount(db, r), credit: r.credit }));
}

export function createAccount(db: DatabaseSync, input: NewAccount): Account {
  return transaction(db, () => {
    if (stmt(db, 'SELECT 1 FROM accounts WHERE username = ?').get(input.username)) {
      throw new AccountError(`username ${input.username} is taken`);
    }
    const res = stmt(
      db,
      `INSERT INTO accounts (username, pin_hash, parent_id, child_type, restricted, number, push_url, credit,
           email, telephone_country_code, mobile_number, given_name, family_name, company_name)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      input.username,
      hashPin(input.pin),
      input.parentId ?? null,
      input.childType ?? null,
      input.restricted ? 1 : 0,
      input.number ?? null,
      input.pushUrl ?? null,
      input.credit ?? 0,
      input.email ?? null,
      input.telephoneCountryCode ?? null,
      input.mobileNumber ?? null,
      input.givenName ?? null,
      input.familyName ?? null,
      input.companyName ?? null,
    );
    const id = Number(res.lastInsertRowid);
    const add = stmt(db, 'INSERT OR IGNORE INTO reply_to (account_id, value) VALUES (?, ?)');
    for (const v of input.replyTo ?? []) add.run(id, v);
    if (input.number) add.run(id, input.number);
    const account = getAccount(db, id);
    if (!account) throw new AccountError('account vanished');
    return account;
  });
}

export function deleteAccount(db: DatabaseSync, id: number): void {
  stmt(db, 'DELETE FROM accounts WHERE id = ?').run(id);
}

/** The account whose credit this account spends: the parent for SHARED children (spec 4.4). */
export function creditAccountId(account: Account): number {
  return account.childType === 'SHARED' && account.parentId !== null ? account.parentId : account.id;
}

/** Available credit in ten-thousandths of GBP (a SHARED child sees its parent's credit). */
export function creditOf(db: DatabaseSync, account: Account): number {
  const row = stmt(db, 'SELECT credit FROM accounts WHERE id = ?').get(creditAccountId(account)) as
    { credit: number } | undefined;
  return row?.credit ?? 0;
}

/** Adds (or with a negative amount removes) credit; throws when it would go below zero. */
export function adjustCredit(db: DatabaseSync, accountId: number, delta: number): number {
  return transaction(db, () => {
    const res = stmt(db, 'UPDATE accounts SET credit = credit + ? WHERE id = ? AND credit + ? >= 0').run(
      delta,
      accountId,
      delta,
    );
    if (res.changes !== 1) throw new AccountError('insufficient credit or unknown account');
    return (stmt(db, 'SELECT credit FROM accounts WHERE id = ?').get(accountId) as { credit: number }).credit;
  });
}

const PIN_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
/** A random alphanumeric string (PINs and child usernames), uniformly drawn. */
export function randomAlnum(length: number, alphabet = PIN_ALPHABET): string {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[randomInt(alphabet.length)];
  return s;
}
