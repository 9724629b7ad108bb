// Issue 15: the local sandbox gateway runs on a worker thread of the app's process
// (main/services/sandbox.ts, sandbox-worker.ts), not on the main thread's event loop. It answers
// HTTP while the main thread is blocked; its push URL is stored when setPushUrl resolves (and so
// when a sandbox sign-in resolves); a second start on the same folder reuses the demo account and
// the port; a start that fails rejects with the gateway's message; close() ends the thread, so a
// process that only started and closed a sandbox ends by itself.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../main/services/sandbox.ts';
import type { Sandbox } from '../../../main/services/sandbox.ts';
import { createMessengerApp } from '../../../main/services/app.ts';
import { openGatewayDb } from '../../../gateway/store/db.ts';
import { DEMO_NUMBER } from '../../../gateway/demo.ts';
import { NODE, ROOT } from '../../support/built-app.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function started(dir: string): Promise<Sandbox> {
  const sb = await startSandbox({ dir });
  cleanups.push(() => sb.close());
  return sb;
}

/** The demo account's push URL, read through a second connection to the sandbox's database. */
function pushUrlOf(dir: string, username: string): string | null {
  const db = openGatewayDb(dir);
  try {
    const row = db.prepare('SELECT push_url FROM accounts WHERE username = ?').get(username) as
      { push_url: string | null } | undefined;
    return row?.push_url ?? null;
  } finally {
    db.close();
  }
}

