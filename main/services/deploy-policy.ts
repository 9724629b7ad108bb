// The deploy policy (docs/ADMIN.md, "Deploy policy"): a JSON file an administrator installs to fix
// the gateway URLs, the accounts that may sign in, update checks, the poll interval bounds and
// whether the local sandbox is offered. Plain Node, no Electron (not to be confused with
// main/electron/policy.ts, the shell's security rules).
//
// Where it is read: the system location of the platform first, MESSENGER_POLICY (a path) only when
// there is no file at the system location. The system location is writable by administrators only,
// while anyone who starts the app can set an environment variable: if MESSENGER_POLICY won, a user
// could replace the administrator's policy with their own file.
//
// A file that cannot be read, is not JSON or breaks a rule of the schema is not applied at all (a
// half-written file is not a policy): the app starts with SAFE_POLICY and reports the file's path
// and every problem ("field: rule (value)") to the renderer, which shows them in a banner.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DELIVERY_OPTIONS, LIMITS, type DeliveryOption } from '../../protocol/limits.ts';
import { formatMoney, parseMoney } from '../../protocol/money.ts';
import type { EffectivePolicy } from '../../domain/index.ts';
import { POLL_INTERVAL_RANGE } from '../store/settings.ts';
import { DEFAULT_MAX_DOWNLOAD_BYTES } from './update-download.ts';
import { parsePublicKey } from './update-signature.ts';
import { parseOfficeUrl, urlHasPassword } from '../office/connection.ts';

export type { EffectivePolicy };

/** The file an administrator writes (every part optional). */
export interface PolicyFile {
  gateway?: { primaryUrl?: string; secondaryUrl?: string; locked?: boolean };
  allowedUsernames?: string[];
  updates?: {
    enabled?: boolean;
    channel?: string;
    allowedDownloadHosts?: string[];
    publicKeys?: string[];
    maxDownloadBytes?: number;
    allowUnsigned?: boolean;
  };
  pollIntervalSeconds?: { min: number; max: number };
  offerSandbox?: boolean;
  childAccounts?: boolean;
  soapTypesNamespace?: string;
  allowInsecureGateways?: boolean;
  /** Issue 26: the price of a message part per delivery option, in the account's currency ("0.04"). */
  deliveryRates?: Partial<Record<DeliveryOption, string>>;
  /** Issue 28: the office database (postgres://USER@HOST:PORT/DATABASE, no password). */
  officeDatabase?: string;
}

/** No policy file: nothing is restricted (an unmanaged install). */
export const NO_POLICY: Readonly<EffectivePolicy> = Object.freeze({
  source: null,
  error: null,
  gateway: { primaryUrl: null, secondaryUrl: null, locked: false },
  allowedUsernames: null,
  updates: {
    enabled: true,
    channel: 'stable',
    allowedDownloadHosts: null,
    publicKeys: [],
    maxDownloadBytes: DEFAULT_MAX_DOWNLOAD_BYTES,
    allowUnsigned: false,
  },
  pollIntervalSeconds: { min: POLL_INTERVAL_RANGE[0], max: POLL_INTERVAL_RANGE[1] },
  offerSandbox: true,
  childAccounts: false,
  soapTypesNamespace: null,
  allowInsecureGateways: false,
  deliveryRates: {},
  officeDatabase: null,
});

/**
 * A policy file exists but cannot be applied. What the administrator meant is unknown, so only the
 * choices that cannot widen what a managed install does: no update checks (the allowed download
 * hosts are unknown), no local sandbox; signing in to a gateway stays possible (the gateway checks
 * the credentials) so that a typo in the file does not stop people from working.
 */
export const SAFE_POLICY: Readonly<EffectivePolicy> = Object.freeze({
  ...NO_POLICY,
  updates: { ...NO_POLICY.updates, enabled: false, allowedDownloadHosts: [] },
  offerSandbox: false,
});

export const POLICY_ENV = 'MESSENGER_POLICY';

/** The fixed system location on Windows: the default of %ProgramData%, never read from the environment. */
export const WINDOWS_POLICY_PATH = 'C:\\ProgramData\\Messenger\\policy.json';

/**
 * The system location of the policy file on `platform`. Nothing of it comes from the environment: on
 * Windows %ProgramData% is an environment variable that any user can set for the processes they
 * start, so taking the folder from it would let a user point the app at a policy file of their own
 * and replace the administrator's. The path is fixed to C:\ProgramData, the default of %ProgramData%
 * (writable by administrators only).
 */
