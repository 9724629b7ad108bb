// `npm run bench -- reply`: 30,000 replies waiting at the reference gateway (in-process, temp data
// dir), collected by the app's poller (CollectMessages pages of 1,000, each answer written to the reply
// spool chunk by chunk as it is read, fsynced, then stored from it: issue 25) until the gateway is empty; prints the time to collect and store them, and the
// share of it spent in the app's store. Baseline in the same run: the same pages collected by the bare
// client without storing (GatewayClient.collectMessages of the old shape, whole answer in memory).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startGateway } from '../gateway/server.ts';
import { createDemoAccount } from '../gateway/demo.ts';
import type { NetworkSimulator } from '../gateway/network/simulator.ts';
import { queueReplies } from './_replies.ts';
import { GatewayClient } from '../main/client/gateway-client.ts';
import { createMessengerApp } from '../main/services/app.ts';

const BURST = Number(process.env.BENCH_REPLIES ?? 30_000);

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-burst-'));
  const gw = await startGateway({
    dataDir: join(dir, 'gw'),
    port: 0,
    host: '127.0.0.1',
    sandbox: true,
    quiet: true,
  });
  const { username, pin } = { username: 'demo', pin: 'demoPIN1' };
  createDemoAccount(gw.ctx.db, { username, pin, credit: '10.00' });
  const network = gw.ctx.network as NetworkSimulator;
  try {
    // baseline: the bare client collecting every page, nothing stored
    queueReplies(network, gw.ctx.db, 0, BURST);
    const client = new GatewayClient({ primaryUrl: gw.url, username, pin });
    let t = performance.now();
    let bare = 0;
    for (;;) {
      const r = await client.collectMessages();
      if (r.outcome !== 'ok') throw new Error(r.reason);
      bare += r.value.MessageList.item.length;
      if (r.value.MessageList.item.length === 0) break;
    }
    const bareMs = performance.now() - t;
    await client.close();

    // the app: sign in, then one poll that runs until the gateway is empty
    queueReplies(network, gw.ctx.db, BURST, BURST);
    const app = await createMessengerApp({ dataDir: join(dir, 'app'), env: {}, log: () => {} });
    await app.api.accounts.signIn({ username, pin, primaryUrl: gw.url, rememberPin: false });
    t = performance.now();
    const { received } = await app.api.inbox.pollNow();
    const appMs = performance.now() - t;
    const unread = await app.api.inbox.unreadTotal();
    await app.close();
    if (bare !== BURST || received !== BURST || unread !== BURST) {
      throw new Error(`expected ${BURST}: bare client ${bare}, app received ${received}, inbox ${unread}`);
    }
    const rate = (ms: number) => `${Math.round((BURST / ms) * 1000).toLocaleString('en-GB')}/s`;
    console.log(`${BURST.toLocaleString('en-GB')} replies queued at the gateway (pages of 1,000)`);
    console.log(`  bare client, collect only (baseline): ${bareMs.toFixed(0)} ms (${rate(bareMs)})`);
    console.log(
      `  app poller, collect and store:        ${appMs.toFixed(0)} ms (${rate(appMs)}); inbox holds ${unread.toLocaleString('en-GB')}, each once; ${(appMs / bareMs).toFixed(1)}× the baseline`,
    );
  } finally {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
