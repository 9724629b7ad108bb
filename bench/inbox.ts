// Inbox storage benchmark: a temp app database with 1,000,000 messages across 2,000 conversations
// (BENCH_INBOX_MESSAGES to change it); prints the time to store them and the database size, the
// median time of the first page of the conversation list (target ≤ 100 ms) and of an FTS5 search
// (target ≤ 50 ms), each against a naive baseline measured in the same run (an aggregate over
// messages without the maintained counters; a LIKE scan), and the same figures at 100,000 messages
// with the ratio.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openAppDb } from '../main/store/db.ts';
import type { AppDb } from '../main/store/db.ts';
import { ConversationsRepo } from '../main/store/conversations.ts';
import { SearchRepo } from '../main/store/search.ts';

const MESSAGES = Number(process.env.BENCH_INBOX_MESSAGES ?? 1_000_000);
const BASELINE_MESSAGES = 100_000;
const CONVERSATIONS = 2_000;
const RUNS = 15;
const TARGET_LIST_MS = 100;
const TARGET_SEARCH_MS = 50;

const WORDS = (
  'meeting tomorrow invoice parcel delivery thanks please call back when free order confirmed running late ' +
  'see you soon lunch office train station weekend holiday booking reference payment received account balance ' +
  'appointment doctor school pick up kids dinner tonight happy birthday congratulations sorry missed your call ' +
  'café résumé naïve price quote urgent reminder password code verify'
).split(' ');

/** Deterministic pseudo-random numbers (mulberry32), so every run stores the same data. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

function time(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

/**
 * Store `messages` messages across `conversations` conversations (70% inbound, about one
 * conversation in ten with unread messages at the end) in the app database `app`, the same data on
 * every run. Also used by bench/inbox-render.ts.
 */
export function fillInbox(app: AppDb, messages = MESSAGES, conversations = CONVERSATIONS): void {
  const random = rng(42);
  app.transaction(() => {
    const conv = app.db.prepare(
      'INSERT INTO conversations (peer, last_activity_at) VALUES (?, 0) RETURNING id',
    );
    const ids: number[] = [];
    for (let i = 0; i < conversations; i++) {
      ids.push((conv.get(`4477009${String(i).padStart(5, '0')}`) as { id: number }).id);
    }
    const msg = app.db.prepare(
      `INSERT INTO messages (conversation_id, direction, peer, local, text, created_at, status, dedupe_key, read)
       VALUES (?, ?, ?, '447700900999', ?, ?, ?, ?, ?)`,
    );
    const start = Date.UTC(2026, 0, 1);
    for (let i = 0; i < messages; i++) {
      const c = Math.floor(random() * conversations);
      const inbound = random() < 0.7;
      const words = 4 + Math.floor(random() * 14);
      const text = Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
      const at = start + i * 30_000;
      // About one conversation in ten has unread messages at the end of the fill.
      const read = !inbound || c % 10 !== 0 || i < messages - messages / 20 ? 1 : 0;
      msg.run(
        ids[c] ?? 0,
        inbound ? 'in' : 'out',
        `4477009${String(c).padStart(5, '0')}`,
        `${text} #${i}`,
        at,
        inbound ? 'received' : 'accepted',
        inbound ? `bench:${i}` : null,
        read,
      );
    }
  });
  app.db.exec('ANALYZE');
}

interface StoreFigures {
  messages: number;
  fillMs: number;
  dbBytes: number;
  listMs: number;
  unreadShown: number;
  baselineListMs: number;
  searchMs: number;
  worstFts: number;
  worstLike: number;
  hits: number;
}