export function systemPolicyPath(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return WINDOWS_POLICY_PATH;
  if (platform === 'darwin') return join('/Library/Application Support/Messenger', 'policy.json');
  return '/etc/messenger/policy.json';
}

// ------------------------------------------------------------------ schema

type Problems = string[];

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const shown = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 80 ? `${s.slice(0, 77)}…` : s;
};

function unknownKeys(problems: Problems, path: string, v: Record<string, unknown>, known: string[]): void {
  for (const k of Object.keys(v)) {
    if (!known.includes(k)) {
      problems.push(`${path}${k}: not a known field (expected one of ${known.join(', ')})`);
    }
  }
}

/** A gateway URL as the accounts store keeps it (href without the trailing slash), or null. */
export function normalizeGatewayUrl(value: string): string | null {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return url.href.replace(/\/$/, '');
  } catch {
    return null;
  }
}

function url(problems: Problems, path: string, v: unknown): string | null {
  if (v === undefined) return null;
  const n = typeof v === 'string' ? normalizeGatewayUrl(v) : null;
  if (n === null) problems.push(`${path}: must be an http or https URL (${shown(v)})`);
  return n;
}

function bool(problems: Problems, path: string, v: unknown, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') problems.push(`${path}: must be true or false (${shown(v)})`);
  return v === true;
}

function stringList(
  problems: Problems,
  path: string,
  v: unknown,
  item: (s: string) => string | null,
): string[] | null {
  if (v === undefined) return null;
  if (!Array.isArray(v)) {
    problems.push(`${path}: must be a list (${shown(v)})`);
    return null;
  }
  const out: string[] = [];
  v.forEach((x: unknown, i) => {
    const rule = typeof x === 'string' ? item(x) : 'must be a string';
    if (rule !== null) problems.push(`${path}[${i}]: ${rule} (${shown(x)})`);
    else out.push(x as string);
  });
  return out;
}

const USERNAME = /^[A-Za-z0-9.]+$/;
const HOST =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/**
 * Every problem of a parsed policy file as "field: rule (value)", and the policy it describes
 * (meaningful only when there is no problem).
 */
