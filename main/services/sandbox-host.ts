// The local sandbox gateway's host (issue 15), run on its own thread by ./sandbox-worker.ts (or, when
// that thread cannot be started, on the main thread: ./sandbox.ts). It starts the reference gateway
// on loopback (sandbox mode) with its data under `dir` (mode 0700), on the port of last time when it
// is free, and creates the demo account once; its credentials are kept in sandbox.json (mode 0600)
// next to the gateway's database. Then it answers the main thread's messages: setPushUrl
// (acknowledged once the account row is written) and close (the push URL cleared, the gateway
// closed, acknowledged; the main thread then ends the thread). The messages of both directions are
// the types below; nothing else crosses.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGateway } from '../../gateway/server.ts';
import type { RunningGateway } from '../../gateway/server.ts';
import { createDemoAccount } from '../../gateway/demo.ts';
import { getAccount } from '../../gateway/accounts.ts';
import { setPushUrl } from '../../gateway/sandbox.ts';

/** What the main thread gives the worker (workerData). */
export interface SandboxWorkerData {
  dir: string;
  receiptDelayMs?: number;
}

/** Main thread → worker. */
export type SandboxRequest = { type: 'setPushUrl'; id: number; url: string | null } | { type: 'close' };

/** Worker → main thread. */
export type SandboxReply =
  /** The thread's code has loaded (its first statement): from here on a failure is not "did not start". */
  | { type: 'loaded' }
  | { type: 'started'; url: string; username: string; pin: string; port: number }
  | { type: 'failed'; message: string }
  | { type: 'pushUrlSet'; id: number; error?: string }
  | { type: 'closed'; error?: string };

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

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

async function start(data: SandboxWorkerData): Promise<{ gateway: RunningGateway; state: SandboxState }> {
  mkdirSync(data.dir, { recursive: true, mode: 0o700 });
  const stateFile = join(data.dir, 'sandbox.json');
  const state = readState(stateFile);
  const listen = (port: number): Promise<RunningGateway> =>
    startGateway({
      dataDir: data.dir,
      port,
      host: '127.0.0.1',
      sandbox: true,
      quiet: true,
      ...(data.receiptDelayMs !== undefined ? { receiptDelayMs: data.receiptDelayMs } : {}),
    });
  let gateway: RunningGateway;
  try {
    // The same port as last time keeps the account's URL; any free port when it is taken.
    gateway = await listen(state?.port ?? 0);
  } catch {
    gateway = await listen(0);
  }
  try {
    let username = state?.username;
    let pin = state?.pin;
    if (username === undefined || pin === undefined || !getAccount(gateway.ctx.db, username)) {
      // 'demo' unless a lost state file left an account of that name behind.
      const name = getAccount(gateway.ctx.db, 'demo') ? `demo${Date.now().toString(36).slice(-6)}` : 'demo';
      const demo = createDemoAccount(gateway.ctx.db, { username: name });
      username = demo.username;
      pin = demo.pin;
    }
    const kept = { username, pin, port: gateway.port };
    writeFileSync(stateFile, JSON.stringify(kept), { mode: 0o600 });
    return { gateway, state: kept };
  } catch (err) {
    await gateway.close().catch(() => {});
    throw err;
  }
}

/** How the host talks to ./sandbox.ts: a worker's parentPort, or the same calls on one thread. */
export interface SandboxChannel {
  post(reply: SandboxReply): void;
  onRequest(handler: (req: SandboxRequest) => void): void;
}

/** Starts the gateway of `data` and serves the main thread's requests over `channel`. */
export async function serveSandbox(data: SandboxWorkerData, channel: SandboxChannel): Promise<void> {
  const post = (reply: SandboxReply): void => channel.post(reply);
  try {
    const { gateway, state } = await start(data);
    let closing: Promise<void> | null = null;
    channel.onRequest((req) => {
      if (req.type === 'setPushUrl') {
        // Synchronous on this thread: the row is written when the answer is posted.
        try {
          if (closing) throw new Error('the sandbox is closing');
          setPushUrl(gateway.ctx, state.username, req.url);
          post({ type: 'pushUrlSet', id: req.id });
        } catch (err) {
          post({ type: 'pushUrlSet', id: req.id, error: message(err) });
        }
      } else {
        closing ??= (async () => {
          try {
            setPushUrl(gateway.ctx, state.username, null);
          } catch {
            // the store may be closed already
          }
          try {
            await gateway.close();
            post({ type: 'closed' });
          } catch (err) {
            post({ type: 'closed', error: message(err) });
          }
        })();
      }
    });
    post({ type: 'started', url: gateway.url, ...state });
  } catch (err) {
    post({ type: 'failed', message: message(err) });
  }
}
