// Issue 27 item 6 in office mode (app migrations 057, 059): what another desk is given of a send's
// recipients, through random sequences of journaling, claims, answers, receipts, numbers listed by
// this desk or by a connection without the office TEMP triggers (the CLI's `inbox`), the opted-out
// skip, cancel and unknown, with the queue read at random moments and the desk joining the office
// midway (its earlier sends queued: sends-join.ts). Kept as the office database keeps them (one per
// send and number, an older version never replacing a newer one), they end equal to the desk's own
// recipients. Fails when a lean key moved into `messages` by another connection is dropped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAppStore } from '../../../main/store/app-store.ts';
import { openAppDb } from '../../../main/store/db.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import { SendsLocal } from '../../../main/office/sends-local.ts';
import { queueExisting } from '../../../main/office/sends-join.ts';
import { rng } from '../../support/random.ts';

const N = (i: number) => `4477009001${String(i).padStart(2, '0')}`;

describe('office: a desk’s lean recipients as another desk keeps them', () => {
  for (let seed = 1; seed <= 40; seed++)
    it(`seed ${seed}`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'rev6-office-'));
      const store = openAppStore(join(dir, 'messenger.db'));
      const cli = openAppDb(join(dir, 'messenger.db'));
      try {
        const account = store.accounts.save({ username: 'demo', primaryUrl: 'https://gw.example.com' }).id;
        const sends = new SendsLocal(store.app, 'desk-a');
        const rand = rng(seed);
        const pick = (n: number) => Math.floor(rand() * n);
        const journal = new OutboxJournal(store.app, { batchSize: 2, defaultCountry: 'GB' });
        const conv = new ConversationsRepo(store.app);
        const cliConv = new ConversationsRepo(cli);
        const jobs: number[] = [];
        const claimed: number[] = [];
        let mid = 0;
        const office = new Map<
          string,
          { version: number; status: string; mid: string | null; position: number }
        >();
        const uidJob = new Map<string, number>();
        const log: string[] = [];
        let watching = false;
        const flush = () => {
          for (;;) {
            const page = sends.changes(7);
            if (page === null) return;
            for (const s of page.byAccount.get(account)?.sends ?? [])
              uidJob.set(s.uid, Number(s.uid.split(':')[1]));
            for (const r of page.byAccount.get(account)?.recipients ?? []) {
              const key = `${uidJob.get(r.sendUid)}:${r.peer}`;
              const before = office.get(key);
              if (!before || before.version <= r.version)
                office.set(key, {
                  version: r.version,
                  status: r.status,
                  mid: r.messageIdentifier,
                  position: r.position,
                });
            }
            sends.written(page.upTo, page.booksUpTo);
          }
        };
        for (let step = 0; step < 50; step++) {
          const op = pick(10);
          if (!watching && (op === 9 || step === 25)) {
            sends.watchJournal();
            // a desk joining: its sends so far queued
            store.app.transaction(() =>
              queueExisting(store.app, { accountId: account, afterJob: 0, untilJob: 1e9, jobs: 1000 }),
            );
            watching = true;
            log.push('join');
            continue;
          }
          if (op === 0 || jobs.length === 0) {
            const nums = [...new Set(Array.from({ length: 1 + pick(6) }, () => N(pick(10))))];
            if (nums.length < 2) nums.push(nums[0] === N(11) ? N(12) : N(11));
            const j = journal.createJob(nums, { kind: 'text', text: 'Sale' }, { accountId: account });
            jobs.push(j.id);
            log.push(`create ${j.id} ${nums}`);
          } else if (op === 1) {
            const b = journal.claimNext();
            if (b) claimed.push(b.id);
            log.push(`claim ${b?.id}`);
          } else if (op === 2 && claimed.length > 0) {
            const id = claimed.splice(pick(claimed.length), 1)[0]!;
            journal.recordResults(
              id,
              journal
                .batch(id)!
                .recipients.map((to) =>
                  pick(3) ? { to, report: '-3', messageIdentifier: `M${++mid}` } : { to, report: '15' },
                ),
            );
            log.push(`record ${id}`);
          } else if (op === 3 || op === 4) {
            const p = N(pick(10));
            (op === 3 ? conv : cliConv).storeInbound(account, {
              from: p,
              to: '447700900999',
              text: 'hi',
              timestamp: 'x',
            });
            log.push(`${op === 3 ? 'list' : 'cli-list'} ${p}`);
          } else if (op === 5 && mid > 0) {
            journal.recordReceipt({ messageIdentifier: `M${1 + pick(mid)}`, report: pick(2) ? '-1' : '-6' });
            log.push('receipt');
          } else if (op === 6) {
            const j = jobs[pick(jobs.length)]!;
            const out = new Set([N(pick(10)), N(pick(10))]);
            journal.skipOptedOutPending(j, (l) => ({
              kept: l.filter((x) => !out.has(x)),
              skipped: l.filter((x) => out.has(x)),
            }));
            log.push(`skip ${j} ${[...out]}`);
          } else if (op === 7) {
            journal.cancelPending(jobs[pick(jobs.length)]!);
            log.push('cancel');
          } else if (op === 8 && claimed.length > 0) {
            journal.markUnknown(claimed.splice(pick(claimed.length), 1)[0]!, 'lost');
            log.push('unknown');
          }
          if (watching && pick(3) === 0) flush();
        }
        if (!watching) return;
        flush();
        const want = new Map<string, { status: string; mid: string | null }>();
        for (const j of jobs)
          for (const r of journal.recipients(j))
            want.set(`${j}:${r.to}`, { status: r.status, mid: r.messageIdentifier });
        const got = new Map([...office].map(([k, v]) => [k, { status: v.status, mid: v.mid }]));
        expect(Object.fromEntries(got), log.join('\n')).toEqual(Object.fromEntries(want));
      } finally {
        cli.close();
        store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
});
