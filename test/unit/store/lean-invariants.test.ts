// Issue 27 item 6 (app migrations 055, 059): the lean journal's invariants through random sequences of
// what the app does to a send (journal, claim, hold an answer, record it by number or by position, from
// another journal instance, a receipt, a number listed by a reply or `inbox.open` under either account,
// the opted-out skip, cancel, unknown, refused, crash recovery, resend to failed). After each step,
// every job's recipients are its numbers, each once, across `messages`, `outbox_recipients` and the
// batches' values; its counts (outbox_lean_counts, lean_count) equal its rows'; every lean recipient is
// found by its number (outbox_lean_peers) and no peers row names another; no lean number has a listed
// conversation. A guard for the journal's optimisation: each invariant fails when a piece of it is
// taken out (checked by hand: the skip's moveLeanPeer, the listing triggers).
import { describe, expect, it } from 'vitest';
import type { AppDb } from '../../../main/store/db.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import type { OutboxContent } from '../../../domain/index.ts';
import { withJournal } from './helpers.ts';
import { readCampaign, resendFailed } from '../../../main/store/outbox-campaigns.ts';
import { FAILED_STATUSES } from '../../../domain/status-groups.ts';
import { rng } from '../../support/random.ts';

let app: AppDb;
withJournal((a) => {
  app = a;
});
const TEXT: OutboxContent = { kind: 'text', text: 'Doors open at nine', replyTo: '447700900999' };
const N = (i: number) => `4477009001${String(i).padStart(2, '0')}`;

const all = <T>(sql: string, ...p: Array<string | number>) => app.db.prepare(sql).all(...p) as T[];

function check(journal: OutboxJournal, jobs: Map<number, string[]>, ctx: string) {
  for (const [jobId, numbers] of jobs) {
    const rows = all<{ peer: string; status: string; src: string }>(
      `SELECT peer, status, 'm' AS src FROM messages WHERE job_id = ?1 AND direction = 'out'
       UNION ALL SELECT peer, status, 'r' FROM outbox_recipients WHERE job_id = ?1
       UNION ALL SELECT peer, status, 'v' FROM outbox_lean_pending WHERE job_id = ?1`,
      jobId,
    );
    expect(rows.map((r) => r.peer).sort(), `${ctx} job ${jobId} recipients`).toEqual([...numbers].sort());
    const byRows: Record<string, number> = {};
    for (const r of rows) byRows[r.status] = (byRows[r.status] ?? 0) + 1;
    const counts = Object.fromEntries(
      Object.entries({ ...journal.job(jobId)!.counts }).filter(([, n]) => n !== 0),
    );
    expect(counts, `${ctx} job ${jobId} counts`).toEqual(byRows);
    expect(
      journal
        .recipients(jobId)
        .map((r) => r.to)
        .sort(),
      `${ctx} job ${jobId} list`,
    ).toEqual([...numbers].sort());
  }
  // every peers row names a lean recipient with its number (row or value)
  const bad = all(
    `SELECT d.* FROM outbox_lean_peers d
      WHERE NOT EXISTS (SELECT 1 FROM outbox_recipients r WHERE r.batch_id = d.batch_id AND r.position = d.position AND r.peer = d.peer)
        AND NOT EXISTS (SELECT 1 FROM outbox_batches b WHERE b.id = d.batch_id AND b.lean ->> d.position = d.peer)`,
  );
  expect(bad, `${ctx} stale peers`).toEqual([]);
  // every lean recipient is found by its number
  const unindexed = all(
    `SELECT r.batch_id, r.position, r.peer FROM outbox_recipients r
      WHERE NOT EXISTS (SELECT 1 FROM outbox_lean_peers d WHERE d.batch_id = r.batch_id AND d.position = r.position AND d.peer = r.peer)
     UNION ALL SELECT v.batch_id, v.position, v.peer FROM outbox_lean_pending v
      WHERE NOT EXISTS (SELECT 1 FROM outbox_lean_peers d WHERE d.batch_id = v.batch_id AND d.position = v.position AND d.peer = v.peer)`,
  );
  expect(unindexed, `${ctx} unindexed`).toEqual([]);
  // no lean number with a listed conversation
  const listedLean = all(
    `SELECT v.peer FROM (SELECT peer, account_id FROM outbox_recipients UNION ALL SELECT peer, account_id FROM outbox_lean_pending) v
      JOIN conversations c ON c.account_id = v.account_id AND c.peer = v.peer AND c.campaign_only = 0`,
  );
  expect(listedLean, `${ctx} listed lean`).toEqual([]);
}

