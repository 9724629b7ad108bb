// `npm run bench`: runs every benchmark module in bench/ (each exports `run(): Promise<void>` or a
// default function that prints its own figures), one after another so they don't compete for the two
// cores. `npm run bench -- --only client` (or `npm run bench -- client`) runs only the modules whose
// file name contains "client"; `--only a,b` runs several. `--quick` asks modules for a shorter run
// (BENCH_QUICK=1: the idle window of bench/idle.ts, for one).
import { readdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { pathToFileURL } from 'node:url';

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

const cpu = cpus();
console.log(
  `machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}`,
);
for (const file of files) {
  const mod = (await import(pathToFileURL(new URL(file, dir).pathname).href)) as Record<string, unknown>;
  const run = (mod.run ?? mod.default) as (() => Promise<void>) | undefined;
  if (typeof run !== 'function') continue;
  console.log(`\n## ${file}`);
  await run();
}
