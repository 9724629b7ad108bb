// `npm run bench -- office` (issue 28): office mode on a real PostgreSQL (started here with initdb +
// pg_ctl, as `npm run office-db` does). 5 desks on one account: the collecting desk in this process,
// four in processes of their own (test/integration/office/office-desk-child.ts). 10,000 replies
// waiting at the reference gateway are collected by the desk holding the lease; prints the
// collecting poll's time (it ends once the replies are in the office database), the time from the
// last reply stored at the collecting desk until every desk's own store holds all of them (target
// ≤ 5 s), and PostgreSQL's share (the collecting desk's writes to the office database). Baseline in
// the same run: one desk on its own (no office mode) collecting as many. Then one more desk joins
// alone on the cores: how fast one desk imports the whole feed. BENCH_QUICK: 2,000.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { queueReplies } from './_replies.ts';
import pg from 'pg';
import { feedTimings, pullInbound } from '../main/office/feed.ts';
import type { InboundRow } from '../main/office/feed.ts';
import { openAppStore } from '../main/store/app-store.ts';
import type { OpenedAppStore } from '../main/store/app-store.ts';
import { postgresBin } from '../main/office/local-server.ts';
import { startOfficeBench } from './_office.ts';
import { startChildDesk } from '../test/support/office-child.ts';
import type { ChildDesk } from '../test/support/office-child.ts';

const REPLIES = Number(process.env.BENCH_REPLIES ?? (process.env.BENCH_QUICK ? 2_000 : 10_000));
const DESKS = 5;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

/**
 * CPU time (ms) of the PostgreSQL server of `dataDir` so far: the postmaster and its backends, read
 * from /proc (Linux; NaN elsewhere). A backend's time counts while it lives: the desks keep theirs.
 */
function postgresCpuMs(dataDir: string): number {
  try {
    const master = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const tick = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
    let ticks = 0;
    for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      // fields after the command (in parentheses): state ppid … utime(14) stime(15), 1-based
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pid) === master || Number(f[1]) === master) ticks += Number(f[11]) + Number(f[12]);
    }
    return (ticks / tick) * 1000;
  } catch {
    return NaN;
  }
}

