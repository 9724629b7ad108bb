// Review of issue 15's JobProgress: a full read taken while the next batch, already claimed, has
// failed fast (its request refused at once: markUnknown runs during the loop's requestWritten wait,
// before the answered batch's progress) counts that batch as unknown already; the next event then
// takes it from pending and counts it unknown a second time.
import { describe, expect, it } from 'vitest';
import type { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { JobProgress } from '../../../main/services/send-progress.ts';
import type { OutboxContent, RecipientOutcome } from '../../../preload/api.ts';
import { withJournal } from './helpers.ts';

let journal!: OutboxJournal;
withJournal((_a, j) => {
  journal = j;
});
const TEXT: OutboxContent = { kind: 'text', text: 'review' };
const numbers = (n: number) => Array.from({ length: n }, (_, i) => String(447400100000 + i));

describe('JobProgress with a next batch that failed before the full read', () => {
  it('keeps the counts the journal has', () => {
    const job = journal.createJob(numbers(1400), TEXT, { normalized: true });
    const clock = 0;
    const progress = new JobProgress({ outbox: journal }, job.id, () => clock);
    const answer = (batch: { id: number; recipients: string[] }): RecipientOutcome[] =>
      journal.recordResults(
        batch.id,
        batch.recipients.map((to) => ({ to, messageIdentifier: `M${to}`, report: '-3' })),
      );
    const first = journal.claimNext(job.id)!;
    const second = journal.claimNext(job.id)!;
    // the second request fails at once (connection refused) while the first's results are stored
    journal.markUnknown(second.id, 'connect ECONNREFUSED');
    progress.after(answer(first));
    const counts = progress.after(journal.recipientsOfBatch(second.id))?.counts;
    expect(counts).toEqual(journal.job(job.id)?.counts);
  });
});
