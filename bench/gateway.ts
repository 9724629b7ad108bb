// Gateway benchmarks (run by `npm run bench`, or alone: `node bench/gateway.ts`):
//  1. single-recipient sendsms requests/s over keep-alive (undici Pool, 8 connections);
//  2. a 350-recipient ResponseFormat=3 request: median latency of N runs.
// Both against a real gateway on an ephemeral port with a temp data dir. Prints the machine too.
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { startGateway } from '../gateway/server.ts';
import { createAccount } from '../gateway/accounts.ts';

function form(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export async function run(opts: { durationMs?: number; bulkRuns?: number } = {}): Promise<void> {
  const durationMs = opts.durationMs ?? 5000;
  const bulkRuns = opts.bulkRuns ?? 7;
  const cpu = cpus();
  console.log(
    `machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}`,
  );
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-'));
  const gw = await startGateway({ dataDir, port: 0, quiet: true, receiptDelayMs: 60_000 });
  const pool = new Pool(gw.url, { connections: 8, pipelining: 1, keepAliveTimeout: 10_000 });
  try {
    createAccount(gw.ctx.db, { username: 'bench', pin: 'bench1', credit: 1_000_000 * 10_000 });
    const post = async (body: string): Promise<string> => {
      const res = await pool.request({
        path: '/webservices/http/sendsms',
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body,
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text}`);
      return text;
    };

    // 1. single-recipient requests/s over keep-alive
    let i = 0;
    const single = (): string =>
      form({
        Username: 'bench',
        PIN: 'bench1',
        SendTo: `447700900${String(i++ % 1000).padStart(3, '0')}`,
        Message: 'Benchmark message',
        ResponseFormat: '1',
      });
    await post(single()); // warm up (scrypt check cached afterwards)
    let done = 0;
    const start = performance.now();
    const deadline = start + durationMs;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (performance.now() < deadline) {
          const body = await post(single());
          if (!body.includes('Report=-3')) throw new Error(`unexpected: ${body}`);
          done++;
        }
      }),
    );
    const secs = (performance.now() - start) / 1000;
    console.log(
      `sendsms single recipient, keep-alive, 8 connections: ${(done / secs).toFixed(0)} requests/s (${done} in ${secs.toFixed(1)} s)`,
    );

    // 2. 350 recipients, ResponseFormat=3
    const bulk = form({
      Username: 'bench',
      PIN: 'bench1',
      SendTo: Array.from({ length: 350 }, (_, k) => `447700900${String(k).padStart(3, '0')}`).join(','),
      Message: 'Bulk benchmark message',
      ResponseFormat: '3',
    });
    const times: number[] = [];
    for (let r = 0; r < bulkRuns; r++) {
      const t = performance.now();
      const body = await post(bulk);
      times.push(performance.now() - t);
      if ((body.match(/-3/g) ?? []).length !== 350) throw new Error('bulk request not fully accepted');
    }
    console.log(
      `sendsms 350 recipients, ResponseFormat=3: median ${median(times).toFixed(1)} ms over ${bulkRuns} runs (min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)})`,
    );
  } finally {
    await pool.close();
    await gw.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) await run();