/** The account's whole inbound feed, as the desks pull it. */
async function pullAll(server: { url: string; password: string }): Promise<InboundRow[]> {
  const url = new URL(server.url);
  url.password = server.password;
  const c = new pg.Client({ connectionString: url.href });
  c.on('error', () => undefined);
  await c.connect();
  try {
    const key =
      (await c.query<{ account: string }>('SELECT account FROM inbound LIMIT 1')).rows[0]?.account ?? '';
    const rows: InboundRow[] = [];
    for (
      let page = await pullInbound(c, key, 0, 1000);
      page.length > 0;
      page = await pullInbound(c, key, rows.at(-1)!.id, 1000)
    )
      rows.push(...page);
    return rows;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** CPU ms to store `rows` in a fresh store: a page of 1,000 at a time in bulk, and one at a time (baseline). */
function importWays(dir: string, rows: InboundRow[]): { many: number; one: number } {
  const input = (r: InboundRow) => ({
    identity: `o:${r.uid}`,
    from: r.sender,
    to: r.recipient,
    text: r.body,
    timestamp: r.gatewayTimestamp,
    receivedAt: r.receivedAt,
  });
  const cpu = (name: string, fn: (s: OpenedAppStore, page: InboundRow[]) => void): number => {
    const s = openAppStore(join(dir, name, 'messenger.sqlite'), { defaultCountry: 'GB' });
    try {
      const before = process.cpuUsage();
      for (let i = 0; i < rows.length; i += 1000) s.app.transaction(() => fn(s, rows.slice(i, i + 1000)));
      const used = process.cpuUsage(before);
      return (used.user + used.system) / 1000;
    } finally {
      s.close();
    }
  };
  mkdirSync(join(dir, 'many'), { recursive: true });
  mkdirSync(join(dir, 'one'), { recursive: true });
  return {
    many: cpu('many', (s, page) => void s.inboundImport.storeMany('bench', page.map(input), 'collect')),
    one: cpu('one', (s, page) => {
      for (const r of page) s.conversations.storeInbound('bench', input(r), `o:${r.uid}`);
    }),
  };
}

export async function run(): Promise<void> {
  if (postgresBin() === null) {
    console.log('PostgreSQL is not installed (apt-get install postgresql): skipped');
    return;
  }
  const bench = await startOfficeBench('bench-office-', { sandbox: true });
  const { dir, server, gw, network, login, open } = bench;
  let results:
    | {
        collectedMs: number;
        spreadMs: number;
        pgMs: number;
        writtenMs: number;
        deskCpu: number[];
        pgCpu: number;
        ownCpu: number;
        loads: string[];
      }
    | undefined;
  try {
    // baseline: one desk on its own
    queueReplies(network, gw.ctx.db, 0, REPLIES);
    const alone = await open('alone');
    let t = performance.now();
    const baseline = await alone.api.inbox.pollNow();
    const aloneMs = performance.now() - t;
    if (baseline.received !== REPLIES) throw new Error(`baseline received ${baseline.received}`);
    await alone.close();

    // office mode: this desk first (it takes the lease), then four in processes of their own
    const collector = await open('desk-0', server.url);
    for (let i = 0; i < 400 && (await collector.api.office.status())?.collector !== true; i++)
      await sleep(25);
    if ((await collector.api.office.status())?.collector !== true) throw new Error('no desk took the lease');
    const others: ChildDesk[] = [];
    try {
      for (let i = 1; i < DESKS; i++)
        others.push(await startChildDesk(join(dir, `desk-${i}`), { url: gw.url, ...login }, server, 5));
      await sleep(500); // the desks' start-up work done
      let storedAt = 0;
      let stored = 0;
      collector.events.on('inbox:received', (p) => {
        stored += p.messages.length;
        if (stored === REPLIES) storedAt = performance.now();
      });
      queueReplies(network, gw.ctx.db, REPLIES, REPLIES);
      feedTimings.writeMs = 0;
      feedTimings.readMs = 0;
      const loads = [load()];
      const cpuBefore = await Promise.all(others.map((d) => d.cpu()));
      const pgBefore = postgresCpuMs(server.dataDir);
      const ownBefore = process.cpuUsage();
      t = performance.now();
      const got = await collector.api.inbox.pollNow();
      const collectedMs = performance.now() - t;
      if (got.received !== REPLIES) throw new Error(`the collector received ${got.received}`);
      const done = (d: ChildDesk) => d.unread.find((u) => u.n === REPLIES)?.at;
      for (let waited = 0; others.some((d) => done(d) === undefined); waited += 10) {
        if (waited > 120_000)
          throw new Error(`desks hold ${others.map((d) => d.unread.at(-1)?.n).join(', ')}`);
        await sleep(10);
      }
      const allAt = Math.max(...others.map((d) => done(d)!));
      const own = process.cpuUsage(ownBefore);
      const pgCpu = postgresCpuMs(server.dataDir) - pgBefore;
      const cpuAfter = await Promise.all(others.map((d) => d.cpu()));
      loads.push(load());
      results = {
        collectedMs,
        spreadMs: allAt - storedAt,
        pgMs: feedTimings.writeMs,
        // the collecting desk's last write to the office database ended (all of them there)
        writtenMs: feedTimings.lastWriteAt - storedAt,
        deskCpu: cpuAfter.map((c, i) => c - cpuBefore[i]!),
        pgCpu,
        ownCpu: (own.user + own.system) / 1000,
        loads,
      };
    } finally {
      for (const d of others) await d.kill();
    }
    if (results === undefined) throw new Error('no result');
    const { collectedMs, spreadMs, pgMs, writtenMs, deskCpu, pgCpu, ownCpu, loads } = results;
    // one more desk joining afterwards, alone on the cores: how fast one desk imports the feed
    t = performance.now();
    const late = await open('desk-late', server.url);
    while ((await late.api.inbox.unreadTotal()) < REPLIES) await sleep(10);
    const lateMs = performance.now() - t;
    const ways = importWays(join(dir, 'import'), await pullAll(server));
    const n = REPLIES.toLocaleString('en-GB');
    console.log(
      `${n} replies, ${DESKS} desks on one account and one office database (PostgreSQL on loopback)`,
    );
    console.log(`  one desk alone, collect and store (baseline): ${aloneMs.toFixed(0)} ms`);
    console.log(
      `  office: the collecting desk's poll (stored, then written to PostgreSQL): ${collectedMs.toFixed(0)} ms (${(collectedMs / aloneMs).toFixed(2)}× the baseline)`,
    );
    console.log(
      `  office: after that, until every desk's inbox holds all ${n}: ${spreadMs.toFixed(0)} ms (target ≤ 5,000 ms)`,
    );
    console.log(
      `    of which the collecting desk's last writes to PostgreSQL: ${writtenMs.toFixed(0)} ms; load average (1, 5, 15 min) before ${loads[0]}, after ${loads[1]}`,
    );
    console.log(
      `  CPU time from the replies queued until every desk has all: each other desk ${median(deskCpu).toFixed(0)} ms (median of ${deskCpu.length}: importing ${n}), PostgreSQL ${pgCpu.toFixed(0)} ms, the collecting desk with the gateway (one process) ${ownCpu.toFixed(0)} ms; on 2 idle cores at least ${((deskCpu.reduce((a, b) => a + b, 0) + pgCpu + ownCpu) / 2).toFixed(0)} ms for all of it`,
    );
    console.log(
      `  one desk joining later, alone on the cores: sign-in to all ${n} imported: ${lateMs.toFixed(0)} ms`,
    );
    console.log(
      `  a desk's store importing the ${n} (CPU time, SQLite alone): ${ways.many.toFixed(0)} ms a page of 1,000 at a time, 50 rows a statement (inboundImport.storeMany); one at a time (storeInbound, the import before): ${ways.one.toFixed(0)} ms, ${(ways.one / ways.many).toFixed(1)}×`,
    );
    console.log(
      `  PostgreSQL's share: the collecting desk's writes to the office database took ${pgMs.toFixed(0)} ms of wall time (${((pgMs / collectedMs) * 100).toFixed(0)}% of its poll, overlapping it: the answers wait while the desk stores the next page; PostgreSQL's own CPU time is above)`,
    );
  } finally {
    await bench.close();
  }
}
