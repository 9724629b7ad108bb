// Issue 15: the journal writes a campaign many rows per statement (main/store/outbox-write.ts), the
// sender's already-normalised recipients are not normalised again, results are matched without
// normalising what the journal already holds, and the progress events' job counts are read in full
// only now and then (main/services/send-progress.ts). The same rows, the same conversations and
// the same counts as one row at a time.
import { describe, expect, it } from 'vitest';
import type { AppDb } from '../../../main/store/db.ts';
import type { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import { SearchRepo } from '../../../main/store/search.ts';
import { FULL_READ_MS, JobProgress, READ_SHARE } from '../../../main/services/send-progress.ts';
import type { OutboxContent, RecipientOutcome } from '../../../preload/api.ts';
import { withJournal } from './helpers.ts';

let app: AppDb;
let journal: OutboxJournal;
withJournal((a, j) => {
  app = a;
  journal = j;
});

const TEXT: OutboxContent = { kind: 'text', text: 'Quarterly café meeting', replyTo: '447700900999' };
/** n distinct UK mobile numbers, normalised. */
const numbers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => String(447400100000 + from + i));

interface Row {
  peer: string;
  conversation_id: number;
  batch_id: number;
  position: number;
  text: string;
  local: string | null;
  status: string;
  kind: string;
}

describe('journaling a campaign in bulk', () => {
  it('writes every recipient with its batch and position: lean, or a thread row with its search row when listed', () => {
    // 777: batches of 350, 350 and 77; statements of 50 rows with a remainder of 27.
    const list = numbers(777);
    // Issue 27 item 6: three numbers have a listed conversation (one in each batch).
    const repo = new ConversationsRepo(app);
    const listedPeers = [list[5]!, list[400]!, list[776]!];
    for (const p of listedPeers) repo.open('', p);
    const job = journal.createJob(list, TEXT, { normalized: true });
    expect(job).toMatchObject({ recipientCount: 777, batchCount: 3 });
    const batches = journal.batches(job.id);
    expect(batches.map((b) => b.recipients.length)).toEqual([350, 350, 77]);
    expect(batches.flatMap((b) => b.recipients)).toEqual(list);
    const where = (peer: string) => ({
      batch_id: batches[Math.floor(list.indexOf(peer) / 350)]!.id,
      position: list.indexOf(peer) % 350,
      text: TEXT.text,
      status: 'pending',
    });
    // The listed numbers: a `messages` row in their conversation, with its full-text row.
    const rows = app.db
      .prepare(
        `SELECT m.peer, m.conversation_id, m.batch_id, m.position, m.text, m.local, m.status, m.kind
           FROM messages m WHERE m.job_id = ? ORDER BY m.id`,
      )
      .all(job.id) as unknown as Row[];
    expect(rows.map((r) => r.peer)).toEqual(listedPeers);
    for (const r of rows) {
      expect(r).toMatchObject({ ...where(r.peer), local: TEXT.replyTo, kind: 'text' });
      expect(repo.byPeer('', r.peer)?.id).toBe(r.conversation_id);
      expect(repo.byPeer('', r.peer)?.lastMessage).toMatchObject({ status: 'pending', text: TEXT.text });
    }
    expect(new SearchRepo(app).search('', 'cafe').messages.length).toBeGreaterThan(0);
    expect(
      (
        app.db
          .prepare("SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'quarterly'")
          .get() as { n: number }
      ).n,
    ).toBe(3);
    // The others: lean (batch, position, number, text, job, account), no conversation; pending, in
    // their batch's value (migration 059), rows once the batch ends.
    expect(app.db.prepare('SELECT count(*) AS n FROM outbox_recipients').get()).toEqual({ n: 0 });
    const lean = app.db
      .prepare(
        'SELECT peer, batch_id, position, text, status, job_id, account_id FROM outbox_lean_pending ORDER BY batch_id, position',
      )
      .all() as unknown as Array<Row & { job_id: number; account_id: string }>;
    expect(lean.map((r) => r.peer)).toEqual(list.filter((p) => !listedPeers.includes(p)));
    for (const r of lean) expect(r).toMatchObject({ ...where(r.peer), job_id: job.id, account_id: '' });
    const conversations = app.db.prepare('SELECT peer, campaign_only FROM conversations ORDER BY id').all();
    expect(conversations).toEqual(listedPeers.map((peer) => ({ peer, campaign_only: 0 })));
    expect(journal.recipients(job.id).map((r) => r.to)).toEqual(list);
  });

  it('leaves a listed conversation listed and brings its last message up to date', () => {
    const repo = new ConversationsRepo(app);
    const listed = repo.ensure('', '447400100001', 1);
    const job = journal.createJob(numbers(3), TEXT, { normalized: true });
    const list = repo.list('').items;
    expect(list.map((c) => c.id)).toEqual([listed]);
    expect(list[0]?.lastMessage).toMatchObject({ direction: 'out', text: TEXT.text, status: 'pending' });
    expect(journal.job(job.id)?.recipientCount).toBe(3);
  });

  it('a send to one number lists its conversation, as before', () => {
    journal.createJob(['447400100005'], TEXT, { normalized: true });
    expect(new ConversationsRepo(app).list('').items.map((c) => c.peer)).toEqual(['447400100005']);
  });

  it('normalises what is not in the international form even when told the list is normalised', () => {
    const job = journal.createJob(['07400 100000', '447400100000', '+44 7400 100001'], TEXT, {
      normalized: true,
    });
    expect(journal.batches(job.id).flatMap((b) => b.recipients)).toEqual(['447400100000', '447400100001']);
  });

  it('matches results named by number whether or not the gateway wrote them as the journal does', () => {
    journal.createJob(numbers(3), TEXT, { normalized: true });
    const batch = journal.claimNext()!;
    const outcomes = journal.recordResults(batch.id, [
      { to: '447400100002', messageIdentifier: 'C', report: '-3' },
      { to: '+44 7400 100000', messageIdentifier: 'A', report: '-3' },
      { to: '447400100001', messageIdentifier: 'B', report: '15', text: 'Out of credit' },
    ]);
    expect(outcomes.map((o) => [o.to, o.messageIdentifier, o.status])).toEqual([
      ['447400100000', 'A', 'accepted'],
      ['447400100001', 'B', 'rejected'],
      ['447400100002', 'C', 'accepted'],
    ]);
  });
});

