// Gateway accounts: what the app needs to reach one (username, primary and secondary URL, the
// local sandbox flag) and which one is current. The PIN is never stored in clear: `pin_secret`
// only holds bytes the Electron shell encrypted with safeStorage; outside Electron the PIN comes
// from the environment or a prompt and nothing is stored (main/services/secrets.ts).
import { randomUUID } from 'node:crypto';
import { LIMITS } from '../../protocol/limits.ts';
import type { AppDb } from './db.ts';
import { StoreError } from './errors.ts';
import { rowAs, rowsAs } from './rows.ts';
import type { AccountSummary } from '../../domain/index.ts';

export interface AccountInput {
  label?: string;
  username: string;
  primaryUrl: string;
  secondaryUrl?: string | null;
  sandbox?: boolean;
}

interface AccountRow {
  id: string;
  label: string;
  username: string;
  primary_url: string;
  secondary_url: string | null;
  sandbox: number;
  has_secret: number;
}

const SELECT =
  'SELECT id, label, username, primary_url, secondary_url, sandbox, pin_secret IS NOT NULL AS has_secret FROM accounts';

/**
 * Issue 17: the URLs of `urls` that would carry the PIN in clear: plain http to anything but this
 * machine (localhost, 127.0.0.0/8, ::1).
 */
export function insecureGatewayUrls(urls: ReadonlyArray<string | null | undefined>): string[] {
  return urls.filter((u): u is string => {
    if (!u) return false;
    try {
      const url = new URL(u.trim());
      if (url.protocol !== 'http:') return false;
      const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
      return !(host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host));
    } catch {
      return false;
    }
  });
}

function toSummary(r: AccountRow): AccountSummary {
  return {
    id: r.id,
    label: r.label,
    username: r.username,
    primaryUrl: r.primary_url,
    secondaryUrl: r.secondary_url,
    sandbox: r.sandbox === 1,
    pinStored: r.has_secret === 1,
    insecure: insecureGatewayUrls([r.primary_url, r.secondary_url]).length > 0,
  };
}

function gatewayUrl(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new StoreError('invalid-input', `${field} "${value}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new StoreError('invalid-input', `${field} must be an http or https URL, not ${url.protocol}`);
  }
  return url.href.replace(/\/$/, '');
}

export class AccountsRepo {
  readonly #app: AppDb;

  constructor(app: AppDb) {
    this.#app = app;
  }

  list(): AccountSummary[] {
    return rowsAs<AccountRow>(this.#app.db.prepare(`${SELECT} ORDER BY label COLLATE NOCASE, id`).all()).map(
      toSummary,
    );
  }

  get(id: string): AccountSummary | null {
    const r = rowAs<AccountRow>(this.#app.db.prepare(`${SELECT} WHERE id = ?`).get(id));
    return r ? toSummary(r) : null;
  }

  current(): AccountSummary | null {
    const r = rowAs<AccountRow>(this.#app.db.prepare(`${SELECT} WHERE is_current = 1`).get());
    return r ? toSummary(r) : null;
  }

  /** Add an account, or update the one with the same primary URL and username. */
  save(input: AccountInput): AccountSummary {
    const username = input.username.trim();
    if (username === '' || username.length > LIMITS.usernameMax) {
      throw new StoreError('invalid-input', `the username must be 1 to ${LIMITS.usernameMax} characters`);
    }
    const primary = gatewayUrl(input.primaryUrl, 'the primary URL');
    const secondary =
      input.secondaryUrl === undefined || input.secondaryUrl === null || input.secondaryUrl.trim() === ''
        ? null
        : gatewayUrl(input.secondaryUrl, 'the secondary URL');
    const label = (input.label ?? '').trim() || `${username} @ ${new URL(primary).host}`;
    return this.#app.transaction(() => {
      const now = Date.now();
      const row = rowAs<{ id: string }>(
        this.#app.db
          .prepare(
            `INSERT INTO accounts (id, label, username, primary_url, secondary_url, sandbox, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (primary_url, username) DO UPDATE SET label = excluded.label,
               secondary_url = excluded.secondary_url, sandbox = excluded.sandbox, updated_at = excluded.updated_at
             RETURNING id`,
          )
          .get(randomUUID(), label, username, primary, secondary, input.sandbox ? 1 : 0, now, now),
      );
      const saved = row ? this.get(row.id) : null;
      if (!saved) throw new StoreError('invalid-state', 'the account was not stored');
      return saved;
    });
  }

  /** Make `id` the current account (null: signed out). */
  setCurrent(id: string | null): void {
    this.#app.transaction(() => {
      if (id !== null && !this.get(id)) throw new StoreError('not-found', `no account ${id}`);
      this.#app.db.prepare('UPDATE accounts SET is_current = 0 WHERE is_current = 1').run();
      if (id !== null) this.#app.db.prepare('UPDATE accounts SET is_current = 1 WHERE id = ?').run(id);
    });
  }

  /** Move an account to another primary URL (the local sandbox listens on a new port after a restart). */
  setPrimaryUrl(id: string, primaryUrl: string): void {
    const url = gatewayUrl(primaryUrl, 'the primary URL');
    const r = this.#app.db
      .prepare('UPDATE accounts SET primary_url = ?, updated_at = ? WHERE id = ?')
      .run(url, Date.now(), id);
    if (r.changes === 0) throw new StoreError('not-found', `no account ${id}`);
  }

  /** Store the PIN as encrypted by safeStorage (never the PIN itself), or forget it (null). */
  /** Issue 17: the push receiver's address kept for this account (port and path), or null. */
  pushAddress(id: string): { port: number; path: string } | null {
    const r = this.#app.db.prepare('SELECT push_port, push_path FROM accounts WHERE id = ?').get(id) as
      { push_port: number | null; push_path: string | null } | undefined;
    return r && r.push_port !== null && r.push_path !== null
      ? { port: r.push_port, path: r.push_path }
      : null;
  }

  setPushAddress(id: string, address: { port: number; path: string }): void {
    this.#app.db
      .prepare('UPDATE accounts SET push_port = ?, push_path = ? WHERE id = ?')
      .run(address.port, address.path, id);
  }

  storeEncryptedPin(id: string, encrypted: Uint8Array | null): void {
    const r = this.#app.db
      .prepare('UPDATE accounts SET pin_secret = ?, updated_at = ? WHERE id = ?')
      .run(encrypted, Date.now(), id);
    if (r.changes === 0) throw new StoreError('not-found', `no account ${id}`);
  }

  encryptedPin(id: string): Uint8Array | null {
    const r = rowAs<{ pin_secret: Uint8Array | null }>(
      this.#app.db.prepare('SELECT pin_secret FROM accounts WHERE id = ?').get(id),
    );
    return r?.pin_secret ?? null;
  }

  /** Forget an account (its past sends stay in the history, without the account). */
  /**
   * The account of `username` at gateway `primaryUrl`, the URL read as save() keeps it (a trailing
   * slash, the host's case: the same gateway), or null (also for a URL that is not one).
   */
  findByLogin(username: string, primaryUrl: string): AccountSummary | null {
    let url: string;
    try {
      url = gatewayUrl(primaryUrl, 'the primary URL');
    } catch {
      return null;
    }
    const r = rowAs<AccountRow>(
      this.#app.db.prepare(`${SELECT} WHERE primary_url = ? AND username = ?`).get(url, username.trim()),
    );
    return r ? toSummary(r) : null;
  }

  remove(id: string): void {
    const r = this.#app.db.prepare('DELETE FROM accounts WHERE id = ?').run(id);
    if (r.changes === 0) throw new StoreError('not-found', `no account ${id}`);
  }
}
