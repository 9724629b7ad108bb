// Child of bench/idle.ts: `app` starts the app's services on the local sandbox (signed in, polling
// every pollIntervalSeconds, push receiver on) as `npm run web -- --sandbox` does; `bare` is a Node
// process doing nothing (the baseline). Each waits `settle` seconds, then measures its own CPU time
// over `window` seconds and prints it as JSON.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessengerApp } from '../main/services/app.ts';

const [mode, windowArg, settleArg] = process.argv.slice(2);
const windowMs = Number(windowArg) * 1000;
const settleMs = Number(settleArg) * 1000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const dir = mkdtempSync(join(tmpdir(), 'messenger-bench-idle-'));
let close = async (): Promise<void> => {};
let pollIntervalSeconds = 0;
if (mode === 'app') {
  const app = await createMessengerApp({ dataDir: dir, sandbox: true, env: {}, log: () => {} });
  close = () => app.close();
  pollIntervalSeconds = (await app.api.settings.get()).pollIntervalSeconds;
  if ((await app.api.accounts.current()) === null) throw new Error('the sandbox session did not start');
}
await sleep(settleMs);
const start = process.cpuUsage();
const t0 = performance.now();
await sleep(windowMs);
const used = process.cpuUsage(start);
const elapsedMs = performance.now() - t0;
await close();
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, elapsedMs, pollIntervalSeconds }));