/** Fills a fresh app database with `messages` messages and measures the list and the search. */
function measureStore(messages: number): StoreFigures {
  const dir = mkdtempSync(join(tmpdir(), 'messenger-bench-inbox-'));
  try {
    const file = join(dir, 'app.sqlite');
    const app = openAppDb(file);
    const fillStart = performance.now();
    fillInbox(app, messages);
    app.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const fillMs = performance.now() - fillStart;
    const dbBytes = statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

    const conversations = new ConversationsRepo(app);
    const search = new SearchRepo(app);
    const firstPage = conversations.list('', { limit: 50 });
    const unreadShown = firstPage.items.filter((c) => c.hasUnread).length;

    const listTimes = Array.from({ length: RUNS }, () => time(() => conversations.list('', { limit: 50 })));
    const baselineList = app.db.prepare(
      `SELECT conversation_id, sum(direction = 'in' AND read = 0) AS unread, max(created_at) AS last
         FROM messages GROUP BY conversation_id ORDER BY last DESC LIMIT 50`,
    );
    const baselineListTimes = Array.from({ length: 5 }, () => time(() => baselineList.all()));

    // Common words, a prefix, two words, an accent-folded word, and two that match nothing (the
    // worst case for a scan).
    const queries = ['invoice', 'deliv', 'happy birthday', 'cafe', 'payment rec', 'zzzz', 'qwerty'];
    const searchTimes: number[] = [];
    const perQuery = new Map<string, number[]>();
    for (let r = 0; r < RUNS; r++) {
      for (const q of queries) {
        const t = time(() => search.search('', q));
        searchTimes.push(t);
        perQuery.set(q, [...(perQuery.get(q) ?? []), t]);
      }
    }
    const hits = search.search('', 'happy birthday').messages.length;
    const worstFts = Math.max(...[...perQuery.values()].map(median));
    const like = app.db.prepare(
      "SELECT id FROM messages WHERE text LIKE '%' || ? || '%' ORDER BY id DESC LIMIT 50",
    );
    const worstLike = Math.max(
      ...queries.map((q) => median(Array.from({ length: 3 }, () => time(() => like.all(q))))),
    );
    app.close();
    return {
      messages,
      fillMs,
      dbBytes,
      listMs: median(listTimes),
      unreadShown,
      baselineListMs: median(baselineListTimes),
      searchMs: median(searchTimes),
      worstFts,
      worstLike,
      hits,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const n = (x: number): string => x.toLocaleString('en-GB');

export async function run(): Promise<void> {
  // The size (a million messages) against the earlier size, both in this run.
  const small = measureStore(BASELINE_MESSAGES);
  const big = measureStore(MESSAGES);
  for (const f of [big, small]) {
    const label = f === big ? '' : '  baseline: ';
    console.log(
      `${label}${n(f.messages)} messages in ${n(CONVERSATIONS)} conversations: stored in ${(f.fillMs / 1000).toFixed(1)} s ` +
        `(${n(Math.round((f.messages / f.fillMs) * 1000))}/s), database ${(f.dbBytes / 2 ** 20).toFixed(0)} MiB ` +
        `(${Math.round(f.dbBytes / f.messages)} bytes a message)`,
    );
    const indent = f === big ? '  ' : '    ';
    console.log(
      `${indent}conversation list, first page of 50 (${f.unreadShown} unread on it): median ${f.listMs.toFixed(2)} ms over ${RUNS} runs ` +
        `(target ≤ ${TARGET_LIST_MS} ms: ${f.listMs <= TARGET_LIST_MS ? 'met' : 'MISSED'}); ` +
        `naive aggregate over messages ${f.baselineListMs.toFixed(1)} ms, ${(f.baselineListMs / f.listMs).toFixed(0)}× slower`,
    );
    console.log(
      `${indent}FTS5 search, 7 queries × ${RUNS} runs (at most 50 hits; "happy birthday" has ${f.hits}): ` +
        `median ${f.searchMs.toFixed(2)} ms, slowest query ${f.worstFts.toFixed(2)} ms ` +
        `(target ≤ ${TARGET_SEARCH_MS} ms: ${f.worstFts <= TARGET_SEARCH_MS ? 'met' : 'MISSED'}); ` +
        `LIKE scan, slowest query ${f.worstLike.toFixed(1)} ms, ${(f.worstLike / f.worstFts).toFixed(0)}× slower`,
    );
  }
  console.log(
    `  ratio ${n(MESSAGES)} / ${n(BASELINE_MESSAGES)} messages: list ${(big.listMs / small.listMs).toFixed(2)}×, ` +
      `search median ${(big.searchMs / small.searchMs).toFixed(2)}×, slowest query ${(big.worstFts / small.worstFts).toFixed(2)}×, ` +
      `time to store ${(big.fillMs / small.fillMs).toFixed(1)}×, database size ${(big.dbBytes / small.dbBytes).toFixed(1)}×`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
