// The outbox journal's jobs (./outbox-journal.ts extends this with the states a batch goes
// through): a send written with every recipient, its batches all 'pending', BEFORE its first request,
// and a resend of an earlier job's recipients (a user's choice, never the journal's). Split from the
// journal by size (issue 27): the journal is still the only writer of a batch's state.
import { LIMITS } from '../../protocol/limits.ts';
import { normalizeMsisdn } from '../../protocol/msisdn.ts';
import { msisdnProblem } from '../../protocol/validate.ts';
import type { AppDb } from './db.ts';
import { InvalidRecipientsError, StoreError } from './errors.ts';
import { rowAs, rowsAs } from './rows.ts';
import { ConversationsRepo } from './conversations.ts';
import { OutboxReads, campaignRoot, isCampaign } from './outbox-reads.ts';
import { hasExtras, placeExtras } from './outbox-extras.ts';
import type { Chunk, JobExtras } from './outbox-extras.ts';
import { insertOutboundMessages, listedConversations } from './outbox-write.ts';
import { indexLeanPeers } from './outbox-pending.ts';
import { jobRecipientsSql } from './outbox-lean.ts';
import { contentLabel } from '../../protocol/content-label.ts';
import type { OutboundRow } from './outbox-write.ts';
import type { OutboxContent, OutboxJob } from '../../domain/index.ts';

export interface OutboxJournalOptions {
  defaultCountry?: string;
  /** Recipients per batch; at most (and by default) LIMITS.maxRecipientsPerRequest. */
  batchSize?: number;
  now?: () => number;
}

export class OutboxJobs extends OutboxReads {
  protected readonly conversations: ConversationsRepo;
  protected readonly defaultCountry: string | undefined;
  protected readonly batchSize: number;
  protected readonly clock: () => number;

