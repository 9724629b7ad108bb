// A real reference gateway for integration tests: temp data dir, ephemeral port on 127.0.0.1, one
// demo account (credentials in the result), optional secondary instance on the same data dir.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from '../../gateway/server.ts';
import type { RunningGateway, StartGatewayOptions } from '../../gateway/server.ts';
import type { GatewayContext } from '../../gateway/context.ts';
import type { Account, NewAccount } from '../../gateway/accounts.ts';
import { createAccount } from '../../gateway/accounts.ts';
import { createDemoAccount } from '../../gateway/demo.ts';
import { importAddressBook } from '../../gateway/address-books.ts';
import { parseMoney } from '../../gateway/credit.ts';
import type { NetworkSimulator } from '../../gateway/network/simulator.ts';
import { transaction } from '../../gateway/store/db.ts';

export interface TestGatewayOptions {
  sandbox?: boolean;
  /** Demo account credit in GBP, e.g. "10.00" (default). */
  credit?: string;
  /** Also start a secondary instance on the same data directory. */
  secondary?: boolean;
  receiptDelayMs?: number;
  /** Reuse a data directory (restart tests); it is then not deleted on close. */
  dataDir?: string;
  /** Create the demo account (default true; false when reusing a data dir). */
  demo?: boolean;
  /** Extra options for startGateway. */
  gateway?: Partial<StartGatewayOptions>;
}

export interface AddAccountOptions extends Omit<NewAccount, 'credit' | 'username' | 'pin'> {
  username?: string;
  pin?: string;
  /** GBP, e.g. "5.00". */
  credit?: string;
}

export interface TestGateway {
  url: string;
  secondaryUrl?: string;
  dataDir: string;
  username: string;
  pin: string;
  account: Account;
  ctx: GatewayContext;
  secondaryCtx?: GatewayContext;
  primary: RunningGateway;
  secondary?: RunningGateway;
  addAccount(opts?: AddAccountOptions): { account: Account; username: string; pin: string };
  close(): Promise<void>;
}

let counter = 0;

export async function startTestGateway(opts: TestGatewayOptions = {}): Promise<TestGateway> {
  const ownDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'gateway-test-')));
  const common: StartGatewayOptions = {
    dataDir,
    port: 0,
    host: '127.0.0.1',
    sandbox: opts.sandbox ?? true,
    receiptDelayMs: opts.receiptDelayMs ?? 50,
    quiet: true,
    schedulerIntervalMs: 100,
    ...opts.gateway,
  };
  const primary = await startGateway({ ...common, instance: 'primary' });
  const secondary = opts.secondary ? await startGateway({ ...common, instance: 'secondary' }) : undefined;
  let username = 'demo';
  const pin = 'demoPIN1';
  let account: Account;
  if (opts.demo ?? ownDir) {
    account = createDemoAccount(primary.ctx.db, { username, pin, credit: opts.credit ?? '10.00' }).account;
  } else {
    const row = primary.ctx.db.prepare('SELECT username FROM accounts ORDER BY id LIMIT 1').get() as
      { username: string } | undefined;
    username = row?.username ?? username;
    account = {
      id: 0,
      username,
      parentId: null,
      childType: null,
      restricted: false,
      number: null,
      pushUrl: null,
      replyTo: [],
    };
  }
  return {
    url: primary.url,
    ...(secondary ? { secondaryUrl: secondary.url, secondary, secondaryCtx: secondary.ctx } : {}),
    dataDir,
    username,
    pin,
    account,
    ctx: primary.ctx,
    primary,
    addAccount(o: AddAccountOptions = {}) {
      counter++;
      const name = o.username ?? `user${counter}x${Math.floor(Math.random() * 1e6)}`;
      const accountPin = o.pin ?? `PIN${counter}abc`;
      const credit = parseMoney(o.credit ?? '0');
      if (credit === null) throw new Error(`invalid credit ${o.credit}`);
      const created = createAccount(primary.ctx.db, { ...o, username: name, pin: accountPin, credit });
      return { account: created, username: name, pin: accountPin };
    },
    async close() {
      await secondary?.close();
      await primary.close();
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Percent-encodes every UTF-8 octet except unreserved characters (independent of protocol/form.ts). */
export function formBody(fields: Record<string, string> | Array<[string, string]>): string {
  const entries = Array.isArray(fields) ? fields : Object.entries(fields);
  return entries.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

export interface RawResponse {
  status: number;
  body: string;
  headers: Headers;
}

/** POST a form body (string sent as is) to `base + path`. */
export async function postForm(
  base: string,
  path: string,
  fields: Record<string, string> | Array<[string, string]> | string,
): Promise<RawResponse> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body: typeof fields === 'string' ? fields : formBody(fields),
  });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

export async function getForm(
  base: string,
  path: string,
  fields: Record<string, string> | Array<[string, string]> | string,
): Promise<RawResponse> {
  const qs = typeof fields === 'string' ? fields : formBody(fields);
  const res = await fetch(`${base}${path}?${qs}`);
  return { status: res.status, body: await res.text(), headers: res.headers };
}

/**
 * Splits a tag=value body (formats 1 and 3, query and manage responses) into tags whose values are
 * comma-separated lists of URL-decoded values (independent of protocol/responses.ts).
 */
export function parseTags(body: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const pair of body.trim().split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decodeURIComponent(eq < 0 ? pair : pair.slice(0, eq));
    const raw = eq < 0 ? '' : pair.slice(eq + 1);
    out[key] = raw.split(',').map((v) => decodeURIComponent(v.replace(/\+/g, ' ')));
  }
  return out;
}

