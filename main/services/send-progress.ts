// The job snapshot each 'outbox:progress' event carries (issue 15). Reading a job's counts groups
// all its recipients by status (~6 ms for 100,000): once per batch that made a 286-batch campaign
// quadratic (~2 s of 7). Instead the counts are read in full at most every FULL_READ_MS, for the
// first batch and whenever the job has no pending batch left (so its last event is always exact);
// in between they are the last full read plus the batches answered since. Each of those was
// 'sending' at that read (the loop claims the next batch before it stores the previous one's
// results, ./sender.ts) or 'pending': its recipients are taken from 'sending' as far as the read
// had any, then from 'pending'. A delivery receipt or a cancel in between shows at the next full
// read. Issue 27: on a busy machine a full read takes longer (30 ms and more for 100,000 recipients
// with other processes on the cores), so full reads are also spaced READ_SHARE times their own
// duration apart: at most 1/READ_SHARE of the loop's time, however slow the machine. Issue 27 item 6:
// the job as the loop read it when it started (or as send.submit journaled it) is the first snapshot,
// so the first batch's event is not a full read of its own (~13 ms for 100,000 recipients), and full
// reads in between are a second apart (they were 250 ms: each ~13-15 ms of a ~1.2 s send of 100,000;
// what they add to the loop's own count is only receipts or a cancel by another caller, which the
// views read from the journal themselves: the renderer takes the event as "this job changed").
import type { OutboxJournal } from '../store/outbox-journal.ts';
import { countByStatus } from '../store/outbox-reads.ts';
import type { OutboundStatus, OutboxJob, RecipientOutcome, StatusCounts } from '../../domain/index.ts';

export const FULL_READ_MS = 1_000;
/** A full read waits at least this many times the last one's duration after it. */
export const READ_SHARE = 20;

/** What it reads: the store's outbox journal. */
export interface ProgressStore {
  outbox: Pick<OutboxJournal, 'job' | 'hasPending'>;
}

export class JobProgress {
  readonly #store: ProgressStore;
  readonly #jobId: number;
  readonly #now: () => number;
  #snapshot: OutboxJob | null = null;
  #readAt = 0;
  /** How long the last full read took. */
  #readCost = 0;

  /**
   * `known`: the job as stored when the loop started, before it claimed a batch (its first
   * snapshot, taken as a full read at that moment); without it the first batch's event reads.
   */
  constructor(store: ProgressStore, jobId: number, now: () => number = Date.now, known?: OutboxJob) {
    this.#store = store;
    this.#jobId = jobId;
    this.#now = now;
    if (known !== undefined) {
      this.#snapshot = known;
      this.#readAt = now();
    }
  }

  /**
   * The job after one of its batches ended (its recipients' `outcomes`, or their counts by status:
   * what the sending loop gets from the journal); null if gone. `answered`: the loop stored the
   * gateway's answer just now. A batch that ended otherwise (unknown, refused, not sent) may have
   * ended before the last full read already (markUnknown runs while the loop writes the next
   * request): then the counts are read in full.
   */
  after(ended: readonly RecipientOutcome[] | StatusCounts, answered = true): OutboxJob | null {
    const now = this.#now();
    const last = this.#snapshot;
    const byStatus = Array.isArray(ended)
      ? countByStatus(ended as readonly RecipientOutcome[])
      : (ended as StatusCounts);
    let total = 0;
    for (const n of Object.values(byStatus)) total += n;
    const fromSending = Math.min(last?.counts.sending ?? 0, total);
    if (
      !answered ||
      last === null ||
      now - this.#readAt >= Math.max(FULL_READ_MS, READ_SHARE * this.#readCost) ||
      last.counts.pending < total - fromSending ||
      !this.#store.outbox.hasPending(this.#jobId)
    ) {
      return this.read(now);
    }
    const counts = {
      ...last.counts,
      sending: last.counts.sending - fromSending,
      pending: last.counts.pending - (total - fromSending),
    };
    for (const [status, n] of Object.entries(byStatus)) counts[status as OutboundStatus] += n;
    this.#snapshot = { ...last, counts };
    return this.#snapshot;
  }

  /** The job as stored now (a full read). */
  read(now = this.#now()): OutboxJob | null {
    this.#snapshot = this.#store.outbox.job(this.#jobId);
    this.#readAt = now;
    this.#readCost = Math.max(0, this.#now() - now);
    return this.#snapshot;
  }
}
