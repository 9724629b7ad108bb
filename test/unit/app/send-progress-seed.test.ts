// Issue 27 item 6: the sending loop hands JobProgress the job as it was when the loop started (the
// one send.submit journaled, or the loop's own read), so the first batch's progress event is counted
// from it, not a full read of the job's counts; the last event is still a full read (exact).
import { describe, expect, it } from 'vitest';
import { JobProgress } from '../../../main/services/send-progress.ts';
import type { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import type { OutboxContent, RecipientOutcome } from '../../../domain/index.ts';
import { withJournal } from '../store/helpers.ts';

let journal: OutboxJournal;
withJournal((_a, j) => {
  journal = j;
});

const TEXT: OutboxContent = { kind: 'text', text: 'Seeded progress' };
const numbers = (n: number) => Array.from({ length: n }, (_, i) => String(447400200000 + i));

/** The journal as JobProgress reads it, counting its full reads of the job (`reads`). */
function countingStore() {
  const counting = {
    reads: 0,
    outbox: {
      job: (id: number) => {
        counting.reads++;
        return journal.job(id);
      },
      hasPending: (id: number) => journal.hasPending(id),
    },
  };
  return counting;
}

/** A job's counts with its not-yet-ended recipients (pending and sending) as one number. */
const ended = (job: { counts: Record<string, number> } | null | undefined) => {
  const { pending = 0, sending = 0, ...rest } = job?.counts ?? {};
  return { ...rest, notEnded: pending + sending };
};

describe('progress counted from the job the loop started with', () => {
  it('reads no counts for the first batch, equals the stored counts, and reads the last in full', () => {
    const job = journal.createJob(numbers(1000), TEXT, { normalized: true });
    const counting = countingStore();
    const progress = new JobProgress(counting, job.id, () => 0, job);
    const answerNext = (): RecipientOutcome[] => {
      const batch = journal.claimNext(job.id)!;
      return journal.recordResults(
        batch.id,
        batch.recipients.map((to, i) => ({ to, messageIdentifier: `M${to}`, report: i === 0 ? '15' : '-3' })),
      );
    };
    const first = progress.after(answerNext());
    expect(counting.reads).toBe(0);
    expect(first?.counts).toEqual(journal.job(job.id)?.counts);
    expect(first?.counts).toMatchObject({ pending: 650, accepted: 349, rejected: 1 });
    expect(progress.after(answerNext())?.counts).toEqual(journal.job(job.id)?.counts);
    expect(counting.reads).toBe(0);
    // The last batch (none pending after it): a full read, exact.
    const last = progress.after(answerNext());
    expect(counting.reads).toBe(1);
    expect(last?.counts).toEqual(journal.job(job.id)?.counts);
    expect(last?.counts).toMatchObject({ pending: 0, sending: 0, accepted: 997, rejected: 3 });
  });

  it('counted from the counts by status the loop gets (recordResultsCounted), two batches out, an early receipt', () => {
    const job = journal.createJob(numbers(1000), TEXT, { normalized: true });
    const counting = countingStore();
    const progress = new JobProgress(counting, job.id, () => 0, job);
    const answer = (batch: { id: number; recipients: string[] }, refused: number) =>
      journal.recordResultsCounted(
        batch.id,
        batch.recipients.map((to, i) => ({
          to,
          messageIdentifier: `M${to}`,
          report: i < refused ? '15' : '-2',
        })),
      );
    // The loop's pipeline (issue 15): the next batch claimed before the answered one is stored.
    const a = journal.claimNext(job.id)!;
    const b = journal.claimNext(job.id)!;
    const first = progress.after(answer(a, 2));
    expect(counting.reads).toBe(0);
    // Counted, not read: the batch out meanwhile (b) is still counted as pending (send-progress.ts:
    // claims are not followed); every other status as stored.
    expect(ended(first)).toEqual(ended(journal.job(job.id)));
    expect(first?.counts).toMatchObject({ pending: 650, sending: 0, queued: 348, rejected: 2 });
    // A receipt for b's first recipient before b's answer: applied with it, and counted.
    expect(journal.recordReceipt({ messageIdentifier: `M${b.recipients[0]!}`, report: '-3' })).toBeNull();
    const second = progress.after(answer(b, 0));
    expect(counting.reads).toBe(0);
    expect(second?.counts).toEqual(journal.job(job.id)?.counts);
    expect(second?.counts).toMatchObject({
      pending: 300,
      sending: 0,
      delivered: 1,
      queued: 697,
      rejected: 2,
    });
    const last = progress.after(answer(journal.claimNext(job.id)!, 1));
    expect(counting.reads).toBe(1);
    expect(last?.counts).toMatchObject({ pending: 0, sending: 0, delivered: 1, queued: 996, rejected: 3 });
  });

  it('without a starting job, the first batch is a full read as before', () => {
    const job = journal.createJob(numbers(700), TEXT, { normalized: true });
    const counting = countingStore();
    const progress = new JobProgress(counting, job.id, () => 0);
    const batch = journal.claimNext(job.id)!;
    progress.after(
      journal.recordResults(
        batch.id,
        batch.recipients.map((to) => ({ to, messageIdentifier: `M${to}`, report: '-3' })),
      ),
    );
    expect(counting.reads).toBe(1);
  });
});
