// Numbers as typed: normalizeMsisdn (protocol/msisdn.ts, fast path in protocol/msisdn-fast.ts) against
// libphonenumber itself (normalizeMsisdnByLibrary, the baseline, same run) on 1,000,000 generated
// numbers of 20 countries in every input form (test/support/msisdn-corpus.ts): every result and
// reason compared, and the speed of each (median of 5 passes for the fast path; one pass for the
// library, which also produces the reference results). Target: ≥ 300,000/s, identical results.
import { performance } from 'node:perf_hooks';
import { normalizeMsisdn, normalizeMsisdnByLibrary } from '../protocol/msisdn.ts';
import type { MsisdnResult } from '../protocol/msisdn.ts';
import { FORMS, corpus } from '../test/support/msisdn-corpus.ts';
import type { CorpusEntry } from '../test/support/msisdn-corpus.ts';

const COUNT = Number(process.env.BENCH_MSISDN_COUNT ?? 1_000_000);
const PASSES = 5;
const TARGET_PER_SECOND = 300_000;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const same = (a: MsisdnResult, b: MsisdnResult): boolean =>
  a.ok
    ? b.ok && a.msisdn === b.msisdn
    : !b.ok && a.code === b.code && a.reason === b.reason && a.input === b.input;

const perSecond = (n: number, ms: number): string =>
  `${Math.round((n / ms) * 1000).toLocaleString('en-GB')}/s`;

export async function run(): Promise<void> {
  const entries: CorpusEntry[] = [...corpus(COUNT, 20_260_101)];
  // Timed passes of the fast path first, while nothing big is kept alive: results counted, not
  // kept (keeping a million results is the bench's own cost, not the normaliser's).
  const fastTimes: number[] = [];
  const okPerPass: number[] = [];
  let t: number;
  for (let p = 0; p < PASSES; p++) {
    let ok = 0;
    t = performance.now();
    for (const e of entries) if (normalizeMsisdn(e.input, e.defaultCountry).ok) ok++;
    fastTimes.push(performance.now() - t);
    okPerPass.push(ok);
  }
  // The reference results: libphonenumber on every number (timed: the baseline), then one pass of
  // the fast path compared with them.
  const reference = new Array<MsisdnResult>(entries.length);
  t = performance.now();
  for (let i = 0; i < entries.length; i++) {
    reference[i] = normalizeMsisdnByLibrary(entries[i]!.input, entries[i]!.defaultCountry);
  }
  const libraryMs = performance.now() - t;
  const acceptedByLibrary = reference.filter((r) => r.ok).length;
  if (okPerPass.some((ok) => ok !== acceptedByLibrary))
    throw new Error(`accepted per pass: ${okPerPass.join(', ')}`);
  let different = 0;
  const examples: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const fast = normalizeMsisdn(entries[i]!.input, entries[i]!.defaultCountry);
    if (same(fast, reference[i]!)) continue;
    different++;
    if (examples.length < 5) {
      examples.push(
        `${JSON.stringify(entries[i])}: ${JSON.stringify(fast)} ≠ ${JSON.stringify(reference[i])}`,
      );
    }
  }
  const accepted = acceptedByLibrary;
  const fastMs = median(fastTimes);
  const fastRate = (COUNT / fastMs) * 1000;
  console.log(
    `numbers as typed: ${COUNT.toLocaleString('en-GB')} generated numbers, 20 countries, ${FORMS.length} input forms ` +
      `(${accepted.toLocaleString('en-GB')} accepted, ${(COUNT - accepted).toLocaleString('en-GB')} refused)`,
  );
  console.log(
    `  normalizeMsisdn (fast path): median ${fastMs.toFixed(0)} ms over ${PASSES} passes = ${perSecond(COUNT, fastMs)} ` +
      `(target ${TARGET_PER_SECOND.toLocaleString('en-GB')}/s: ${fastRate >= TARGET_PER_SECOND ? 'met' : 'NOT met'}); ` +
      `first pass ${perSecond(COUNT, fastTimes[0]!)}`,
  );
  console.log(
    `  libphonenumber alone (baseline, same numbers): ${libraryMs.toFixed(0)} ms = ${perSecond(COUNT, libraryMs)}; ` +
      `ratio ${(libraryMs / fastMs).toFixed(1)}×`,
  );
  console.log(
    `  results identical to libphonenumber's (number, code and reason): ${different === 0 ? 'yes, all' : `NO, ${different} differ`} ` +
      `${COUNT.toLocaleString('en-GB')}`,
  );
  for (const e of examples) console.log(`    ${e}`);
}

if (import.meta.main) await run();