describe('the local sandbox on its own thread', () => {
  it('runs on a worker thread and answers HTTP while the main thread is blocked', async () => {
    const dir = await tempDir('messenger-sandbox-thread-');
    const sb = await started(dir);
    expect(sb.threadId).toEqual(expect.any(Number));
    expect(sb.threadId).not.toBe(threadId);
    // The main thread waits synchronously for another process that plays a phone's message to the
    // sandbox and prints the answer: an in-process gateway could not run until the wait ended (the
    // child would time out); the gateway's thread answers during it.
    const script = `
      const res = await fetch(process.argv[1] + '/sandbox/inbound', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ SendTo: process.argv[2], ReplyTo: '447700900610', Message: 'while blocked' }),
      });
      process.stdout.write(JSON.stringify({ status: res.status, body: await res.json() }));`;
    const t = performance.now();
    const out = execFileSync(NODE, ['--input-type=module', '-e', script, sb.url, DEMO_NUMBER], {
      encoding: 'utf8',
      timeout: 15_000,
    });
    const blockedMs = performance.now() - t;
    expect(JSON.parse(out)).toMatchObject({
      status: 200,
      body: { messageIdentifier: expect.any(String) },
    });
    expect(blockedMs).toBeLessThan(15_000);
    // stored by the gateway before the main thread ran again
    const db = openGatewayDb(dir);
    try {
      const row = db.prepare('SELECT count(*) AS n FROM inbound_messages').get() as { n: number };
      expect(row.n).toBe(1);
    } finally {
      db.close();
    }
  });

  it('has the push URL stored when setPushUrl resolves, and cleared by close()', async () => {
    const dir = await tempDir('messenger-sandbox-push-');
    const sb = await startSandbox({ dir });
    await sb.setPushUrl('http://127.0.0.1:9/push/abc');
    expect(pushUrlOf(dir, sb.username)).toBe('http://127.0.0.1:9/push/abc');
    await sb.setPushUrl(null);
    expect(pushUrlOf(dir, sb.username)).toBeNull();
    await sb.setPushUrl('http://127.0.0.1:9/push/def');
    await sb.close();
    expect(pushUrlOf(dir, sb.username)).toBeNull();
    await expect(sb.setPushUrl('http://127.0.0.1:9/push/late')).rejects.toThrow(/closed/);
    await sb.close(); // a second close is the first one
  });

  it("points the sandbox's push URL at the app's receiver before a sandbox sign-in resolves", async () => {
    const dir = await tempDir('messenger-sandbox-app-');
    const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
    cleanups.push(() => a.close());
    const account = await a.api.accounts.signIn({ sandbox: true });
    const receiver = a.pushReceiverUrl();
    expect(receiver).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/push\//);
    expect(pushUrlOf(join(dir, 'sandbox-gateway'), account.username)).toBe(receiver);
  });

  it('reuses the demo account and the port on a second start in the same folder', async () => {
    const dir = await tempDir('messenger-sandbox-again-');
    const first = await startSandbox({ dir });
    await first.close();
    const second = await started(dir);
    expect(second).toMatchObject({ url: first.url, username: first.username, pin: first.pin });
    expect(second.username).toBe('demo');
    expect((await fetch(`${second.url}/sandbox/library`)).status).toBe(200);
  });

  it("rejects a start that fails with the gateway's message, and leaves no thread behind", async () => {
    const dir = await tempDir('messenger-sandbox-fail-');
    const notAFolder = join(dir, 'file');
    await writeFile(notAFolder, 'not a folder');
    await expect(startSandbox({ dir: notAFolder })).rejects.toThrow(/EEXIST|ENOTDIR/);
  });

  it('runs on the main thread, said in the log, when its own thread cannot start at all', async () => {
    const dir = await tempDir('messenger-sandbox-fallback-');
    const lines: string[] = [];
    // A thread file that cannot be loaded, as a packaging fault would leave it.
    const sb = await startSandbox({
      dir,
      log: (line) => lines.push(line),
      workerFile: new URL('file:///nonexistent/sandbox-worker.js'),
    });
    cleanups.push(() => sb.close());
    expect(sb.threadId).toBe(threadId);
    expect(lines).toEqual([expect.stringMatching(/runs on the main thread: its own thread did not start/)]);
    // The same sandbox: a phone's message played to it is stored, its push URL is kept.
    const res = await fetch(`${sb.url}/sandbox/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SendTo: DEMO_NUMBER, ReplyTo: '447700900123', Message: 'hello' }),
    });
    expect(res.status).toBe(200);
    await sb.setPushUrl('http://127.0.0.1:9/push/fallback');
    expect(pushUrlOf(dir, sb.username)).toBe('http://127.0.0.1:9/push/fallback');
    await sb.close();
    await expect(sb.setPushUrl(null)).rejects.toThrow(/closed/);
  });

  it('a thread that loaded and then crashed is not "a thread that did not start": no main-thread fallback', async () => {
    const dir = await tempDir('messenger-sandbox-crash-');
    const lines: string[] = [];
    const start = startSandbox({
      dir,
      log: (line) => lines.push(line),
      workerFile: new URL('../../fixtures/sandbox-worker-crashes-after-load.ts', import.meta.url),
    });
    // The same start on the main thread would meet the same fault there (the app's own process).
    const sb = await start.catch((err: unknown) => err as Error);
    if (!(sb instanceof Error)) cleanups.push(() => sb.close());
    expect(lines).not.toContainEqual(expect.stringMatching(/runs on the main thread/));
    expect(sb).toBeInstanceOf(Error);
    expect((sb as Error).message).toMatch(/crashed during the gateway start/);
  });

  it('ends its thread on close(): a process that started and closed a sandbox ends by itself', async () => {
    const dir = await tempDir('messenger-sandbox-exit-');
    // a file, not --input-type=module -e: a worker inherits the options and refuses that one
    const script = join(dir, 'start-and-close.mjs');
    await writeFile(
      script,
      `const { startSandbox } = await import(process.argv[2]);
      const sb = await startSandbox({ dir: process.argv[3] });
      await sb.setPushUrl('http://127.0.0.1:9/push/x');
      const res = await fetch(sb.url + '/sandbox/library');
      await res.arrayBuffer();
      await sb.close();
      process.stdout.write('closed ' + res.status);`,
    );
    const child = spawn(
      NODE,
      [
        '--disable-warning=ExperimentalWarning',
        script,
        join(ROOT, 'main/services/sandbox.ts'),
        join(dir, 'sb'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    expect({ code, out, err }).toEqual({ code: 0, out: 'closed 200', err: '' });
  });
});
