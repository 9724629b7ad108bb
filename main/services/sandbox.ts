// The local sandbox: the reference gateway started in-process on loopback (sandbox mode) with a
// demo account, its data under <dataDir>/sandbox-gateway. The demo account is created once and
// reused; its credentials are kept next to the sandbox's own database (sandbox.json, mode 0600):
// a throwaway account of a gateway that only this user's loopback can reach, not a real PIN.
// The app reaches it like any gateway, over HTTP (its URL); the gateway object stays in here.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGateway } from '../../gateway/server.ts';
import type { RunningGateway } from '../../gateway/server.ts';
import { createDemoAccount } from '../../gateway/demo.ts';
import { getAccount } from '../../gateway/accounts.ts';
import { setPushUrl as setGatewayPushUrl } from '../../gateway/sandbox.ts';

export interface Sandbox {
  url: string;
  username: string;
  pin: string;
  /** Point the demo account's push URL (receipts, inbound) at the app's push receiver. */
  setPushUrl(url: string | null): void;
  close(): Promise<void>;
}

interface SandboxState {
  username: string;
  pin: string;
  port: number;
}

function readState(file: string): SandboxState | null {
  try {
    const s = JSON.parse(readFileSync(file, 'utf8')) as Partial<SandboxState>;
    return typeof s.username === 'string' && typeof s.pin === 'string' && typeof s.port === 'number'
      ? { username: s.username, pin: s.pin, port: s.port }
      : null;
  } catch {
    return null;
  }
}

export async function startSandbox(opts: { dir: string; receiptDelayMs?: number }): Promise<Sandbox> {
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  const stateFile = join(opts.dir, 'sandbox.json');
  const state = readState(stateFile);
  const start = (port: number): Promise<RunningGateway> =>
    startGateway({
      dataDir: opts.dir,
      port,
      host: '127.0.0.1',
      sandbox: true,
      quiet: true,
      ...(opts.receiptDelayMs !== undefined ? { receiptDelayMs: opts.receiptDelayMs } : {}),
    });
  let gateway: RunningGateway;
  try {
    // The same port as last time keeps the account's URL; any free port when it is taken.
    gateway = await start(state?.port ?? 0);
  } catch {
    gateway = await start(0);
  }
  let username = state?.username;
  let pin = state?.pin;
  if (username === undefined || pin === undefined || !getAccount(gateway.ctx.db, username)) {
    // 'demo' unless a lost state file left an account of that name behind.
    const name = getAccount(gateway.ctx.db, 'demo') ? `demo${Date.now().toString(36).slice(-6)}` : 'demo';
    const demo = createDemoAccount(gateway.ctx.db, { username: name });
    username = demo.username;
    pin = demo.pin;
  }
  writeFileSync(stateFile, JSON.stringify({ username, pin, port: gateway.port }), { mode: 0o600 });
  const user = username;
  const setPushUrl = (url: string | null): void => setGatewayPushUrl(gateway.ctx, user, url);
  return {
    url: gateway.url,
    username: user,
    pin,
    setPushUrl,
    async close() {
      try {
        setPushUrl(null);
      } catch {
        // the store may be closed already
      }
      await gateway.close();
    },
  };
}