describe('the lean journal through random sends', () => {
  for (let seed = 1; seed <= 40; seed++)
    it(`seed ${seed}`, () => {
      const rand = rng(seed);
      const pick = (n: number) => Math.floor(rand() * n);
      const journal = new OutboxJournal(app, { batchSize: 3, defaultCountry: 'GB' });
      const conversations = new ConversationsRepo(app);
      const jobs = new Map<number, string[]>();
      const claimed: number[] = [];
      const held = new Map<number, unknown>();
      let mid = 0;
      const log: string[] = [];
      for (let step = 0; step < 60; step++) {
        const op = pick(9);
        try {
          if (op === 0 || jobs.size === 0) {
            const k = 1 + pick(7);
            const nums = [...new Set(Array.from({ length: k }, () => N(pick(12))))];
            const acc = pick(2) ? 'acc-a' : '';
            if (acc !== '' && !app.db.prepare("SELECT 1 FROM accounts WHERE id = 'acc-a'").get())
              app.db.exec(
                `INSERT INTO accounts (id, label, username, primary_url, created_at, updated_at) VALUES ('acc-a', 'a', 'u', 'https://g.example/', 0, 0)`,
              );
            const j = journal.createJob(nums, TEXT, acc ? { accountId: acc } : {});
            jobs.set(j.id, nums);
            log.push(`create ${j.id} ${nums.join(',')}`);
          } else if (op === 1) {
            const b = journal.claimNext();
            if (b) claimed.push(b.id);
            log.push(`claim ${b?.id}`);
          } else if (op === 2 && claimed.length > 0) {
            const id = claimed.splice(pick(claimed.length), 1)[0]!;
            const b = journal.batch(id)!;
            const positional = pick(3) === 0;
            const res = b.recipients.map((to0) => {
              const to = positional ? undefined : to0;
              const x = pick(4);
              return x === 0
                ? { to, report: '15', text: 'no' }
                : x === 3
                  ? { to }
                  : { to, report: '-3', messageIdentifier: `M${++mid}` };
            });
            if (pick(2) === 0 && !held.has(id)) {
              journal.holdAnswer(id, res);
              held.set(id, res);
              claimed.push(id);
              log.push(`hold ${id}`);
            } else {
              (pick(2) ? journal : new OutboxJournal(app, { defaultCountry: 'GB' })).recordResults(id, res);
              held.delete(id);
              log.push(`record ${id}`);
            }
          } else if (op === 3) {
            const p = N(pick(12));
            const acc = pick(2) ? 'acc-a' : '';
            if (pick(2) === 0) conversations.open(acc, p);
            else conversations.storeInbound(acc, { from: p, to: '447700900999', text: 'hi', timestamp: 'x' });
            log.push(`list ${p}`);
          } else if (op === 4 && mid > 0) {
            const m = `M${1 + pick(mid)}`;
            journal.recordReceipt({ messageIdentifier: m, report: pick(2) ? '-1' : '-6' });
            log.push(`receipt ${m}`);
          } else if (op === 5) {
            const ids = [...jobs.keys()];
            const j = ids[pick(ids.length)]!;
            const out = new Set([N(pick(12)), N(pick(12))]);
            journal.skipOptedOutPending(j, (list) => ({
              kept: list.filter((x) => !out.has(x)),
              skipped: list.filter((x) => out.has(x)),
            }));
            log.push(`skip ${j} ${[...out].join(',')}`);
          } else if (op === 6) {
            const ids = [...jobs.keys()];
            const j = ids[pick(ids.length)]!;
            journal.cancelPending(j);
            log.push(`cancel ${j}`);
          } else if (op === 7 && claimed.length > 0) {
            const id = claimed.splice(pick(claimed.length), 1)[0]!;
            if (held.has(id)) {
              claimed.push(id);
              continue;
            }
            if (pick(2)) journal.markUnknown(id, 'lost');
            else journal.refuseClaimed(id, 'refused');
            log.push(`unknown/refuse ${id}`);
          } else if (op === 8 && pick(3) === 1) {
            const ids = [...jobs.keys()];
            const j = ids[pick(ids.length)]!;
            const c = readCampaign(app, journal, j);
            const failed = c.rows.filter((r) => FAILED_STATUSES.includes(r.status)).map((r) => r.to);
            if (failed.length > 0) {
              const r = resendFailed(app, journal, j, (l) => ({ kept: [...l], skipped: [] }));
              jobs.set(
                r.job.id,
                journal.recipients(r.job.id).map((x) => x.to),
              );
              expect(
                journal
                  .recipients(r.job.id)
                  .map((x) => x.to)
                  .sort(),
              ).toEqual([...failed].sort());
              log.push(`resend ${j} -> ${r.job.id}`);
            }
          } else if (op === 8 && pick(3) === 0) {
            app.db.prepare("UPDATE outbox_batches SET owner = '4343:crashed' WHERE state = 'sending'").run();
            new OutboxJournal(app, { defaultCountry: 'GB' }).recoverAfterCrash({
              isProcessAlive: () => false,
              isRunAlive: () => false,
            });
            claimed.length = 0;
            held.clear();
            log.push('crash');
          }
        } catch (e) {
          throw new Error(`${log.join('\n')}\n${String(e)}`, { cause: e });
        }
        check(journal, jobs, log.join('\n'));
      }
    });
});
