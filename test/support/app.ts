// The app's integration tests: one app (createMessengerApp) on a temporary data folder, signed in to a
// reference gateway started for the test; both are closed and the folder removed by the test file's
// cleanups (run in reverse order after each test).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createMessengerApp, type MessengerApp } from '../../main/services/app.ts';
import type { OutboxBatch, OutboxJob } from '../../preload/api.ts';
import { DEMO_NUMBER } from '../../gateway/demo.ts';
import { postForm, startTestGateway, type TestGateway } from './gateway.ts';

export type Cleanups = Array<() => Promise<void>>;

export async function signedInApp(
  cleanups: Cleanups,
  prefix: string,
  gatewayOptions: Parameters<typeof startTestGateway>[0] = { receiptDelayMs: 100 },
): Promise<{ gw: TestGateway; a: MessengerApp }> {
  const gw = await startTestGateway(gatewayOptions);
  cleanups.push(() => gw.close());
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
  cleanups.push(async () => {
    await a.close();
    await rm(dir, { recursive: true, force: true });
  });
  await a.api.accounts.signIn({ username: gw.username, pin: gw.pin, primaryUrl: gw.url, rememberPin: false });
  return { gw, a };
}

/** A phone's message to the demo account, played through the sandbox's /sandbox/inbound. */
export async function fromPhone(gw: TestGateway, from: string, text: string): Promise<void> {
  const res = await postForm(gw.url, '/sandbox/inbound', {
    SendTo: DEMO_NUMBER,
    ReplyTo: from,
    Message: text,
  });
  expect(res.status).toBe(200);
}

/**
 * Waits until no batch of the job is pending or being sent (a server book's batch included: it has
 * no message rows to count), after `afterMs` first, and returns the job.
 */
export async function jobFinished(a: MessengerApp, jobId: number, afterMs = 0): Promise<OutboxJob> {
  if (afterMs > 0) await new Promise((r) => setTimeout(r, afterMs));
  // Issue 25: a deadline in time, generous (the loop's count of 400 polls ran out on a busy machine).
  const end = Date.now() + SETTLE_MS;
  for (;;) {
    const batches = await a.api.outbox.batches(jobId);
    const job = await a.api.outbox.job(jobId);
    if (job && batches.every((b) => b.state !== 'pending' && b.state !== 'sending')) return job;
    if (Date.now() > end) throw new Error(`job ${jobId} did not finish in ${SETTLE_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** How long a test waits for the sending loop to settle before it fails (the machine may be busy). */
export const SETTLE_MS = 60_000;

/**
 * Waits until no batch of the job is being sent: after a sign-out or a sign-in to another account
 * the loop stores the answer of the request in flight and stops (issue 25: a condition, not a
 * 300 ms sleep, which a busy machine overran). Returns the batches.
 */
export async function loopStopped(a: MessengerApp, jobId: number): Promise<OutboxBatch[]> {
  const end = Date.now() + SETTLE_MS;
  for (;;) {
    const batches = await a.api.outbox.batches(jobId);
    if (batches.every((b) => b.state !== 'sending')) return batches;
    if (Date.now() > end) throw new Error(`job ${jobId} still sending after ${SETTLE_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
