// Issue 25: the database check at start and the automatic backup, at 1,000,000 messages
// (bench/inbox.ts's fillInbox; 100,000 with --quick). Prints the median of the bounded check that
// decides before anything is served (checkDatabaseAtStart), and of the thorough check that runs on
// its own thread after start (PRAGMA quick_check, main/store/db-health.ts) against two baselines
// measured in the same run:
// reading the whole file once (what any check of every page costs at least) and the thorough
// PRAGMA integrity_check (which adds index-against-table checks); and the backup (node:sqlite's
// online backup, then the check of the copy: main/store/backups.ts) and VACUUM INTO (the
// before-migration backup) against a plain file copy.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { openAppDb } from '../main/store/db.ts';
import { backupNow, backupNowSync } from '../main/store/backups.ts';
import { checkDatabase, checkDatabaseAtStart } from '../main/store/db-health.ts';
import { fillInbox } from './inbox.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const MESSAGES = QUICK ? 100_000 : 1_000_000;
const RUNS = QUICK ? 3 : 5;

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

const ms = (x: number): string => `${x.toFixed(0)} ms`;

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'messenger-bench-health-'));
  try {
    const file = join(dir, 'messenger.sqlite');
    const app = openAppDb(file);
    fillInbox(app, MESSAGES);
    app.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const mb = statSync(file).size / 2 ** 20;
    console.log(`${MESSAGES.toLocaleString('en-GB')} messages, ${mb.toFixed(0)} MB`);

    // The check at start runs before the app opens the file (the app's connection is idle here).
    const quick: number[] = [];
    const read: number[] = [];
    const bounded: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      bounded.push(
        timed(() => {
          if (!checkDatabaseAtStart(file).ok) throw new Error('the bench database failed its check');
        }),
      );
      read.push(timed(() => readFileSync(file)));
      quick.push(
        timed(() => {
          if (!checkDatabase(file).ok) throw new Error('the bench database failed its check');
        }),
      );
    }
    const check = new DatabaseSync(file);
    const integrity = timed(() => check.prepare('PRAGMA integrity_check').all());
    check.close();
    console.log(
      `check at start (bounded, before anything is served): median ${median(bounded).toFixed(1)} ms`,
    );
    console.log(
      `thorough check after start, on its own thread (quick_check): median ${ms(median(quick))} of ${RUNS}; baselines: reading the file ${ms(
        median(read),
      )} (×${(median(quick) / median(read)).toFixed(1)}), integrity_check ${ms(integrity)} (quick_check takes ${(
        (100 * median(quick)) /
        integrity
      ).toFixed(0)}% of it)`,
    );

    const online: number[] = [];
    const vacuum: number[] = [];
    const copy: number[] = [];
    for (let i = 0; i < Math.min(RUNS, 3); i++) {
      copy.push(timed(() => copyFileSync(file, join(dir, `copy-${i}.sqlite`))));
      const t0 = performance.now();
      await backupNow(app.db, file, 'daily');
      online.push(performance.now() - t0);
      vacuum.push(timed(() => backupNowSync(app.db, file, 'before-migration-99')));
    }
    app.close();
    console.log(
      `backup, checked after writing: online backup() ${ms(median(online))}, VACUUM INTO ${ms(
        median(vacuum),
      )}; baseline: copying the file ${ms(median(copy))} (×${(median(online) / median(copy)).toFixed(1)} and ×${(
        median(vacuum) / median(copy)
      ).toFixed(1)})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
