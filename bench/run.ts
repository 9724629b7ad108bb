// `npm run bench`: runs every benchmark module in bench/ (each exports `run(): Promise<void>` or a
// default function that prints its own figures), one after another so they don't compete for the two
// cores, each in a process of its own: a module's figures do not depend on what an earlier one left
// behind (its heap, timers, workers, open databases). `npm run bench -- --only client` (or
// `npm run bench -- client`) runs only the modules whose file name contains "client"; `--only a,b`
// runs several. `--quick` asks modules for a shorter run
// (BENCH_QUICK=1: the idle window of bench/idle.ts, for one).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const only = args.indexOf('--only');
const filters = (only >= 0 ? (args[only + 1] ?? '') : (args.find((a) => !a.startsWith('--')) ?? ''))
  .split(',')
  .filter(Boolean);
if (args.includes('--quick')) process.env.BENCH_QUICK = '1';
const dir = new URL('.', import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .filter((f) => filters.length === 0 || filters.some((name) => f.includes(name)))
  .sort();

/** In a module's own process (BENCH_MODULE): run it, then end whatever it left running. */
const own = process.env.BENCH_MODULE;
if (own !== undefined) {
  const mod = (await import(pathToFileURL(new URL(own, dir).pathname).href)) as Record<string, unknown>;
  const run = (mod.run ?? mod.default) as (() => Promise<void>) | undefined;
  if (typeof run === 'function') {
    console.log(`\n## ${own}`);
    await run();
  }
  process.exit(0);
}

const cpu = cpus();
console.log(
  `machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}`,
);
for (const file of files) {
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_MODULE: file },
    stdio: 'inherit',
  });
  // The first module that fails stops the run, with its exit status.
  if (child.status !== 0) process.exit(child.status ?? 1);
}
