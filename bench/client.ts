// `npm run bench -- client`: a 100,000-recipient campaign through GatewayClient to the reference
// gateway started in-process on a temp data directory, against a naive one-request-per-recipient
// loop measured in the same run. To show where the time goes it also measures the client alone:
// recipient preparation, and the same campaign against a minimal HTTP peer that answers format 3
// without doing any work.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { decodeForm } from '../protocol/form.ts';
import { startGateway } from '../gateway/server.ts';
import { createAccount } from '../gateway/accounts.ts';
import { GatewayClient } from '../main/client/gateway-client.ts';
import { prepareRecipients } from '../main/client/recipients.ts';
import { listenOnLoopback } from '../test/support/listen.ts';

const CAMPAIGN = Number(process.env.BENCH_CLIENT_RECIPIENTS ?? 100_000);
const NAIVE_SAMPLE = Number(process.env.BENCH_CLIENT_NAIVE ?? 300);
/** Issue 15: the bare-client campaign through the reference gateway (was 20,000/s). */
const TARGET_PER_SECOND = 40_000;

/** Distinct valid UK mobile numbers, international form. */
function recipients(n: number, offset = 0): string[] {
  return Array.from({ length: n }, (_, i) => String(447400000000 + offset + i));
}

function rate(n: number, ms: number): string {
  return `${Math.round((n / ms) * 1000).toLocaleString('en-GB')}/s`;
}

/** An HTTP peer that answers every sendsms with an accepted format 3 record per recipient. */
async function nullPeer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const to = (decodeForm(Buffer.concat(chunks).toString('utf8')).get('SendTo') ?? '').split(',');
      const ids = to.map((_, i) => `N${i}`).join(',');
      res.end(
        `MessageIdentifier=${ids}&Report=${to.map(() => '-3').join(',')}&Text=${to.map(() => 'ok').join(',')}`,
      );
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, close };
}

export async function run(): Promise<void> {
  const numbers = recipients(CAMPAIGN);

  // 1. The client alone: normalisation (protocol/msisdn.ts, its fast path) of every typed number.
  let t = performance.now();
  const prepared = prepareRecipients(numbers, 'GB');
  const prepareMs = performance.now() - t;
  if (prepared.numbers.length !== CAMPAIGN)
    throw new Error(`prepared ${prepared.numbers.length} of ${CAMPAIGN}`);

  // 2. The client against a peer that does no work: numbers from the app's contact store (already
  //    normalised: only their form is checked), and numbers as typed (full normalisation).
  const peer = await nullPeer();
  const peerClient = new GatewayClient({
    primaryUrl: peer.url,
    username: 'bench',
    pin: 'bench1',
    defaultCountry: 'GB',
  });
  t = performance.now();
  const stored = await peerClient.sendSms({
    to: numbers,
    text: 'Bench campaign',
    recipientsNormalized: true,
  });
  const peerMs = performance.now() - t;
  t = performance.now();
  const typed = await peerClient.sendSms({ to: numbers, text: 'Bench campaign' });
  const peerTypedMs = performance.now() - t;
  await peerClient.close();
  await peer.close();
  for (const r of [stored, typed]) {
    if (r.counts.accepted !== CAMPAIGN) {
      throw new Error(`null peer accepted ${r.counts.accepted}: ${r.error?.message ?? ''}`);
    }
  }

  // 3. The reference gateway, in-process, on a temp data dir.
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-client-'));
  const gateway = await startGateway({ dataDir, port: 0, quiet: true, receiptDelayMs: 3_600_000 });
  try {
    createAccount(gateway.ctx.db, { username: 'bench', pin: 'bench1', credit: 1_000_000_000 * 10_000 });
    const client = new GatewayClient({ primaryUrl: gateway.url, username: 'bench', pin: 'bench1' });
    // As the app sends from its contact store: numbers already normalised.
    t = performance.now();
    const result = await client.sendSms({ to: numbers, text: 'Bench campaign', recipientsNormalized: true });
    const campaignMs = performance.now() - t;
    // The simulated network takes accepted messages from a durable queue off the request path:
    // how long after the last answer it had every message (PDUs and pending receipts stored).
    const queued = gateway.ctx.db.prepare('SELECT count(*) AS n FROM network_queue');
    t = performance.now();
    while ((queued.get() as { n: number }).n > 0) await new Promise((r) => setTimeout(r, 5));
    const drainMs = performance.now() - t;
    if (result.counts.accepted !== CAMPAIGN) {
      throw new Error(
        `gateway accepted ${result.counts.accepted} of ${CAMPAIGN}: ${result.error?.message ?? ''}`,
      );
    }

    // 4. Naive baseline: one request per recipient, same client, same gateway, a smaller sample.
    const sample = recipients(NAIVE_SAMPLE, CAMPAIGN);
    t = performance.now();
    for (const n of sample) {
      const r = await client.sendSms({ to: [n], text: 'Bench campaign', recipientsNormalized: true });
      if (r.outcome !== 'ok') throw new Error(`naive send failed: ${r.recipients[0]?.text ?? ''}`);
    }
    const naiveMs = performance.now() - t;
    await client.close();

    const campaignRate = CAMPAIGN / (campaignMs / 1000);
    const naiveRate = NAIVE_SAMPLE / (naiveMs / 1000);
    const gatewayMs = Math.max(0, campaignMs - peerMs);
    const lines = [
      `client campaign: ${CAMPAIGN.toLocaleString('en-GB')} recipients, ${result.requests} requests (at most 350 each)`,
      `  through the reference gateway: ${(campaignMs / 1000).toFixed(2)} s = ${rate(CAMPAIGN, campaignMs)} ` +
        `(target ${TARGET_PER_SECOND.toLocaleString('en-GB')}/s: ${campaignRate >= TARGET_PER_SECOND ? 'met' : 'NOT met'})`,
      `  network queue empty ${drainMs.toFixed(0)} ms after the last answer (PDUs and receipts of all ${CAMPAIGN.toLocaleString('en-GB')} stored)`,
      `  naive loop (1 request per recipient, ${NAIVE_SAMPLE} recipients): ${(naiveMs / 1000).toFixed(2)} s = ${rate(NAIVE_SAMPLE, naiveMs)}`,
      `  ratio campaign / naive: ${(campaignRate / naiveRate).toFixed(1)}×`,
      '  where the time goes:',
      `    client alone (no-work HTTP peer), stored numbers: ${peerMs.toFixed(0)} ms = ${rate(CAMPAIGN, peerMs)}`,
      `    client alone (no-work HTTP peer), typed numbers: ${peerTypedMs.toFixed(0)} ms = ${rate(CAMPAIGN, peerTypedMs)}`,
      `    normalisation alone (protocol/msisdn.ts with its fast path, first run, cold; bench/msisdn.ts has it warm): ${prepareMs.toFixed(0)} ms = ${rate(CAMPAIGN, prepareMs)}`,
      `    gateway share of the campaign: ~${gatewayMs.toFixed(0)} ms (${Math.round((gatewayMs / campaignMs) * 100)}%)`,
    ];
    for (const line of lines) console.log(line);
  } finally {
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
