// A desk in a child process (test/integration/office/office-desk-child.ts) that a test can kill
// with SIGKILL: its JSON lines are collected, `poll()` asks it to collect now.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { OfficeStatus } from '../../preload/api.ts';
import type { TestGateway } from './gateway.ts';
import type { TestPostgres } from './office-db.ts';
import { waitFor } from './office-desk.ts';

export interface ChildDesk {
  child: ChildProcessWithoutNullStreams;
  statuses: OfficeStatus[];
  polled: number[];
  /** The unread total after each 'inbox:received', with the time it was read here. */
  unread: Array<{ n: number; at: number }>;
  exited: Promise<NodeJS.Signals | null>;
  poll(): Promise<number>;
  /** The job id of each 'outbox:progress' the desk emitted. */
  progress: number[];
  /** An API call made at the desk (app.call), its answer. */
  call<T>(channel: string, arg?: unknown): Promise<T>;
  /** The child's CPU time so far (user + system), ms. */
  cpu(): Promise<number>;
  /** How many inbound "reply N" texts the desk holds, and how many distinct. */
  texts(): Promise<{ total: number; distinct: number }>;
  kill(): Promise<void>;
}

export function startChildDesk(
  dataDir: string,
  gw: Pick<TestGateway, 'url' | 'username' | 'pin'>,
  server: Pick<TestPostgres, 'url' | 'password'>,
  pollSeconds = 5,
): Promise<ChildDesk> {
  const child = spawn(
    process.execPath,
    [
      join(import.meta.dirname, '../integration/office/office-desk-child.ts'),
      dataDir,
      gw.url,
      gw.username,
      server.url,
      String(pollSeconds),
    ],
    {
      env: { ...process.env, MESSENGER_PIN: gw.pin, MESSENGER_OFFICE_PASSWORD: server.password },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const statuses: OfficeStatus[] = [];
  const polled: number[] = [];
  const texts: Array<{ total: number; distinct: number }> = [];
  const cpu: number[] = [];
  const unread: Array<{ n: number; at: number }> = [];
  const progress: number[] = [];
  const answers: Array<{ called?: unknown; callError?: string }> = [];
  let ready = false;
  const exited = new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_c, signal) => r(signal)));
  void (async () => {
    for await (const line of createInterface({ input: child.stdout })) {
      const m = JSON.parse(line) as {
        ready?: true;
        status?: OfficeStatus;
        polled?: number;
        texts?: { total: number; distinct: number };
        unread?: number;
        progress?: number;
        called?: unknown;
        callError?: string;
        cpu?: number;
      };
      if (m.progress !== undefined) progress.push(m.progress);
      if ('called' in m || m.callError !== undefined) answers.push(m);
      if (m.cpu !== undefined) cpu.push(m.cpu);
      if (m.unread !== undefined) unread.push({ n: m.unread, at: performance.now() });
      if (m.texts) texts.push(m.texts);
      if (m.ready) ready = true;
      if (m.status) statuses.push(m.status);
      if (m.polled !== undefined) polled.push(m.polled);
    }
  })();
  const desk: ChildDesk = {
    child,
    statuses,
    polled,
    unread,
    progress,
    exited,
    async call<T>(channel: string, arg?: unknown): Promise<T> {
      const before = answers.length;
      child.stdin.write(`call ${JSON.stringify({ channel, arg })}\n`);
      const a = await waitFor('the child desk answered', async () =>
        answers.length > before ? answers[before] : undefined,
      );
      if (a.callError !== undefined) throw new Error(a.callError);
      return a.called as T;
    },
    async poll() {
      const before = polled.length;
      child.stdin.write('poll\n');
      return waitFor('the child desk polled', async () =>
        polled.length > before ? polled[before] : undefined,
      );
    },
    async cpu() {
      const before = cpu.length;
      child.stdin.write('cpu\n');
      return waitFor('the child desk told its CPU time', async () =>
        cpu.length > before ? cpu[before] : undefined,
      );
    },
    async texts() {
      const before = texts.length;
      child.stdin.write('texts\n');
      return waitFor('the child desk counted', async () =>
        texts.length > before ? texts[before] : undefined,
      );
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
  return waitFor(
    `the child desk ready (${stderr})`,
    async () => {
      if (child.exitCode !== null) throw new Error(`the child desk exited: ${stderr}`);
      return ready ? desk : undefined;
    },
    60_000,
  );
}
