// Idle cost: the app's services on the local sandbox, signed in and polling every 30 s (the default
// pollIntervalSeconds), left alone for 60 s (`npm run bench -- --only idle --quick`: 10 s): CPU time
// used as a share of one core, against a Node process that does nothing, measured in the same run.
// Each runs in a child process of its own (bench/_idle-app.ts), measured after a settling time, so the
// sign-in and the start-up are not counted. Target: ≤ 1 % of one core.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const WINDOW_S = Number(process.env.BENCH_IDLE_SECONDS ?? (process.env.BENCH_QUICK ? 10 : 60));
const SETTLE_S = 5;
const TARGET_SHARE = 0.01;
const CHILD = fileURLToPath(new URL('./_idle-app.ts', import.meta.url));

interface Idle {
  cpuMs: number;
  elapsedMs: number;
  pollIntervalSeconds: number;
}

async function measure(mode: 'app' | 'bare'): Promise<Idle> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [CHILD, mode, String(WINDOW_S), String(SETTLE_S)],
    {
      timeout: (WINDOW_S + SETTLE_S + 60) * 1000,
    },
  );
  const last = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as Idle;
}

export async function run(): Promise<void> {
  const [app, bare] = await Promise.all([measure('app'), measure('bare')]);
  const share = (m: Idle): number => m.cpuMs / m.elapsedMs;
  const pct = (x: number): string => `${(x * 100).toFixed(2)} %`;
  console.log(
    `idle app (sandbox session, polling every ${app.pollIntervalSeconds} s, push receiver on), ${WINDOW_S} s window: ` +
      `${app.cpuMs.toFixed(0)} ms CPU = ${pct(share(app))} of one core ` +
      `(target ≤ ${pct(TARGET_SHARE)}: ${share(app) <= TARGET_SHARE ? 'met' : 'NOT met'})`,
  );
  console.log(
    `  baseline: an idle Node process, same window: ${bare.cpuMs.toFixed(0)} ms = ${pct(share(bare))}; ` +
      `ratio ${(app.cpuMs / Math.max(bare.cpuMs, 0.001)).toFixed(1)}×; app's own cost above it ${pct(share(app) - share(bare))}`,
  );
}

if (import.meta.main) await run();