export function checkPolicy(input: unknown): { problems: string[]; policy: EffectivePolicy } {
  const p: Problems = [];
  const policy: EffectivePolicy = structuredClone(NO_POLICY) as EffectivePolicy;
  if (!isObj(input)) {
    p.push(`(file): must be a JSON object (${shown(input)})`);
    return { problems: p, policy };
  }
  unknownKeys(p, '', input, [
    'gateway',
    'allowedUsernames',
    'updates',
    'pollIntervalSeconds',
    'offerSandbox',
    'childAccounts',
    'soapTypesNamespace',
    'allowInsecureGateways',
    'deliveryRates',
    'officeDatabase',
  ]);

  const g = input.gateway;
  if (g !== undefined) {
    if (!isObj(g)) p.push(`gateway: must be an object (${shown(g)})`);
    else {
      unknownKeys(p, 'gateway.', g, ['primaryUrl', 'secondaryUrl', 'locked']);
      const primaryUrl = url(p, 'gateway.primaryUrl', g.primaryUrl);
      const secondaryUrl = url(p, 'gateway.secondaryUrl', g.secondaryUrl);
      const locked = bool(p, 'gateway.locked', g.locked, false);
      if (locked && g.primaryUrl === undefined)
        p.push('gateway.primaryUrl: required when gateway.locked is true (missing)');
      if (g.secondaryUrl !== undefined && g.primaryUrl === undefined)
        p.push('gateway.primaryUrl: required with gateway.secondaryUrl (missing)');
      policy.gateway = { primaryUrl, secondaryUrl, locked };
    }
  }

  const users = stringList(p, 'allowedUsernames', input.allowedUsernames, (s) =>
    s.length < 1 || s.length > LIMITS.usernameMax
      ? `must be 1 to ${LIMITS.usernameMax} characters`
      : USERNAME.test(s)
        ? null
        : 'must be letters, digits and dots (a gateway Username)',
  );
  if (users !== null && Array.isArray(input.allowedUsernames) && input.allowedUsernames.length === 0)
    p.push('allowedUsernames: must name at least one account, or be left out to allow any ([])');
  policy.allowedUsernames = users;

  const u = input.updates;
  if (u !== undefined) {
    if (!isObj(u)) p.push(`updates: must be an object (${shown(u)})`);
    else {
      unknownKeys(p, 'updates.', u, [
        'enabled',
        'channel',
        'allowedDownloadHosts',
        'publicKeys',
        'maxDownloadBytes',
        'allowUnsigned',
      ]);
      const enabled = bool(p, 'updates.enabled', u.enabled, true);
      let channel = 'stable';
      if (u.channel !== undefined) {
        if (typeof u.channel !== 'string' || !/^[a-z][a-z0-9-]{0,31}$/.test(u.channel))
          p.push(
            `updates.channel: must be a lower-case name such as "stable" or "beta" (${shown(u.channel)})`,
          );
        else channel = u.channel;
      }
      const hosts = stringList(p, 'updates.allowedDownloadHosts', u.allowedDownloadHosts, (s) =>
        HOST.test(s) ? null : 'must be a host name such as "downloads.example.com"',
      );
      const keys = stringList(p, 'updates.publicKeys', u.publicKeys, (s) => {
        try {
          parsePublicKey(s);
          return null;
        } catch (err) {
          return err instanceof Error ? err.message : 'not an Ed25519 public key';
        }
      });
      let maxDownloadBytes = DEFAULT_MAX_DOWNLOAD_BYTES;
      if (u.maxDownloadBytes !== undefined) {
        if (!Number.isSafeInteger(u.maxDownloadBytes) || (u.maxDownloadBytes as number) < 1)
          p.push(
            `updates.maxDownloadBytes: must be a whole number of bytes above 0 (${shown(u.maxDownloadBytes)})`,
          );
        else maxDownloadBytes = u.maxDownloadBytes as number;
      }
      policy.updates = {
        enabled,
        channel,
        allowedDownloadHosts: hosts,
        publicKeys: keys ?? [],
        maxDownloadBytes,
        // Issue 23: unsigned releases only where the administrator says so (a lab's own builds).
        allowUnsigned: bool(p, 'updates.allowUnsigned', u.allowUnsigned, false),
      };
    }
  }

  const poll = input.pollIntervalSeconds;
  if (poll !== undefined) {
    if (!isObj(poll)) p.push(`pollIntervalSeconds: must be an object { min, max } (${shown(poll)})`);
    else {
      unknownKeys(p, 'pollIntervalSeconds.', poll, ['min', 'max']);
      const [lo, hi] = POLL_INTERVAL_RANGE;
      const bound = (k: 'min' | 'max'): number | null => {
        const v = poll[k];
        if (v === undefined) {
          p.push(`pollIntervalSeconds.${k}: required (missing)`);
          return null;
        }
        if (!Number.isInteger(v) || (v as number) < lo || (v as number) > hi) {
          p.push(`pollIntervalSeconds.${k}: must be a whole number from ${lo} to ${hi} (${shown(v)})`);
          return null;
        }
        return v as number;
      };
      const min = bound('min');
      const max = bound('max');
      if (min !== null && max !== null && min > max)
        p.push(`pollIntervalSeconds.min: must not be above pollIntervalSeconds.max (${min} > ${max})`);
      policy.pollIntervalSeconds = { min: min ?? lo, max: max ?? hi };
    }
  }

  policy.offerSandbox = bool(p, 'offerSandbox', input.offerSandbox, true);
  policy.childAccounts = bool(p, 'childAccounts', input.childAccounts, false);
  const ns = input.soapTypesNamespace;
  if (ns !== undefined) {
    if (typeof ns === 'string' && /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(ns) && ns.length <= 500)
      policy.soapTypesNamespace = ns;
    else
      p.push(
        `soapTypesNamespace: must be an absolute URI such as http://www.csoft.co.uk/dtd/sendsms5.xsd (${shown(ns)})`,
      );
  }
  policy.allowInsecureGateways = bool(p, 'allowInsecureGateways', input.allowInsecureGateways, false);
  policy.deliveryRates = deliveryRates(p, input.deliveryRates);
  // issue 28: office mode for every desk of this computer; the password never goes in the file
  const office = input.officeDatabase;
  if (office !== undefined) {
    const parsed = typeof office === 'string' ? parseOfficeUrl(office) : null;
    if (parsed === null || !parsed.ok)
      p.push(`officeDatabase: ${parsed?.reason ?? 'must be a postgres:// URL'} (${shown(office)})`);
    else if (urlHasPassword(office as string))
      p.push('officeDatabase: must not carry a password (each desk keeps its own: docs/OFFICE.md)');
    else policy.officeDatabase = (office as string).trim();
  }
  return { problems: p, policy };
}