/** Credit of an account straight from the store, in ten-thousandths of GBP. */
export function storedCredit(ctx: GatewayContext, username: string): number {
  const row = ctx.db.prepare('SELECT credit FROM accounts WHERE username = ?').get(username) as
    { credit: number } | undefined;
  if (!row) throw new Error(`no account ${username}`);
  return row.credit;
}

export function messageCount(ctx: GatewayContext, username: string, status?: string): number {
  const row = ctx.db
    .prepare(
      `SELECT count(*) AS n FROM messages m JOIN accounts a ON a.id = m.account_id
       WHERE a.username = ? AND (? IS NULL OR m.status = ?)`,
    )
    .get(username, status ?? null, status ?? null) as { n: number };
  return row.n;
}

/**
 * Queue `count` inbound replies to `number` at the gateway, through the network simulator's own
 * injectInbound (the path /sandbox/inbound and DeliverMessage take), in one transaction for speed.
 * Texts are "reply <i>" from `from` on, so a test can check each arrives once.
 */
export function queueReplies(gw: TestGateway, number: string, count: number, from = 0): void {
  const network = gw.ctx.network as NetworkSimulator;
  transaction(gw.ctx.db, () => {
    for (let i = from; i < from + count; i++) {
      const result = network.injectInbound({
        sendTo: number,
        replyTo: String(447700100000 + (i % 90_000)),
        message: `reply ${i}`,
        source: 'sandbox',
      });
      if (!result.ok) throw new Error(result.reason);
    }
  });
}

/** Messages the gateway stored per recipient number for the test account (each one charged). */
export function sentTo(gw: TestGateway): Map<string, number> {
  const rows = gw.ctx.db
    .prepare('SELECT recipient, count(*) AS n FROM messages WHERE account_id = ? GROUP BY recipient')
    .all(gw.account.id) as Array<{ recipient: string; n: number }>;
  return new Map(rows.map((r) => [r.recipient, r.n]));
}

/**
 * Adds `members` to the test account's server address book `name` (made if new): a number alone is
 * in `group` (or none), [number, groups] in those groups.
 */
export function serverBook(
  gw: TestGateway,
  name: string,
  members: Array<string | [string, string[]]>,
  group?: string,
): void {
  importAddressBook(
    gw.ctx.db,
    gw.account,
    name,
    members.map((m) =>
      typeof m === 'string' ? { number: m, groups: group ? [group] : [] } : { number: m[0], groups: m[1] },
    ),
  );
}
