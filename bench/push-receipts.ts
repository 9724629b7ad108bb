// `npm run bench -- --only push-receipts`: what a pushed delivery receipt costs the app's main thread
// (issue 27 item 6: during a campaign to the local sandbox the gateway pushes receipts by the thousand,
// each taken from the send's own thread). A campaign of RECEIPTS recipients is sent to the reference
// gateway (in-process, receipts not due), then a worker thread pushes a SubmitDeliveryReceipt for each
// of them to the app's push receiver, PUSH_CONCURRENCY at a time as the gateway does; the main thread's
// CPU time over the pushes (process.threadCpuUsage: the worker's is not in it) per receipt is the
// figure. Baseline in the same run: the same pushes to a bare PushReceiver whose listener stores
// nothing (the HTTP and SOAP read and the answer alone).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startGateway } from '../gateway/server.ts';
import { createAccount } from '../gateway/accounts.ts';
import { PushReceiver } from '../main/client/push-receiver.ts';
import { createMessengerApp } from '../main/services/app.ts';
import type { OutboxJob, SendAccepted } from '../domain/index.ts';

const RECEIPTS = Number(process.env.BENCH_RECEIPTS ?? (process.env.BENCH_QUICK ? 3_000 : 10_000));
/** As the reference gateway pushes (gateway/network/push.ts PUSH_CONCURRENCY). */
const PUSH_CONCURRENCY = 8;

interface Pushed {
  ms: number;
  mainCpuMs: number;
  ok: number;
}

/** Pushes a receipt for each identifier from a worker thread; the main thread's CPU over the pushes. */
async function push(url: string, username: string, identifiers: string[]): Promise<Pushed> {
  const worker = new Worker(new URL('./_receipt-pusher.ts', import.meta.url), {
    workerData: { url, username, identifiers, concurrency: PUSH_CONCURRENCY },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    const cpu = process.threadCpuUsage();
    const t = performance.now();
    const done = new Promise<{ ok: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    worker.postMessage('go');
    const { ok } = await done;
    const used = process.threadCpuUsage(cpu);
    return { ms: performance.now() - t, mainCpuMs: (used.user + used.system) / 1000, ok };
  } finally {
    await worker.terminate();
  }
}

export async function run(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'messenger-bench-receipts-'));
  const gateway = await startGateway({
    dataDir: join(tmp, 'gateway'),
    port: 0,
    quiet: true,
    receiptDelayMs: 3_600_000,
  });
  const app = await createMessengerApp({ dataDir: join(tmp, 'app'), env: {}, log: () => {} });
  try {
    createAccount(gateway.ctx.db, { username: 'bench', pin: 'bench1', credit: 1_000_000_000 });
    await app.call('settings.update', { pushReceiver: { enabled: true, port: null } });
    await app.call('accounts.signIn', {
      username: 'bench',
      pin: 'bench1',
      primaryUrl: gateway.url,
      rememberPin: false,
    });
    const url = app.pushReceiverUrl();
    if (!url) throw new Error('the push receiver did not start');
    // The campaign whose recipients the receipts are for.
    let resolveDone: (job: OutboxJob) => void = () => {};
    const sent = new Promise<OutboxJob>((r) => (resolveDone = r));
    const off = app.events.on('outbox:progress', ({ job }) => {
      if (job.counts.pending === 0 && job.counts.sending === 0) resolveDone(job);
    });
    const numbers = Array.from({ length: RECEIPTS }, (_, i) => `+4474${String(10000000 + i)}`);
    const accepted = (await app.call('send.submit', {
      recipients: numbers,
      content: { kind: 'text', text: 'Bench receipts' },
    })) as SendAccepted;
    const job = await sent;
    off();
    const identifiers = (await app.api.outbox.recipients(accepted.job.id))
      .map((r) => r.messageIdentifier)
      .filter((id): id is string => id !== null);
    if (identifiers.length !== RECEIPTS) throw new Error(`${identifiers.length} of ${RECEIPTS} accepted`);

    // Baseline: a bare receiver, nothing stored.
    const bare = new PushReceiver({ username: 'bench' });
    bare.on('receipt', () => {});
    const bareUrl = await bare.listen();
    const baseline = await push(bareUrl, 'bench', identifiers).finally(() => bare.close());

    const stored = await push(url, 'bench', identifiers);
    const after = await app.api.outbox.job(job.id);
    const delivered = after?.counts.delivered ?? 0;
    if (stored.ok !== RECEIPTS || delivered !== RECEIPTS)
      throw new Error(`${stored.ok} answered, ${delivered} delivered of ${RECEIPTS}`);
    const per = (p: Pushed): string => (p.mainCpuMs / RECEIPTS).toFixed(3);
    console.log(
      `${RECEIPTS.toLocaleString('en-GB')} delivery receipts pushed to the app's push receiver, ${PUSH_CONCURRENCY} at a time ` +
        `(load average ${loadavg()[0]?.toFixed(1)}): ${(stored.ms / 1000).toFixed(2)} s, the app's main thread ` +
        `${per(stored)} ms CPU per receipt (read, recorded in the journal, answered); baseline, a bare receiver ` +
        `storing nothing: ${(baseline.ms / 1000).toFixed(2)} s, ${per(baseline)} ms per receipt`,
    );
  } finally {
    await app.close();
    await gateway.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.main) await run();