/** Issue 26: { "Default": "0.04", … }: each a price above 0 with at most four decimals. */
function deliveryRates(p: Problems, v: unknown): Partial<Record<DeliveryOption, string>> {
  const out: Partial<Record<DeliveryOption, string>> = {};
  if (v === undefined) return out;
  if (!isObj(v)) {
    p.push(`deliveryRates: must be an object such as { "Default": "0.04" } (${shown(v)})`);
    return out;
  }
  unknownKeys(p, 'deliveryRates.', v, [...DELIVERY_OPTIONS]);
  for (const option of DELIVERY_OPTIONS) {
    const price = v[option];
    if (price === undefined) continue;
    const text = typeof price === 'number' ? String(price) : price;
    const units = typeof text === 'string' ? parseMoney(text) : null;
    if (units === null || units <= 0)
      p.push(
        `deliveryRates.${option}: must be a price above 0 with at most four decimals, such as "0.04" (${shown(price)})`,
      );
    else out[option] = formatMoney(units);
  }
  return out;
}

// ------------------------------------------------------------------ loading

export interface LoadPolicyOptions {
  /** Read exactly this file (tests, --policy); otherwise the system location, then MESSENGER_POLICY. */
  file?: string;
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
  /** The system location (default systemPolicyPath(platform)). */
  systemPath?: string;
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The policy of one file; a missing file is `null` (no policy). */
export function readPolicyFile(path: string): EffectivePolicy | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (isMissing(err)) return null;
    const why = (err as { code?: string }).code ?? (err instanceof Error ? err.message : String(err));
    return failed(path, [`(file): cannot be read (${why})`]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    return failed(path, [`(file): is not valid JSON (${err instanceof Error ? err.message : String(err)})`]);
  }
  const { problems, policy } = checkPolicy(parsed);
  if (problems.length > 0) return failed(path, problems);
  return { ...policy, source: path };
}

function failed(path: string, problems: string[]): EffectivePolicy {
  return { ...structuredClone(SAFE_POLICY), source: path, error: { path, problems } };
}

/** The effective policy at start: see the header for which file wins. Never throws. */
export function loadDeployPolicy(opts: LoadPolicyOptions = {}): EffectivePolicy {
  if (opts.file !== undefined) {
    return (
      readPolicyFile(opts.file) ??
      failed(opts.file, ['(file): does not exist (the policy file given to the app)'])
    );
  }
  const env = opts.env ?? process.env;
  const system = opts.systemPath ?? systemPolicyPath(opts.platform);
  const fromSystem = readPolicyFile(system);
  if (fromSystem) return fromSystem;
  const fromEnv = env[POLICY_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    return readPolicyFile(fromEnv) ?? failed(fromEnv, [`(file): does not exist (named by ${POLICY_ENV})`]);
  }
  return structuredClone(NO_POLICY) as EffectivePolicy;
}

/** Why `username` at `primaryUrl`/`secondaryUrl` may not sign in under `policy`, or null. */
export function signInRefusal(
  policy: EffectivePolicy,
  req: { username: string; primaryUrl: string; secondaryUrl?: string | null },
): string | null {
  const g = policy.gateway;
  if (g.locked && g.primaryUrl !== null) {
    const primary = normalizeGatewayUrl(req.primaryUrl);
    const secondary =
      req.secondaryUrl === undefined || req.secondaryUrl === null || req.secondaryUrl.trim() === ''
        ? null
        : normalizeGatewayUrl(req.secondaryUrl);
    if (primary !== g.primaryUrl) {
      return `the deploy policy allows only the gateway ${g.primaryUrl}, not ${req.primaryUrl}`;
    }
    if (secondary !== null && secondary !== g.secondaryUrl) {
      return `the deploy policy allows only the secondary gateway ${g.secondaryUrl ?? '(none)'}, not ${req.secondaryUrl}`;
    }
  }
  const allowed = policy.allowedUsernames;
  if (allowed !== null && !allowed.includes(req.username.trim())) {
    return `the deploy policy does not allow the account "${req.username.trim()}" on this computer (allowed: ${allowed.join(', ')})`;
  }
  return null;
}

/** The poll interval within the policy's bounds. */
export function clampPollInterval(policy: EffectivePolicy, seconds: number): number {
  return Math.min(policy.pollIntervalSeconds.max, Math.max(policy.pollIntervalSeconds.min, seconds));
}
