// Issue 27: the Inbox search finds sends (app migration 058: one FTS5 row per outbox job, however many
// recipients). A temp app database with 5,000 sends to two numbers each and 10 campaigns of 10,000
// numbers that never wrote (100,000 lean rows; 2 of each with --quick, i.e. 20,000); prints the median
// of the whole search (messages, contacts and sends) for queries that hit no campaign, the sends part
// alone against a naive baseline measured in the same run (a LIKE scan of outbox_jobs, the account
// filter the same), and the search that hits every campaign (each hit's recipients counted as History
// counts them: the share that grows with a campaign's size).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openAppDb } from '../main/store/db.ts';
import { OutboxJournal } from '../main/store/outbox-journal.ts';
import { SearchRepo, buildFtsQuery } from '../main/store/search.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const SMALL_SENDS = 5_000;
const CAMPAIGNS = QUICK ? 2 : 10;
const CAMPAIGN_SIZE = 10_000;
const RUNS = QUICK ? 5 : 15;
const QUERIES = ['invoice', 'parcel deliv', 'happy birthday', 'cafe', 'reminder urgent'];

const WORDS = (
  'meeting tomorrow invoice parcel delivery thanks please call back when free order confirmed running late ' +
  'see you soon lunch office train station weekend holiday booking reference payment received account balance ' +
  'appointment doctor school pick up kids dinner tonight happy birthday congratulations sorry missed your call ' +
  'café price quote urgent reminder'
).split(' ');

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

function timed(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'messenger-bench-search-sends-'));
  try {
    const app = openAppDb(join(dir, 'app.sqlite'));
    const journal = new OutboxJournal(app, { defaultCountry: 'GB' });
    let seed = 7;
    const word = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return WORDS[seed % WORDS.length] ?? 'x';
    };
    const t0 = performance.now();
    for (let i = 0; i < SMALL_SENDS; i++)
      journal.createJob(
        [String(447400000000 + 2 * i), String(447400000001 + 2 * i)],
        { kind: 'text', text: Array.from({ length: 8 }, word).join(' '), replyTo: '447700900999' },
        { normalized: true },
      );
    for (let c = 0; c < CAMPAIGNS; c++)
      journal.createJob(
        Array.from({ length: CAMPAIGN_SIZE }, (_, i) => String(447500000000 + c * CAMPAIGN_SIZE + i)),
        { kind: 'text', text: `Spring newsletter ${c}: ${word()} ${word()}`, replyTo: '447700900999' },
        { normalized: true },
      );
    const fillMs = performance.now() - t0;
    const search = new SearchRepo(app);
    const like = app.db.prepare(
      `SELECT id, text FROM outbox_jobs WHERE (account_id = ? OR account_id IS NULL) AND text LIKE ? ORDER BY id DESC LIMIT 50`,
    );
    const whole: number[] = [];
    const fts: number[] = [];
    const scan: number[] = [];
    const sends = app.db.prepare(
      `SELECT j.id FROM outbox_jobs_fts JOIN outbox_jobs j ON j.id = outbox_jobs_fts.rowid
        WHERE outbox_jobs_fts MATCH ? AND (j.account_id = ? OR j.account_id IS NULL)
        ORDER BY outbox_jobs_fts.rowid DESC LIMIT 50`,
    );
    for (let r = 0; r < RUNS; r++)
      for (const q of QUERIES) {
        whole.push(timed(() => search.search('', q)));
        fts.push(timed(() => sends.all(buildFtsQuery(q) ?? '', '')));
        scan.push(timed(() => like.all('', `%${q.split(' ')[0] ?? ''}%`)));
      }
    const campaigns: number[] = [];
    let found = 0;
    for (let r = 0; r < RUNS; r++)
      campaigns.push(timed(() => (found = search.search('', 'newsletter').sends.length)));
    app.close();
    const ms = (x: number) => `${x.toFixed(2)} ms`;
    console.log(
      `${SMALL_SENDS.toLocaleString('en-GB')} sends to 2 numbers + ${CAMPAIGNS} campaigns of ${CAMPAIGN_SIZE.toLocaleString('en-GB')} ` +
        `numbers that never wrote, journaled in ${(fillMs / 1000).toFixed(1)} s`,
    );
    console.log(
      `  whole search (messages, contacts, sends; ≤ 50 each), ${QUERIES.length} queries × ${RUNS}: median ${ms(median(whole))}`,
    );
    console.log(
      `  sends part (outbox_jobs_fts): median ${ms(median(fts))}; baseline LIKE scan of outbox_jobs: median ${ms(median(scan))}, ` +
        `${(median(scan) / median(fts)).toFixed(0)}× slower`,
    );
    console.log(
      `  "newsletter" (${found} campaign hits, recipients counted: ${(found * CAMPAIGN_SIZE).toLocaleString('en-GB')} lean rows): ` +
        `median ${ms(median(campaigns))}, ${(median(campaigns) / median(whole)).toFixed(1)}× the median search`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
