// `npm run bench -- shared-sends` (issue 28): what sharing a send between desks costs. A send to
// 100,000 recipients journaled by a desk of its own (the baseline, in the same run) and by a desk in
// office mode, whose journal queues every recipient for the office database in the same transaction
// (TEMP triggers, main/office/sends-local.ts); then the queue written to a real PostgreSQL (started here
// with initdb + pg_ctl, as `npm run office-db` does): its time and how many statements it took. Then the
// desk of its own joins the office (share-sends.ts `join`): its earlier send queued and written, against
// the office desk's live send written (the baseline, same run). BENCH_QUICK: 20,000 recipients.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openAppStore } from '../main/store/app-store.ts';
import type { OpenedAppStore } from '../main/store/app-store.ts';
import { migrateOffice } from '../main/office/db.ts';
import { OfficeLocal } from '../main/office/local.ts';
import { createShareSends } from '../main/office/share-sends.ts';
import { postgresBin, startLocalPostgres } from '../main/office/local-server.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? (process.env.BENCH_QUICK ? 20_000 : 100_000));

const numbers = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `4479${String(i).padStart(8, '0')}`);

function journal(s: OpenedAppStore, accountId: string): number {
  const t = performance.now();
  s.outbox.createJob(
    numbers(RECIPIENTS),
    { kind: 'text', text: 'To everyone' },
    { accountId, normalized: true },
  );
  return performance.now() - t;
}

export async function run(): Promise<void> {
  if (postgresBin() === null) {
    console.log('PostgreSQL is not installed (apt-get install postgresql): skipped');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-shared-sends-'));
  chmodSync(dir, 0o755);
  const server = await startLocalPostgres(join(dir, 'pg'));
  const c = new pg.Client({
    host: '127.0.0.1',
    port: server.port,
    user: 'messenger',
    database: 'messenger',
    password: server.password,
  });
  const alone = openAppStore(join(dir, 'alone', 'messenger.sqlite'), { defaultCountry: 'GB' });
  const office = openAppStore(join(dir, 'office', 'messenger.sqlite'), { defaultCountry: 'GB' });
  try {
    await c.connect();
    await migrateOffice(c);
    const input = { username: 'office', primaryUrl: 'https://gw.example' };
    const aloneMs = journal(alone, alone.accounts.save(input).id);
    const account = office.accounts.save(input);
    const share = createShareSends({
      store: office,
      local: new OfficeLocal(office.app),
      desk: 'bench-desk',
      keyOf: (a) => `${a.username}@${a.primaryUrl}`,
      emit: () => {},
    });
    const officeMs = journal(office, account.id);
    let statements = 0;
    const query = c.query.bind(c) as (...args: unknown[]) => unknown;
    (c as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      statements++;
      return query(...args);
    };
    // The desk of its own joins (before the office desk writes its send): its send of before is queued,
    // written, and read back once by its own feed (a desk's sync reads its own changes too).
    const aloneAccount = alone.accounts.list()[0]!;
    const joining = createShareSends({
      store: alone,
      local: new OfficeLocal(alone.app),
      desk: 'bench-joining',
      keyOf: (a) => `${a.username}@${a.primaryUrl}`,
      emit: () => {},
    });
    const tj = performance.now();
    await joining.pull(c, aloneAccount, `${input.username}@${input.primaryUrl}`, 'bench-office');
    const joinMs = performance.now() - tj;
    const joinStatements = statements;
    statements = 0;
    const t = performance.now();
    await share.push(c);
    const pushMs = performance.now() - t;
    const pushStatements = statements;
    const n = RECIPIENTS.toLocaleString('en-GB');
    console.log(
      `a send to ${n} recipients journaled: a desk of its own ${aloneMs.toFixed(0)} ms (baseline); ` +
        `in office mode (each recipient queued for the office database) ${officeMs.toFixed(0)} ms ` +
        `(${(officeMs / aloneMs).toFixed(2)}×)`,
    );
    console.log(
      `  written to PostgreSQL: ${pushMs.toFixed(0)} ms in ${statements} statements ` +
        `(${Math.round((RECIPIENTS / pushMs) * 1000).toLocaleString('en-GB')} recipients/s)`,
    );
    console.log(
      `  a desk joining with a send of ${n} from before: queued, written and read back by its feed ` +
        `in ${joinMs.toFixed(0)} ms, ${joinStatements} statements ` +
        `(${(joinMs / pushMs).toFixed(2)}× the live send's write, ${pushStatements} statements)`,
    );
  } finally {
    await c.end().catch(() => undefined);
    alone.close();
    office.close();
    await server.stop('fast').catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
