// The outbox journal: "nothing is lost" (docs/ARCHITECTURE.md). A send is written here, with
// every recipient, BEFORE its first request; the sending loop then drives each batch through
// pending → sending → accepted | rejected | unknown. The journal never sends anything itself and
// never re-sends: after a crash a batch left in 'sending' may or may not have reached the
// gateway, so recoverAfterCrash() makes it 'unknown' for the user to decide, and only
// resendToRecipients() (a user's choice) creates a new job.
//
// The journal's recipients are the outbound rows of `messages`: one row per recipient, with its
// batch, position in the SendTo list, report and delivery receipt, so the thread view, the
// history and the journal read the same truth.
//
// Split along its seams: ./outbox-reads.ts (jobs, batches, recipients as preload/api.ts types; the
// journal extends it), ./outbox-receipts.ts (delivery receipts, early ones kept until their batch
// is answered); here the states a send goes through.
import { OWNER, RUN_ID, holdRunLock, isOrphaned, isProcessAlive, isRunAlive } from './run-lock.ts';
import { LIMITS } from '../../protocol/limits.ts';
import { normalizeMsisdn } from '../../protocol/msisdn.ts';
import { msisdnProblem } from '../../protocol/validate.ts';
import { REPORT, classifyReport } from '../../protocol/reports.ts';
import type { AppDb } from './db.ts';
import { InvalidRecipientsError, StoreError } from './errors.ts';
import { rowAs, rowsAs } from './rows.ts';
import { stmt } from './sqlite.ts';
import type { BatchRow } from './rows.ts';
import { ConversationsRepo } from './conversations.ts';
import { OutboxReads } from './outbox-reads.ts';
import { applyEarlyReceipts, recordReceipt } from './outbox-receipts.ts';
import { campaignRoot, isCampaign } from './outbox-campaigns.ts';
import { extraTally, hasExtras, placeExtras, saveExtraCounts } from './outbox-extras.ts';
import type { Chunk, JobExtras } from './outbox-extras.ts';
import { ensureCampaignConversations, insertOutboundMessages } from './outbox-write.ts';
import type { OutboundRow } from './outbox-write.ts';
import type {
  DeliveryReceiptInput,
  MessageRecord,
  OutboundStatus,
  OutboxBatch,
  OutboxContent,
  OutboxJob,
  RecipientOutcome,
  RecipientResult,
} from '../../preload/api.ts';

export { statusOfReceipt } from './outbox-receipts.ts';
export { isProcessAlive, outboxRunId } from './run-lock.ts';

export const CRASH_REASON =
  'interrupted: the app stopped while this batch was being sent, so it may or may not have reached the gateway';

export interface RecoverOptions {
  reason?: string;
  /** How to tell whether another process that claimed a batch still runs (tests replace it). */
  isProcessAlive?: (pid: number) => boolean;
  /** Whether a run (by its random id) still holds its lock (tests replace it). */
  isRunAlive?: (runId: string) => boolean;
}

/** The recipient status a gateway report gives (spec 7.1): accepted, queued, rejected or unknown. */
export function statusOfReport(report: string): OutboundStatus {
  switch (classifyReport(report)) {
    case 'accepted':
      return report.trim() === REPORT.queued ? 'queued' : 'accepted';
    case 'error':
      return 'rejected';
    default:
      // An unknown code (or an account-management code on a send): the gateway answered, but we
      // cannot tell whether the message was taken. Shown as unknown with the code kept.
      return 'unknown';
  }
}

export interface OutboxJournalOptions {
  defaultCountry?: string;
  /** Recipients per batch; at most (and by default) LIMITS.maxRecipientsPerRequest. */
  batchSize?: number;
  now?: () => number;
}

export class OutboxJournal extends OutboxReads {
  readonly #conversations: ConversationsRepo;
  readonly #defaultCountry: string | undefined;
  readonly #batchSize: number;
  readonly #now: () => number;

  constructor(app: AppDb, options: OutboxJournalOptions = {}) {
    super(app);
    this.#defaultCountry = options.defaultCountry;
    this.#conversations = new ConversationsRepo(app, { defaultCountry: options.defaultCountry });
    const size = options.batchSize ?? LIMITS.maxRecipientsPerRequest;
    if (!Number.isInteger(size) || size < 1 || size > LIMITS.maxRecipientsPerRequest) {
      throw new StoreError(
        'invalid-input',
        `batch size must be 1 to ${LIMITS.maxRecipientsPerRequest}, not ${size}`,
      );
    }
    this.#batchSize = size;
    this.#now = options.now ?? Date.now;
    holdRunLock(app.file, RUN_ID);
  }

