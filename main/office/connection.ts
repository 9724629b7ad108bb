// Where the office database is and how to reach it (docs/OFFICE.md): a postgres:// URL from
// `npm run web -- --office URL`, the deploy policy's `officeDatabase` or the Account setting.
//
// - The password: in the URL given on the command line, or MESSENGER_OFFICE_PASSWORD, or (Electron)
//   the keyring like the PIN. It is never logged: `shownUrl` is the URL without it, and the URL
//   kept in settings or the policy has none (a password in it is refused there).
// - TLS: a server that is not on this machine is reached over TLS with its certificate checked
//   against the system's CAs or the one named by ?sslrootcert=FILE (or MESSENGER_OFFICE_CA); the
//   host name must match. Only a loopback server may be reached in clear.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { ClientConfig } from 'pg';

export const OFFICE_PASSWORD_ENV = 'MESSENGER_OFFICE_PASSWORD';
export const OFFICE_CA_ENV = 'MESSENGER_OFFICE_CA';

export interface OfficeTarget {
  host: string;
  port: number;
  user: string;
  database: string;
  /** The password the URL carried (command line only), else undefined. */
  password?: string;
  /** A CA file (PEM) the server's certificate must chain to, in place of the system's. */
  caFile?: string;
  loopback: boolean;
  /** TLS with the certificate checked: always away from this machine, on it when asked. */
  tls: boolean;
}

/** Whether `host` is this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1';
  return false;
}

/** The URL parsed, or a sentence saying what is wrong with it. */
export function parseOfficeUrl(
  text: string,
): { ok: true; target: OfficeTarget } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, reason: 'is not a URL (postgres://USER@HOST:PORT/DATABASE)' };
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    return { ok: false, reason: 'must start with postgres:// (postgres://USER@HOST:PORT/DATABASE)' };
  const host = url.hostname;
  if (host === '') return { ok: false, reason: 'names no host' };
  const user = decodeURIComponent(url.username);
  if (user === '') return { ok: false, reason: 'names no user (postgres://USER@HOST/DATABASE)' };
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database === '' || database.includes('/'))
    return { ok: false, reason: 'names no database (…/DATABASE)' };
  const port = url.port === '' ? 5432 : Number(url.port);
  const loopback = isLoopbackHost(host);
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode !== null && sslmode !== 'disable' && sslmode !== 'verify-full')
    return {
      ok: false,
      reason: `sslmode=${sslmode}: only verify-full (always away from this machine) or disable`,
    };
  if (!loopback && sslmode === 'disable')
    return {
      ok: false,
      reason:
        'a server on another machine is reached over TLS with its certificate checked (sslmode=disable refused)',
    };
  for (const k of url.searchParams.keys())
    if (k !== 'sslmode' && k !== 'sslrootcert')
      return { ok: false, reason: `?${k}= is not a known option (sslmode, sslrootcert)` };
  const caFile = url.searchParams.get('sslrootcert') ?? undefined;
  const tls = !loopback || sslmode === 'verify-full' || (caFile !== undefined && sslmode !== 'disable');
  const target: OfficeTarget = { host: host.replace(/^\[|\]$/g, ''), port, user, database, loopback, tls };
  if (url.password !== '') target.password = decodeURIComponent(url.password);
  if (caFile !== undefined) target.caFile = caFile;
  return { ok: true, target };
}

/** The URL as shown and logged: never the password. */
export function shownUrl(t: OfficeTarget): string {
  const host = isIP(t.host) === 6 ? `[${t.host}]` : t.host;
  return `postgres://${encodeURIComponent(t.user)}@${host}:${t.port}/${encodeURIComponent(t.database)}`;
}

/** Whether the URL itself carries a password (refused where it would be stored). */
export function urlHasPassword(text: string): boolean {
  try {
    return new URL(text.trim()).password !== '';
  } catch {
    return false;
  }
}

/**
 * node-postgres' settings for `t`: TLS when `t.tls`, always with rejectUnauthorized and the host
 * name checked by Node's TLS (libpq's verify-full).
 */
export function clientConfig(
  t: OfficeTarget,
  password: string | undefined,
  env: Record<string, string | undefined> = process.env,
): ClientConfig {
  const caFile = t.caFile ?? env[OFFICE_CA_ENV];
  const config: ClientConfig = {
    host: t.host,
    port: t.port,
    user: t.user,
    database: t.database,
    application_name: 'messenger-office',
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
  if (password !== undefined) config.password = password;
  if (t.tls) {
    config.ssl = {
      rejectUnauthorized: true,
      servername: isIP(t.host) === 0 ? t.host : undefined,
      ...(caFile !== undefined && caFile !== '' ? { ca: readFileSync(caFile, 'utf8') } : {}),
    };
  }
  return config;
}
