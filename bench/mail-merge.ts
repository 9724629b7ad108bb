// Compose's live counter for a mail-merge text (issue 12, mailmerge.measure): 5,000 recipients, each a
// contact with their own name, measured the way the service does it (one contacts query,
// ContactsRepo.byMsisdns, then measureMerge: each distinct text analysed once) against the baseline
// the estimate used before (a contact lookup per recipient, then every text analysed). Median of 7.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fillText, measureMerge } from '../main/services/mail-merge.ts';
import { openAppStore } from '../main/store/app-store.ts';
import { analyzeText } from '../protocol/sms.ts';

const RECIPIENTS = 5_000;
const RUNS = 7;
const TEXT = 'Dear {first name|friend} {last name}, your order {number} is ready for collection today.';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-merge-'));
  const store = openAppStore(join(dir, 'app.db'));
  try {
    const numbers = Array.from({ length: RECIPIENTS }, (_, i) => `4477009${String(i).padStart(5, '0')}`);
    const csv = ['Name,Number', ...numbers.map((n, i) => `Person${i} Surname${i},+${n}`)].join('\n');
    store.contacts.importCsv(csv, { name: 'Name', number: 'Number' });
    const fast: number[] = [];
    const naive: number[] = [];
    let a = 0;
    let b = 0;
    for (let r = 0; r < RUNS; r++) {
      let t = performance.now();
      a = measureMerge(TEXT, false, numbers, store.contacts.byMsisdns(numbers)).messages;
      fast.push(performance.now() - t);
      t = performance.now();
      b = 0;
      for (const n of numbers)
        b += Math.max(1, analyzeText(fillText(TEXT, store.contacts.byNumber(n), n)).segments);
      naive.push(performance.now() - t);
    }
    if (a !== b) throw new Error(`messages differ: ${a} ≠ ${b}`);
    const f = median(fast);
    const n = median(naive);
    console.log(
      `mail merge measured for ${RECIPIENTS.toLocaleString('en-GB')} contacts (${a.toLocaleString('en-GB')} messages): ` +
        `one query + measureMerge median ${f.toFixed(1)} ms; lookup per recipient (baseline) ${n.toFixed(1)} ms; ` +
        `${(n / f).toFixed(1)}× faster`,
    );
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