  constructor(app: AppDb, options: OutboxJournalOptions = {}) {
    super(app);
    this.defaultCountry = options.defaultCountry;
    this.conversations = new ConversationsRepo(app, { defaultCountry: options.defaultCountry });
    const size = options.batchSize ?? LIMITS.maxRecipientsPerRequest;
    if (!Number.isInteger(size) || size < 1 || size > LIMITS.maxRecipientsPerRequest) {
      throw new StoreError(
        'invalid-input',
        `batch size must be 1 to ${LIMITS.maxRecipientsPerRequest}, not ${size}`,
      );
    }
    this.batchSize = size;
    this.clock = options.now ?? Date.now;
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
    const country = options.defaultCountry ?? this.defaultCountry;
    const numbers: string[] = [];
    const seen = new Set<string>();
    const problems: Array<{ input: string; reason: string }> = [];
    const normalized = options.normalized === true;
    for (const input of recipients) {
      let msisdn = input;
      // Issue 27 item 6: a number the plan normalised is taken as it is (no object made for it).
      if (!normalized || msisdnProblem(input) !== undefined) {
        const n = normalizeMsisdn(input, country);
        if (!n.ok) {
          problems.push({ input, reason: n.reason });
          continue;
        }
        msisdn = n.msisdn;
      }
      if (!seen.has(msisdn)) {
        seen.add(msisdn);
        numbers.push(msisdn);
      }
    }
    const extras = options.extras;
    if (problems.length > 0 || (numbers.length === 0 && !hasExtras(extras)))
      throw new InvalidRecipientsError(problems);

    const now = this.clock();
    const jobId = this.app.transaction(() => {
      const db = this.app.db;
      const job = rowAs<{ id: number }>(
        db
          .prepare(
            'INSERT INTO outbox_jobs (created_at, kind, text, content, resend_of, account_id, label) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
          )
          .get(
            now,
            content.kind,
            content.text,
            JSON.stringify(content),
            options.resendOf ?? null,
            options.accountId ?? null,
            contentLabel(content),
          ),
      );
      if (!job) throw new StoreError('invalid-state', 'the job was not journaled');
      // Migration 059: a batch's lean numbers are one value on its row (./outbox-pending.ts).
      const insertBatch = db.prepare(
        `INSERT INTO outbox_batches (job_id, seq, state, created_at, extra_fields, reach, lean, lean_count, lean_text)
         VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?) RETURNING id`,
      );
      // One batch = one request = one text: merged recipients are grouped by their final text.
      const textOf = options.textOf;
      const groups = new Map<string, string[]>();
      if (textOf === undefined) groups.set(content.text, numbers);
      else
        for (const to of numbers) {
          const t = textOf(to);
          const g = groups.get(t);
          if (g) g.push(to);
          else groups.set(t, [to]);
        }
      let chunks: Chunk[] = [];
      for (const [text, list] of groups)
        for (let start = 0; start < list.length; start += this.batchSize)
          chunks.push({ text, to: list.slice(start, start + this.batchSize) });
      chunks = placeExtras(chunks, extras, this.batchSize, content.text);
      // A campaign (more than one recipient, any address book or Cc/Bcc, or a resend of a campaign)
      // makes no Inbox conversations.
      const campaign = numbers.length > 1 || hasExtras(extras) || options.campaign === true;
      // Its conversations are its account's (issue 25: '' for a send of no account). Issue 27 item 6:
      // a campaign's recipient whose number has a listed conversation is a `messages` row of it (its
      // thread shows the send); the others are lean (./outbox-lean.ts), with no conversation made.
      const account = options.accountId ?? '';
      const conversations = campaign
        ? listedConversations(db, account, numbers)
        : new Map(numbers.map((to) => [to, this.conversations.ensure(account, to, now, false)]));
      const rows: OutboundRow[] = [];
      for (const [i, chunk] of chunks.entries()) {
        const seq = i + 1;
        const x = chunk.extras;
        let lean = 0;
        const listed: Array<{ conversationId: number; peer: string; position: number }> = [];
        const leanPeers = chunk.to.map((to, position) => {
          const conversationId = conversations.get(to);
          if (conversationId === undefined) {
            lean++;
            return to;
          }
          listed.push({ conversationId, peer: to, position });
          return null;
        });
        // The lean numbers as one value on the batch, its rows written when it ends (migration 059).
        const batch = rowAs<{ id: number }>(
          insertBatch.get(
            job.id,
            seq,
            now,
            x ? JSON.stringify(x.fields) : null,
            x ? x.reach : null,
            lean > 0 ? JSON.stringify(leanPeers) : null,
            lean,
            lean > 0 ? chunk.text : null,
          ),
        );
        if (!batch) throw new StoreError('invalid-state', 'the batch was not journaled');
        for (const r of listed) rows.push({ ...r, text: chunk.text, batchId: batch.id });
      }
      indexLeanPeers(db, job.id);
      insertOutboundMessages(db, { id: job.id, content, at: now }, rows);
      return job.id;
    });
    return this.mustJob(jobId);
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
      .filter((n) => !recipients.has(peerOf(n, this.defaultCountry)))
      .map((input) => ({ input, reason: `not a recipient of job ${jobId}` }));
    if (problems.length > 0 || numbers.length === 0) throw new InvalidRecipientsError(problems);
    // A merged send is resent with each recipient's own text.
    const texts = new Map(
      rowsAs<{ peer: string; text: string }>(
        this.app.db.prepare(jobRecipientsSql('r.peer, r.text', '= ?1')).all(jobId),
      ).map((r) => [r.peer, r.text]),
    );
    return this.createJob(numbers, job.content, {
      textOf: (to) => texts.get(to) ?? job.content.text,
      resendOf: jobId,
      campaign: isCampaign(job) || isCampaign(this.mustJob(campaignRoot(this.app, jobId))),
      ...(job.accountId === null ? {} : { accountId: job.accountId }),
    });
  }
}

/** A number as the journal holds it (normalised), or as typed when it is not one. */
export function peerOf(input: string, defaultCountry: string | undefined): string {
  const n = normalizeMsisdn(input, defaultCountry);
  return n.ok ? n.msisdn : input.trim();
}
