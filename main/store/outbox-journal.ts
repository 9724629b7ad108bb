// The outbox journal: "nothing is lost" (docs/ARCHITECTURE.md). A send is written here, with
// every recipient, BEFORE its first request; the sending loop then drives each batch through
// pending → sending → accepted | rejected | unknown. The journal never sends anything itself and
// never re-sends: after a crash a batch left in 'sending' may or may not have reached the
// gateway, so recoverAfterCrash() makes it 'unknown' for the user to decide, and only
// resendToRecipients() (a user's choice) creates a new job.
//
// The journal's recipients: one row per recipient, with its batch, position in the SendTo list,
// report and delivery receipt; an outbound row of `messages` (its thread shows it) or, for a send to
// many, lean while its number has no listed conversation (issue 27 item 6, ./outbox-lean.ts): a
// number in its batch's value until the batch ends, then a row of `outbox_recipients` written once
// (./outbox-pending.ts, migration 059). A batch's recipients are all of them, by position; every
// state below writes both kinds (claiming: the batch's row and its `messages` rows only).
//
// Split along its seams: ./outbox-reads.ts (jobs, batches, recipients as domain/ types; the
// journal extends it), ./outbox-jobs.ts (a send journaled, a resend; the journal extends it too),
// ./outbox-receipts.ts (delivery receipts, early ones kept until their batch
// is answered), ./outbox-answer.ts (a batch's answer read against its recipients and written); here
// the states a send goes through.
import { OWNER, RUN_ID, holdRunLock, isOrphaned, isProcessAlive, isRunAlive } from './run-lock.ts';
import type { AppDb } from './db.ts';
import { StoreError } from './errors.ts';
import { rowAs, rowsAs, toBatch } from './rows.ts';
import { stmt } from '../../storage/sqlite.ts';
import type { BatchRow } from './rows.ts';
import { OutboxJobs, peerOf } from './outbox-jobs.ts';
import type { OutboxJournalOptions } from './outbox-jobs.ts';
import { applyEarlyReceipts, recordReceipt, recordReceipts } from './outbox-receipts.ts';
import { extraTally, saveExtraCounts } from './outbox-extras.ts';
import { answerRecipients } from './outbox-answer.ts';
import { decodeHeldAnswer, encodeHeldAnswer } from './held-answer.ts';
import type { AnsweredRecipients } from './outbox-answer.ts';
import { countByStatus } from './outbox-reads.ts';
import { batchRecipients, claimedRecipients, closeBatchRecipients } from './outbox-lean.ts';
import type { BatchRecipients } from './outbox-lean.ts';
import { skipOptedOutPending } from './outbox-skip.ts';
import type { OptedOut } from './outbox-skip.ts';
import type {
  DeliveryReceiptInput,
  MessageRecord,
  OutboxBatch,
  RecipientOutcome,
  RecipientResult,
  StatusCounts,
  UnknownCause,
} from '../../domain/index.ts';

export { statusOfReceipt } from './outbox-receipts.ts';
export { statusOfReport } from './outbox-answer.ts';
export { isProcessAlive, outboxRunId } from './run-lock.ts';
export type { OutboxJournalOptions } from './outbox-jobs.ts';

export { OPTED_OUT_REASON } from './outbox-skip.ts';
export type { OptedOut } from './outbox-skip.ts';

export const CRASH_REASON =
  'interrupted: the app stopped while this batch was being sent, so it may or may not have reached the gateway';

export interface RecoverOptions {
  reason?: string;
  /** How to tell whether another process that claimed a batch still runs (tests replace it). */
  isProcessAlive?: (pid: number) => boolean;
  /** Whether a run (by its random id) still holds its lock (tests replace it). */
  isRunAlive?: (runId: string) => boolean;
}

export class OutboxJournal extends OutboxJobs {
  /** The batches this journal claimed and has not answered yet, with their recipients. */
  readonly #claimed = new Map<number, { recipients: BatchRecipients; inMessages: number }>();

