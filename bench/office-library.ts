// `npm run bench -- office-library` (issue 28): a CSV import of 10,000 contacts (one group) shared by
// the desks of an office (main/office/share-library.ts) on a real PostgreSQL (started here with
// initdb + pg_ctl, as `npm run office-db` does). Baseline in the same run: the same import on a
// desk of its own (no office mode). Then, in office mode: the import at desk A (its TEMP triggers
// queue each record in the import's transaction), until A has written them all to the office
// database (batches of 1,000 records, one statement each), until desk B's own store holds all of
// them; PostgreSQL's share (A's writes, both desks' reads of the feed). BENCH_QUICK: 2,000 contacts.
import { performance } from 'node:perf_hooks';
import { libraryTimings } from '../main/office/share-library.ts';
import { postgresBin } from '../main/office/local-server.ts';
import { startOfficeBench } from './_office.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? (process.env.BENCH_QUICK ? 2_000 : 10_000));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function csv(): string {
  const lines = ['Name,Number,Group'];
  for (let i = 0; i < CONTACTS; i++) lines.push(`Person ${i},+44 7911 ${String(100000 + i)},Customers`);
  return lines.join('\n');
}

export async function run(): Promise<void> {
  if (postgresBin() === null) {
    console.log('PostgreSQL is not installed (apt-get install postgresql): skipped');
    return;
  }
  const { server, open, close } = await startOfficeBench('bench-office-library-');
  const file = csv();
  const mapping = { name: 'Name', number: 'Number', groups: 'Group' };
  try {
    const alone = await open('alone');
    let t = performance.now();
    await alone.api.contacts.importCsv({ csv: file, mapping });
    const aloneMs = performance.now() - t;
    await alone.close();

    const a = await open('desk-a', server.url);
    const b = await open('desk-b', server.url);
    for (const d of [a, b]) while ((await d.api.office.status())?.connected !== true) await sleep(25);
    await sleep(300);
    libraryTimings.writeMs = 0;
    libraryTimings.readMs = 0;
    t = performance.now();
    await a.api.contacts.importCsv({ csv: file, mapping });
    const importMs = performance.now() - t;
    while ((await a.api.office.status())?.pending !== 0) await sleep(10);
    const writtenMs = performance.now() - t;
    const holds = async () =>
      (await b.api.groups.list()).find((g) => g.name === 'Customers')?.memberCount === CONTACTS;
    for (let waited = 0; !(await holds()); waited += 20) {
      if (waited > 300_000) throw new Error('desk B never held them all');
      await sleep(20);
    }
    const atBMs = performance.now() - t;
    const n = CONTACTS.toLocaleString('en-GB');
    console.log(
      `CSV import of ${n} contacts (one group), 2 desks and one office database (PostgreSQL on loopback)`,
    );
    console.log(`  a desk of its own, the import (baseline): ${aloneMs.toFixed(0)} ms`);
    console.log(
      `  office: the import at desk A (its changes queued in the same transaction): ${importMs.toFixed(0)} ms (${(importMs / aloneMs).toFixed(2)}× the baseline)`,
    );
    console.log(`  office: until desk A has written all to the office database: ${writtenMs.toFixed(0)} ms`);
    console.log(`  office: until desk B's own store holds all ${n} and the group: ${atBMs.toFixed(0)} ms`);
    console.log(
      `  PostgreSQL's share: A's writes ${libraryTimings.writeMs.toFixed(0)} ms, both desks' reads ${libraryTimings.readMs.toFixed(0)} ms`,
    );
  } finally {
    await close();
  }
}