describe('the job counts of progress events', () => {
  /** Claims and answers the next batch: the first recipient rejected, the rest accepted. */
  function answerNext(jobId: number): RecipientOutcome[] {
    const batch = journal.claimNext(jobId)!;
    return journal.recordResults(
      batch.id,
      batch.recipients.map((to, i) => ({ to, messageIdentifier: `M${to}`, report: i === 0 ? '15' : '-3' })),
    );
  }

  it('are the stored counts after every batch; a receipt in between shows at the next full read', () => {
    const job = journal.createJob(numbers(1200), TEXT, { normalized: true });
    let clock = 1_000;
    const progress = new JobProgress({ outbox: journal }, job.id, () => clock);
    // First batch: a full read.
    expect(progress.after(answerNext(job.id))?.counts).toEqual(journal.job(job.id)?.counts);
    // Second: from the last read plus this batch's outcomes, equal to the stored counts.
    clock += 1;
    const second = progress.after(answerNext(job.id));
    expect(second?.counts).toEqual(journal.job(job.id)?.counts);
    expect(second?.counts).toMatchObject({ pending: 500, accepted: 698, rejected: 2 });
    // A receipt arrives: not seen until the next full read.
    journal.recordReceipt({ messageIdentifier: 'M447400100001', report: '0' });
    clock += 1;
    const third = progress.after(answerNext(job.id));
    expect(third?.counts.delivered).toBe(0);
    const stored = journal.job(job.id)!.counts;
    expect(third!.counts.accepted).toBe(stored.accepted + stored.delivered);
    // The job's last batch (none pending after it): always a full read.
    clock += 1;
    const last = progress.after(answerNext(job.id));
    expect(last?.counts).toEqual(journal.job(job.id)?.counts);
    expect(last?.counts).toMatchObject({ pending: 0, sending: 0, delivered: 1, rejected: 4 });
  });

  it('are read in full no more often than READ_SHARE times the last full read took (issue 27)', () => {
    const job = journal.createJob(numbers(1400), TEXT, { normalized: true });
    let clock = 0;
    let reads = 0;
    // A busy machine: each full read takes long enough by the clock that READ_SHARE of them pass
    // FULL_READ_MS (100 ms at 1 s and 20: issue 27 item 6).
    const cost = Math.ceil((2 * FULL_READ_MS) / READ_SHARE);
    const slow = {
      outbox: {
        job: (id: number) => {
          reads++;
          clock += cost;
          return journal.job(id);
        },
        hasPending: (id: number) => journal.hasPending(id),
      },
    };
    const progress = new JobProgress(slow, job.id, () => clock);
    progress.after(answerNext(job.id));
    expect(reads).toBe(1);
    // FULL_READ_MS later, but sooner than READ_SHARE × cost: counted from the outcomes.
    clock += FULL_READ_MS;
    expect(progress.after(answerNext(job.id))?.counts).toEqual(journal.job(job.id)?.counts);
    expect(reads).toBe(1);
    clock += READ_SHARE * cost;
    progress.after(answerNext(job.id));
    expect(reads).toBe(2);
    // The last batch: always a full read, however soon.
    progress.after(answerNext(job.id));
    expect(reads).toBe(3);
  });

  it('take a batch claimed before the last full read from sending (the loop requests the next batch first)', () => {
    const job = journal.createJob(numbers(1050), TEXT, { normalized: true });
    let clock = 0;
    const progress = new JobProgress({ outbox: journal }, job.id, () => clock);
    const answer = (batch: { id: number; recipients: string[] }): RecipientOutcome[] =>
      journal.recordResults(
        batch.id,
        batch.recipients.map((to) => ({ to, messageIdentifier: `M${to}`, report: '-3' })),
      );
    // As the sending loop does: the second batch is claimed (its request on its way) before the
    // first batch's results are stored and its progress read in full.
    const first = journal.claimNext(job.id)!;
    const second = journal.claimNext(job.id)!;
    expect(progress.after(answer(first))?.counts).toMatchObject({
      accepted: 350,
      sending: 350,
      pending: 350,
    });
    clock += 1;
    const counts = progress.after(answer(second))?.counts;
    expect(counts).toEqual(journal.job(job.id)?.counts);
    expect(counts).toMatchObject({ accepted: 700, sending: 0, pending: 350 });
  });

  it('are read in full after a batch that ended without an answer (the next request failed at once)', () => {
    const job = journal.createJob(numbers(1400), TEXT, { normalized: true });
    const progress = new JobProgress({ outbox: journal }, job.id, () => 0);
    const first = journal.claimNext(job.id)!;
    const second = journal.claimNext(job.id)!;
    // The second request is refused at once (connection refused) while the first's results are
    // stored: the first's full read already counts the second as unknown.
    journal.markUnknown(second.id, 'connect ECONNREFUSED');
    progress.after(
      journal.recordResults(
        first.id,
        first.recipients.map((to) => ({ to, messageIdentifier: `M${to}`, report: '-3' })),
      ),
    );
    const counts = progress.after(journal.recipientsOfBatch(second.id), false)?.counts;
    expect(counts).toEqual(journal.job(job.id)?.counts);
    expect(counts).toMatchObject({ accepted: 350, unknown: 350, pending: 700 });
  });

  it('reads in full again once FULL_READ_MS has passed, and after a cancel', () => {
    const job = journal.createJob(numbers(1400), TEXT, { normalized: true });
    let clock = 0;
    const progress = new JobProgress({ outbox: journal }, job.id, () => clock);
    progress.after(answerNext(job.id));
    journal.recordReceipt({ messageIdentifier: 'M447400100001', report: '0' });
    clock += FULL_READ_MS;
    expect(progress.after(answerNext(job.id))?.counts.delivered).toBe(1);
    // The user cancels while the third batch is being sent: its event says so (no pending left).
    const third = journal.claimNext(job.id)!;
    journal.cancelPending(job.id);
    const outcomes = journal.recordResults(
      third.id,
      third.recipients.map((to) => ({ to, report: '-3' })),
    );
    clock += 1;
    expect(progress.after(outcomes)?.counts).toEqual(journal.job(job.id)?.counts);
    expect(progress.after(outcomes)?.counts.pending).toBe(0);
  });
});