  constructor(app: AppDb, options: OutboxJournalOptions = {}) {
    super(app, options);
    holdRunLock(app.file, RUN_ID);
  }

  /** The text of a batch's messages (one per batch; a mail merge's own text), null when it has none. */
  batchText(batchId: number): string | null {
    return (
      rowAs<{ text: string }>(
        stmt(
          this.app.db,
          `SELECT text FROM (SELECT text FROM messages WHERE batch_id = ?1 LIMIT 1)
           UNION ALL SELECT text FROM (SELECT text FROM outbox_recipients WHERE batch_id = ?1 LIMIT 1)
           UNION ALL SELECT lean_text FROM outbox_batches WHERE id = ?1 AND lean_text IS NOT NULL`,
        ).get(batchId),
      )?.text ?? null
    );
  }

  /** The id of the oldest batch still 'pending' (of `jobId`, or of any job), or null. */
  #nextPendingId(jobId?: number): number | null {
    const row = rowAs<{ id: number }>(
      jobId === undefined
        ? stmt(this.app.db, "SELECT id FROM outbox_batches WHERE state = 'pending' ORDER BY id LIMIT 1").get()
        : stmt(
            this.app.db,
            "SELECT id FROM outbox_batches WHERE state = 'pending' AND job_id = ? ORDER BY id LIMIT 1",
          ).get(jobId),
    );
    return row?.id ?? null;
  }

  /** The oldest batch still 'pending' (null when there is nothing to send). */
  nextBatch(jobId?: number): OutboxBatch | null {
    const id = this.#nextPendingId(jobId);
    return id === null ? null : this.batch(id);
  }

  /** Whether the job has a batch still 'pending' (nextBatch without reading its numbers). */
  hasPending(jobId: number): boolean {
    return this.#nextPendingId(jobId) !== null;
  }

  /**
   * pending → sending, committed before the request goes out. Only a pending batch can be
   * claimed, so two loops (or a loop after a restart) can never send the same batch twice.
   */
  markSending(batchId: number): OutboxBatch {
    return this.app.transaction(() => {
      const now = this.clock();
      const row = rowAs<BatchRow>(
        stmt(
          this.app.db,
          "UPDATE outbox_batches SET state = 'sending', started_at = ?, owner = ? WHERE id = ? AND state = 'pending' RETURNING *",
        ).get(now, OWNER, batchId),
      );
      if (!row) throw this.#stateError(batchId, 'pending', 'mark it sending');
      stmt(this.app.db, "UPDATE messages SET status = 'sending', sent_at = ? WHERE batch_id = ?").run(
        now,
        batchId,
      );
      // Its lean recipients are in the batch's value (migration 059): 'sending' with it, sent at its start.
      // Its recipients, read once: recordResults takes them from here (issue 27 item 6).
      const recipients = claimedRecipients(this.app.db, batchId, row.lean, now);
      let inMessages = 0;
      for (const id of recipients.ids) if (id !== null) inMessages++;
      this.#claimed.set(batchId, { recipients, inMessages });
      return toBatch(row, recipients.peers.slice());
    });
  }

  /**
   * nextBatch + markSending in one transaction: the oldest pending batch, now 'sending' and
   * owned by this process, or null. Several loops or processes may call it at once; each batch
   * is handed out once.
   */
  claimNext(jobId?: number): OutboxBatch | null {
    return this.app.transaction(() => {
      // Only its id: markSending reads the batch with its recipients (issue 15: once, not twice).
      const next = this.#nextPendingId(jobId);
      return next === null ? null : this.markSending(next);
    });
  }

  /**
   * The gateway answered a batch in 'sending': its results are held in the journal (one row, the
   * caller's transaction) before the next batch is claimed and requested, and stored one per
   * recipient by recordResults while that request is on its way (issue 15). A crash in between
   * leaves the answer to recoverAfterCrash, which stores it: an answered batch never becomes unknown.
   */
  holdAnswer(batchId: number, results: readonly RecipientResult[]): void {
    this.app.transaction(() => {
      this.#mustState(batchId, 'sending', 'hold its answer');
      stmt(this.app.db, 'UPDATE outbox_batches SET answer = ? WHERE id = ?').run(
        encodeHeldAnswer(results),
        batchId,
      );
    });
  }

  /**
   * holdAnswer and, in the same transaction, the next pending batch of `jobId` claimed when
   * `mayClaim()` says so (issue 15: the answer is held before the next request goes; issue 27: the
   * sender asks for both instead of opening the transaction itself). The claimed batch, or null.
   */
  holdAnswerAndClaim(
    batchId: number,
    results: readonly RecipientResult[],
    jobId: number,
    mayClaim: () => boolean,
  ): OutboxBatch | null {
    return this.app.transaction(() => {
      this.holdAnswer(batchId, results);
      return mayClaim() ? this.claimNext(jobId) : null;
    });
  }

  /**
   * The gateway answered for a batch in 'sending': one result per recipient (format 3, spec 4.1),
   * matched by `to` when given, else by position in the batch's SendTo list. A recipient without
   * a result or report is 'unknown'; one the client never sent (`notSent`) is 'rejected'. The
   * batch becomes 'accepted' when any recipient was accepted, 'rejected' when every recipient
   * was rejected, else 'unknown'.
   */
  recordResults(batchId: number, results: readonly RecipientResult[]): RecipientOutcome[] {
    return this.#record(batchId, results, true).outcomes ?? [];
  }

  /**
   * recordResults for the sending loop, which needs only how many of the batch's recipients ended
   * with each status (its progress counts): no outcome object per recipient (issue 27 item 6).
   */
  recordResultsCounted(batchId: number, results: readonly RecipientResult[]): StatusCounts {
    return this.#record(batchId, results, false).counts;
  }

  #record(batchId: number, results: readonly RecipientResult[], withOutcomes: boolean): AnsweredRecipients {
    return this.app.transaction(() => {
      const { extras } = this.#mustState(batchId, 'sending', 'record its results');
      // Its recipients as markSending read them, unless some moved into `messages` since (a reply:
      // migration 055's triggers; rows never move the other way), or another run claimed it.
      const claimed = this.#claimed.get(batchId);
      this.#claimed.delete(batchId);
      const claimedOrRead =
        claimed !== undefined && this.#inMessages(batchId) === claimed.inMessages
          ? claimed.recipients
          : batchRecipients(this.app.db, batchId);
      const count = claimedOrRead.peers.length;
      const now = this.clock();
      // The lean recipients (id null) are answered together (LeanAnswers), the others row by row.
      const answered = answerRecipients(
        this.app.db,
        batchId,
        claimedOrRead,
        results,
        now,
        this.defaultCountry,
        withOutcomes,
      );
      // Issue 16: a batch with a book or Cc/Bcc counts their records (none: nothing to read or write).
      let reason: string | null = null;
      if (extras) {
        const own = new Set(claimedOrRead.peers);
        reason = saveExtraCounts(
          this.app.db,
          batchId,
          results,
          (to) => own.has(to) || own.has(peerOf(to, this.defaultCountry)),
        );
      }
      this.#finishBatch(batchId, now, reason, count, answered.counts, extras);
      // A receipt that came before this answer changes its recipient: then the rows are read back.
      if (applyEarlyReceipts(this.app, batchId) === 0) return answered;
      const outcomes = this.recipientsOfBatch(batchId);
      return { outcomes, counts: countByStatus(outcomes) };
    });
  }

  /**
   * The whole request was answered with one error report (invalid login, a format-0 or
   * deprecated answer): every recipient of the batch gets it.
   */
  recordBatchReport(batchId: number, report: string, text?: string): RecipientOutcome[] {
    this.#mustState(batchId, 'sending', 'record its report');
    const recipients = this.mustBatch(batchId).recipients;
    return this.recordResults(
      batchId,
      recipients.map((to) => ({ to, report, ...(text === undefined ? {} : { text }) })),
    );
  }

  /**
   * The request may or may not have reached the gateway (connection reset, time-out, unreadable
   * answer): sending → unknown, with the reason the user will see. Never retried.
   */
  markUnknown(batchId: number, reason: string, cause: UnknownCause = 'failed'): OutboxBatch {
    return this.app.transaction(() => {
      this.#mustState(batchId, 'sending', 'mark it unknown');
      this.#claimed.delete(batchId);
      const now = this.clock();
      closeBatchRecipients(this.app.db, batchId, 'unknown', reason, now);
      this.app.db
        .prepare(
          "UPDATE outbox_batches SET state = 'unknown', finished_at = ?, reason = ?, unknown_cause = ? WHERE id = ?",
        )
        .run(now, reason, cause, batchId);
      return this.mustBatch(batchId);
    });
  }

  /**
   * At start-up: every batch left in 'sending' by a crash becomes 'unknown' (with its
   * recipients) and is returned, so the app can show it, unless its answer was held (holdAnswer):
   * then its results are stored as answered. Nothing is re-sent. A batch claimed by
   * this process, or by another process that still runs (a CLI on the same data folder), is left
   * alone: it is not lost, it is being sent.
   */
  recoverAfterCrash(options: RecoverOptions = {}): OutboxBatch[] {
    const alive = options.isProcessAlive ?? isProcessAlive;
    const runAlive = options.isRunAlive ?? ((run: string) => isRunAlive(this.app.file, run));
    return this.app.transaction(() => {
      const rows = rowsAs<{ id: number; owner: string | null; answer: string | null }>(
        this.app.db
          .prepare("SELECT id, owner, answer FROM outbox_batches WHERE state = 'sending' ORDER BY id")
          .all(),
      );
      const orphans = rows.filter((r) => isOrphaned(r.owner, alive, runAlive));
      // A batch whose answer was held (issue 15) was answered: its results are stored, not lost.
      const unknown: number[] = [];
      for (const r of orphans) {
        this.#claimed.delete(r.id); // another run's: its recipients are read as they are now
        if (r.answer !== null) this.recordResults(r.id, decodeHeldAnswer(r.answer));
        else {
          this.markUnknown(r.id, options.reason ?? CRASH_REASON, 'app-stopped');
          unknown.push(r.id);
        }
      }
      return unknown.map((id) => this.mustBatch(id));
    });
  }

  /**
   * The user cancels what is left of a job (during a large send, or after a restart instead of
   * continuing it): its batches still 'pending' (never requested) become 'rejected' with the
   * reason, their recipients too. Batches already sent or sending are not touched.
   */
  cancelPending(jobId: number, reason = 'cancelled before it was sent'): OutboxBatch[] {
    return this.app.transaction(() => {
      this.mustJob(jobId);
      const now = this.clock();
      const ids = rowsAs<{ id: number }>(
        this.app.db
          .prepare(
            "UPDATE outbox_batches SET state = 'rejected', finished_at = ?, reason = ? WHERE job_id = ? AND state = 'pending' RETURNING id",
          )
          .all(now, reason, jobId),
      ).map((r) => r.id);
      for (const id of ids) closeBatchRecipients(this.app.db, id, 'rejected', reason, now);
      return ids.sort((a, b) => a - b).map((id) => this.mustBatch(id));
    });
  }

  /**
   * Before "Continue sending": recipients of the job's pending batches on `optedOut` are never
   * requested. A batch left with only such recipients becomes 'rejected' (one with Cc/Bcc stays
   * pending for them); otherwise they move to a new 'rejected' batch of the same job (a batch's rows
   * stay its SendTo list). Returns how many.
   */
  skipOptedOutPending(jobId: number, isOptedOut: OptedOut): number {
    return skipOptedOutPending(this.app, jobId, isOptedOut, this.clock());
  }

  /**
   * Issue 16: a claimed ('sending') batch that must not go after all — its book's member or a Cc/Bcc
   * number opted out after the send was journaled, or the book could not be read to check it — is
   * 'rejected' with the reason, its numbers too, never requested.
   */
  refuseClaimed(batchId: number, reason: string): void {
    const app = this.app;
    const now = this.clock();
    app.transaction(() => {
      const changed = app.db
        .prepare(
          "UPDATE outbox_batches SET state = 'rejected', finished_at = ?, reason = ? WHERE id = ? AND state = 'sending'",
        )
        .run(now, reason, batchId).changes;
      if (Number(changed) === 0)
        throw new StoreError('invalid-state', `outbox batch ${batchId} is not being sent: not refused`);
      this.#claimed.delete(batchId);
      closeBatchRecipients(app.db, batchId, 'rejected', reason, now);
    });
  }

  /**
   * A delivery receipt (SubmitDeliveryReceipt) for a MessageIdentifier: delivered or failed.
   * A receipt for an identifier not recorded yet (its send's answer is still being processed) is
   * kept and applied by recordResults; null is returned then (./outbox-receipts.ts).
   */
  recordReceipt(receipt: DeliveryReceiptInput): MessageRecord | null {
    return recordReceipt(this.app, receipt, this.clock());
  }

  /** The batch's state from its `count` recipients as just written (`counts` by status) and its extras. */
  #finishBatch(
    batchId: number,
    now: number,
    reason: string | null,
    count: number,
    counts: StatusCounts,
    extras: boolean,
  ): void {
    // Issue 16: a book's or Cc/Bcc's records count as its recipients do.
    const x = extras ? extraTally(this.app.db, batchId) : { answered: 0, accepted: 0, rejected: 0 };
    const total = count + x.answered;
    const accepted = counts.accepted + counts.queued + x.accepted;
    const rejected = counts.rejected + x.rejected;
    const state = accepted > 0 ? 'accepted' : total > 0 && rejected === total ? 'rejected' : 'unknown';
    stmt(
      this.app.db,
      `UPDATE outbox_batches SET state = ?, finished_at = ?, reason = ?, answer = NULL, unknown_cause = ?,
              lean = NULL, lean_count = 0 WHERE id = ?`,
    )
      // Issue 25: answered, yet no recipient's outcome is known: the gateway gave no result for them.
      .run(state, now, reason, state === 'unknown' ? 'no-result' : null, batchId);
  }

  /** How many of the batch's recipients are `messages` rows (served by the index messages_batch). */
  #inMessages(batchId: number): number {
    return (
      rowAs<{ n: number }>(
        stmt(this.app.db, 'SELECT count(*) AS n FROM messages WHERE batch_id = ?').get(batchId),
      )?.n ?? 0
    );
  }

  /**
   * The batch is in `state`, else a StoreError. Reads its state and whether it has extras only, not
   * the whole row: a claimed batch's row holds its value and, once answered, its held answer (~30 KB
   * for 350 numbers), read three times per batch for a state check before (~17 ms per 100,000).
   */
  #mustState(batchId: number, state: OutboxBatch['state'], action: string): { extras: boolean } {
    const row = rowAs<{ state: string; extras: number }>(
      stmt(
        this.app.db,
        'SELECT state, extra_fields IS NOT NULL AS extras FROM outbox_batches WHERE id = ?',
      ).get(batchId),
    );
    if (!row || row.state !== state) throw this.#stateError(batchId, state, action);
    return { extras: row.extras === 1 };
  }

  #stateError(batchId: number, expected: string, action: string): StoreError {
    const row = rowAs<BatchRow>(this.batchRow.get(batchId));
    if (!row) return new StoreError('not-found', `no outbox batch ${batchId}`);
    return new StoreError(
      'invalid-state',
      `cannot ${action}: outbox batch ${batchId} is '${row.state}', not '${expected}'`,
    );
  }

  /** Issue 27 item 6: receipts pushed together, in one transaction (./outbox-receipts.ts recordReceipts). */
  recordReceipts(receipts: readonly DeliveryReceiptInput[]): Array<MessageRecord | null | Error> {
    return recordReceipts(this.app, receipts, (r) => this.recordReceipt(r));
  }
}
