// `npm run bench -- client`: a 100,000-recipient campaign through GatewayClient to the reference
// gateway started in-process on a temp data directory, against a naive one-request-per-recipient
// loop measured in the same run. To show where the time goes it also measures the client alone:
// recipient preparation, and the same campaign against a minimal HTTP peer that answers format 3
// without doing any work.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { decodeForm } from '../protocol/form.ts';
import { startGateway } from '../gateway/server.ts';
import { createAccount } from '../gateway/accounts.ts';
import { GatewayClient } from '../main/client/gateway-client.ts';
import { prepareRecipients } from '../main/client/recipients.ts';

const CAMPAIGN = Number(process.env.BENCH_CLIENT_RECIPIENTS ?? 100_000);
const NAIVE_SAMPLE = Number(process.env.BENCH_CLIENT_NAIVE ?? 300);
const TARGET_PER_SECOND = 20_000;

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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function run(): Promise<void> {
  const numbers = recipients(CAMPAIGN);

  // 1. The client alone: normalisation + duplicate removal of every recipient.
  let t = performance.now();
  const prepared = prepareRecipients(numbers, 'GB');
  const prepareMs = performance.now() - t;
  if (prepared.numbers.length !== CAMPAIGN)
    throw new Error(`prepared ${prepared.numbers.length} of ${CAMPAIGN}`);

  // 2. The client against a peer that does no work.
  const peer = await nullPeer();
  const peerClient = new GatewayClient({ primaryUrl: peer.url, username: 'bench', pin: 'bench1' });
  t = performance.now();
  const peerResult = await peerClient.sendSms({ to: numbers, text: 'Bench campaign' });
  const peerMs = performance.now() - t;
  await peerClient.close();
  await peer.close();
  if (peerResult.counts.accepted !== CAMPAIGN)
    throw new Error(`null peer accepted ${peerResult.counts.accepted}`);

  // 3. The reference gateway, in-process, on a temp data dir.
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-client-'));
  const gateway = await startGateway({ dataDir, port: 0, quiet: true, receiptDelayMs: 3_600_000 });
  try {
    createAccount(gateway.ctx.db, {
      username: 'bench',
      pin: 'bench1',
      credit: 1_000_000_000 * 10_000,
    });
    const client = new GatewayClient({ primaryUrl: gateway.url, username: 'bench', pin: 'bench1' });
    t = performance.now();
    const result = await client.sendSms({ to: numbers, text: 'Bench campaign' });
    const campaignMs = performance.now() - t;
    if (result.counts.accepted !== CAMPAIGN) {
      throw new Error(
        `gateway accepted ${result.counts.accepted} of ${CAMPAIGN}: ${result.error?.message ?? ''}`,
      );
    }

    // 4. Naive baseline: one request per recipient, same client, same gateway, a smaller sample.
    const sample = recipients(NAIVE_SAMPLE, CAMPAIGN);
    t = performance.now();
    for (const n of sample) {
      const r = await client.sendSms({ to: [n], text: 'Bench campaign' });
      if (r.outcome !== 'ok') throw new Error(`naive send failed: ${r.recipients[0]?.text ?? ''}`);
    }
    const naiveMs = performance.now() - t;
    await client.close();

    const campaignRate = CAMPAIGN / (campaignMs / 1000);
    const naiveRate = NAIVE_SAMPLE / (naiveMs / 1000);
    console.log(
      `client campaign: ${CAMPAIGN.toLocaleString('en-GB')} recipients, ${result.requests} requests`,
    );
    console.log(
      `  through the reference gateway: ${(campaignMs / 1000).toFixed(2)} s = ${rate(CAMPAIGN, campaignMs)} ` +
        `(target ${TARGET_PER_SECOND.toLocaleString('en-GB')}/s: ${campaignRate >= TARGET_PER_SECOND ? 'met' : 'NOT met'})`,
    );
    console.log(
      `  naive loop (1 request per recipient, ${NAIVE_SAMPLE} recipients): ${(naiveMs / 1000).toFixed(2)} s = ${rate(NAIVE_SAMPLE, naiveMs)}`,
    );
    console.log(`  ratio campaign / naive: ${(campaignRate / naiveRate).toFixed(1)}×`);
    console.log('  where the time goes:');
    console.log(
      `    recipient normalisation (client): ${prepareMs.toFixed(0)} ms = ${rate(CAMPAIGN, prepareMs)}`,
    );
    console.log(
      `    whole client against a no-work HTTP peer: ${peerMs.toFixed(0)} ms = ${rate(CAMPAIGN, peerMs)}`,
    );
    console.log(
      `    gateway share of the campaign: ~${Math.max(0, campaignMs - peerMs).toFixed(0)} ms ` +
        `(${Math.round((Math.max(0, campaignMs - peerMs) / campaignMs) * 100)}%)`,
    );
  } finally {
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