  /**
   * Journal a send: normalise and de-duplicate the recipients (first occurrence kept), split them
   * into batches and write the job, its batches (all 'pending') and one outbound message per
   * recipient in one transaction. Throws InvalidRecipientsError, writing nothing, when any
   * recipient is not a valid number or there is none.
   */
  createJob(
    recipients: readonly string[],
    content: OutboxContent,
    options: {
      resendOf?: number;
      defaultCountry?: string;
      accountId?: string;
      /** Mail merge (issue 12): each recipient's own text; recipients sharing a text share batches. */
      textOf?: (msisdn: string) => string;
      /** Issue 16: address books and the first request's Cc/Bcc (./outbox-extras.ts). */
      extras?: JobExtras;
      /** Part of a campaign (a resend of one) even when sent to one number: no Inbox conversation. */
      campaign?: boolean;
      /**
       * Issue 15: the recipients are normalised MSISDNs already (the sender's plan,
       * ./send-plan.ts): not normalised a second time, only de-duplicated.
       */
      normalized?: boolean;
    } = {},
  ): OutboxJob {
    const country = options.defaultCountry ?? this.#defaultCountry;
    const numbers: string[] = [];
    const seen = new Set<string>();
    const problems: Array<{ input: string; reason: string }> = [];
    for (const input of recipients) {
      const n: { ok: true; msisdn: string } | { ok: false; reason: string } =
        options.normalized === true && msisdnProblem(input) === undefined
          ? { ok: true, msisdn: input }
          : normalizeMsisdn(input, country);
      if (!n.ok) problems.push({ input, reason: n.reason });
      else if (!seen.has(n.msisdn)) {
        seen.add(n.msisdn);
        numbers.push(n.msisdn);
      }
    }
    const extras = options.extras;
    if (problems.length > 0 || (numbers.length === 0 && !hasExtras(extras)))
      throw new InvalidRecipientsError(problems);

    const now = this.#now();
    const jobId = this.app.transaction(() => {
      const db = this.app.db;
      const job = rowAs<{ id: number }>(
        db
          .prepare(
            'INSERT INTO outbox_jobs (created_at, kind, text, content, resend_of, account_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
          )
          .get(
            now,
            content.kind,
            content.text,
            JSON.stringify(content),
            options.resendOf ?? null,
            options.accountId ?? null,
          ),
      );
      if (!job) throw new StoreError('invalid-state', 'the job was not journaled');
      const insertBatch = db.prepare(
        "INSERT INTO outbox_batches (job_id, seq, state, created_at, extra_fields, reach) VALUES (?, ?, 'pending', ?, ?, ?) RETURNING id",
      );
      // One batch = one request = one text: merged recipients are grouped by their final text.
      const textOf = options.textOf ?? (() => content.text);
      const groups = new Map<string, string[]>();
      for (const to of numbers) {
        const t = textOf(to);
        const g = groups.get(t);
        if (g) g.push(to);
        else groups.set(t, [to]);
      }
      let chunks: Chunk[] = [];
      for (const [text, list] of groups)
        for (let start = 0; start < list.length; start += this.#batchSize)
          chunks.push({ text, to: list.slice(start, start + this.#batchSize) });
      chunks = placeExtras(chunks, extras, this.#batchSize, content.text);
      // A campaign (more than one recipient, any address book or Cc/Bcc, or a resend of a campaign)
      // makes no Inbox conversations.
      const campaign = numbers.length > 1 || hasExtras(extras) || options.campaign === true;
      const conversations = campaign
        ? ensureCampaignConversations(db, numbers, now)
        : new Map(numbers.map((to) => [to, this.#conversations.ensure(to, now, false)]));
      const rows: OutboundRow[] = [];
      for (const [i, chunk] of chunks.entries()) {
        const seq = i + 1;
        const x = chunk.extras;
        const batch = rowAs<{ id: number }>(
          insertBatch.get(job.id, seq, now, x ? JSON.stringify(x.fields) : null, x ? x.reach : null),
        );
        if (!batch) throw new StoreError('invalid-state', 'the batch was not journaled');
        chunk.to.forEach((to, position) => {
          const conversationId = conversations.get(to);
          if (conversationId === undefined)
            throw new StoreError('invalid-state', `could not create the conversation of ${to}`);
          rows.push({ conversationId, peer: to, text: chunk.text, batchId: batch.id, position });
        });
      }
      insertOutboundMessages(db, { id: job.id, content, at: now }, rows);
      return job.id;
    });
    return this.mustJob(jobId);
  }

  /** The text of a batch's messages (one per batch; a mail merge's own text), null when it has none. */
  batchText(batchId: number): string | null {
    return (
      rowAs<{ text: string }>(
        this.app.db
          .prepare('SELECT text FROM messages WHERE batch_id = ? ORDER BY position LIMIT 1')
          .get(batchId),
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
      const now = this.#now();
      const row = rowAs<BatchRow>(
        this.app.db
          .prepare(
            "UPDATE outbox_batches SET state = 'sending', started_at = ?, owner = ? WHERE id = ? AND state = 'pending' RETURNING *",
          )
          .get(now, OWNER, batchId),
      );
      if (!row) throw this.#stateError(batchId, 'pending', 'mark it sending');
      this.app.db
        .prepare("UPDATE messages SET status = 'sending', sent_at = ? WHERE batch_id = ?")
        .run(now, batchId);
      return this.toBatch(row);
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
        JSON.stringify(results),
        batchId,
      );
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
    return this.app.transaction(() => {
      this.#mustState(batchId, 'sending', 'record its results');
      const recipients = rowsAs<{ id: number; peer: string }>(
        stmt(this.app.db, 'SELECT id, peer FROM messages WHERE batch_id = ? ORDER BY position').all(batchId),
      );
      const byTo = new Map<string, RecipientResult>();
      const positional = results.some((r) => r.to === undefined);
      if (!positional) {
        // A result names its recipient as the journal holds it (the client echoes the batch's
        // normalised numbers): normalised again only when it does not (issue 15).
        const peers = new Set(recipients.map((m) => m.peer));
        for (const r of results)
          if (r.to !== undefined) byTo.set(peers.has(r.to) ? r.to : peerOf(r.to, this.#defaultCountry), r);
      }
      const now = this.#now();
      const update = stmt(
        this.app.db,
        `UPDATE messages SET status = ?, message_identifier = ?, report = ?, report_text = ?, classification = ?,
                answered_at = ? WHERE id = ?`,
      );
      recipients.forEach((m, i) => {
        const r = positional ? results[i] : byTo.get(m.peer);
        if (!r || (r.report === undefined && !r.notSent)) {
          const reason = r?.text ?? 'the gateway gave no result for this recipient';
          update.run('unknown', r?.messageIdentifier ?? null, null, reason, null, now, m.id);
          return;
        }
        if (r.report === undefined) {
          update.run('rejected', null, null, r.text ?? 'not sent', null, now, m.id);
          return;
        }
        const report = r.report.trim();
        update.run(
          statusOfReport(report),
          r.messageIdentifier ?? null,
          report,
          r.text ?? null,
          classifyReport(report),
          now,
          m.id,
        );
      });
      const peers = new Set(recipients.map((m) => m.peer));
      const reason = saveExtraCounts(
        this.app.db,
        batchId,
        results,
        (to) => peers.has(to) || peers.has(peerOf(to, this.#defaultCountry)),
      );
      this.#finishBatch(batchId, now, reason);
      applyEarlyReceipts(this.app, batchId);
      return this.recipientsOfBatch(batchId);
    });
  }

  /**
   * The whole request was answered with one error report (invalid login, a format-0 or
   * deprecated answer): every recipient of the batch gets it.
   */
  recordBatchReport(batchId: number, report: string, text?: string): RecipientOutcome[] {
    const recipients = this.toBatch(this.#mustState(batchId, 'sending', 'record its report')).recipients;
    return this.recordResults(
      batchId,
      recipients.map((to) => ({ to, report, ...(text === undefined ? {} : { text }) })),
    );
  }

  /**
   * The request may or may not have reached the gateway (connection reset, time-out, unreadable
   * answer): sending → unknown, with the reason the user will see. Never retried.
   */
  markUnknown(batchId: number, reason: string): OutboxBatch {
    return this.app.transaction(() => {
      this.#mustState(batchId, 'sending', 'mark it unknown');
      const now = this.#now();
      this.app.db
        .prepare(
          "UPDATE messages SET status = 'unknown', report_text = ?, answered_at = ? WHERE batch_id = ?",
        )
        .run(reason, now, batchId);
      this.app.db
        .prepare("UPDATE outbox_batches SET state = 'unknown', finished_at = ?, reason = ? WHERE id = ?")
        .run(now, reason, batchId);
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
        if (r.answer !== null) this.recordResults(r.id, JSON.parse(r.answer) as RecipientResult[]);
        else {
          this.markUnknown(r.id, options.reason ?? CRASH_REASON);
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
      const now = this.#now();
      const ids = rowsAs<{ id: number }>(
        this.app.db
          .prepare(
            "UPDATE outbox_batches SET state = 'rejected', finished_at = ?, reason = ? WHERE job_id = ? AND state = 'pending' RETURNING id",
          )
          .all(now, reason, jobId),
      ).map((r) => r.id);
      const update = this.app.db.prepare(
        "UPDATE messages SET status = 'rejected', report_text = ?, answered_at = ? WHERE batch_id = ?",
      );
      for (const id of ids) update.run(reason, now, id);
      return ids.sort((a, b) => a - b).map((id) => this.mustBatch(id));
    });
  }

  /**
   * The user chose to send again to some recipients of an earlier job (for example its failed
   * or unknown ones): a new job with the same content, linked to the old one. Every number must
   * be a recipient of that job. It goes out on the same account.
   */
  resendToRecipients(jobId: number, numbers: readonly string[]): OutboxJob {
    const job = this.mustJob(jobId);
    const recipients = this.numbersOf(jobId);
    const problems = numbers
      .filter((n) => !recipients.has(peerOf(n, this.#defaultCountry)))
      .map((input) => ({ input, reason: `not a recipient of job ${jobId}` }));
    if (problems.length > 0 || numbers.length === 0) throw new InvalidRecipientsError(problems);
    // A merged send is resent with each recipient's own text.
    const texts = new Map(
      rowsAs<{ peer: string; text: string }>(
        this.app.db
          .prepare("SELECT peer, text FROM messages WHERE job_id = ? AND direction = 'out'")
          .all(jobId),
      ).map((r) => [r.peer, r.text]),
    );
    return this.createJob(numbers, job.content, {
      textOf: (to) => texts.get(to) ?? job.content.text,
      resendOf: jobId,
      campaign: isCampaign(job) || isCampaign(this.mustJob(campaignRoot(this.app, jobId))),
      ...(job.accountId === null ? {} : { accountId: job.accountId }),
    });
  }

  /**
   * A delivery receipt (SubmitDeliveryReceipt) for a MessageIdentifier: delivered or failed.
   * A receipt for an identifier not recorded yet (its send's answer is still being processed) is
   * kept and applied by recordResults; null is returned then (./outbox-receipts.ts).
   */
  recordReceipt(receipt: DeliveryReceiptInput): MessageRecord | null {
    return recordReceipt(this.app, receipt, this.#now());
  }

  #finishBatch(batchId: number, now: number, reason: string | null): void {
    const counts = rowsAs<{ status: string; n: number }>(
      this.app.db
        .prepare('SELECT status, count(*) AS n FROM messages WHERE batch_id = ? GROUP BY status')
        .all(batchId),
    );
    const n = (s: string): number => counts.find((c) => c.status === s)?.n ?? 0;
    // Issue 16: a book's or Cc/Bcc's records count as its recipients do.
    const x = extraTally(this.app.db, batchId);
    const total = counts.reduce((sum, c) => sum + c.n, 0) + x.answered;
    const accepted = n('accepted') + n('queued') + x.accepted;
    const rejected = n('rejected') + x.rejected;
    const state = accepted > 0 ? 'accepted' : total > 0 && rejected === total ? 'rejected' : 'unknown';
    this.app.db
      .prepare('UPDATE outbox_batches SET state = ?, finished_at = ?, reason = ?, answer = NULL WHERE id = ?')
      .run(state, now, reason, batchId);
  }

  #mustState(batchId: number, state: OutboxBatch['state'], action: string): BatchRow {
    const row = rowAs<BatchRow>(this.batchRow.get(batchId));
    if (!row || row.state !== state) throw this.#stateError(batchId, state, action);
    return row;
  }

  #stateError(batchId: number, expected: string, action: string): StoreError {
    const row = rowAs<BatchRow>(this.batchRow.get(batchId));
    if (!row) return new StoreError('not-found', `no outbox batch ${batchId}`);
    return new StoreError(
      'invalid-state',
      `cannot ${action}: outbox batch ${batchId} is '${row.state}', not '${expected}'`,
    );
  }
}

function peerOf(input: string, defaultCountry: string | undefined): string {
  const n = normalizeMsisdn(input, defaultCountry);
  return n.ok ? n.msisdn : input.trim();
}
