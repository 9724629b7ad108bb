// The sending loop: send.submit checks the content, normalises the recipients (contacts and groups
// expanded), journals the job BEFORE any request, then drives it one journal batch = one request
// (every kind's contentFormFields through GatewayClient.sendFormFields to sendsms or sendmms), an
// 'outbox:progress' per batch, the rest cancelled after a whole-account stop (SEND_STOP_REPORTS),
// credit refreshed after. A request that threw may have reached the gateway: unknown, never re-sent
// by itself. Sends run one after another on one chain; resend only when the user asks.
import { contentOperation, isRichContent } from '../../protocol/content.ts';
import type { RecipientResult as ClientRecipientResult } from '../client/results.ts';
import type { AppStore } from '../store/app-store.ts';
import { message } from './app-options.ts';
import type { Emit, Log } from './app-options.ts';
import { libraryKindOf } from './library.ts';
import { sendFields } from './send-content.ts';
import { createSendPlanner } from './send-planner.ts';
import { checkMergedLength, isMailMerge, measureMerge, mergedTexts } from './mail-merge.ts';
import { estimateSend } from './send-plan.ts';
import { limitExtras, reachOfPlan, recheckExtras } from './send-books.ts';
import { bookLabel, extraResults, labelsOf } from './send-extras.ts';
import { JobProgress } from './send-progress.ts';
import type { rateWatcher } from './rates.ts';
import type { Session } from './session.ts';
import { ApiError } from './validate-args.ts';
import type { MessengerApi } from '../../preload/api.ts';
import type {
  Balance,
  Credit,
  OutboxBatch,
  OutboxContent,
  OutboxJob,
  RecipientResult,
  SendAccepted,
  SendRequest,
  Settings,
} from '../../domain/index.ts';

/** Opted-out recipients named in an estimate (issue 26); the rest are counted. */
const OPTED_OUT_NAMED = 20;

export interface SenderDeps {
  store: AppStore;
  sessions: { current(): Session | null; require(): Session };
  country(): string | undefined;
  /** `onBalance` sees the balance read before it is shown (issue 26: a price is learned from it). */
  refreshCredit(onBalance?: (balance: Balance) => void): Promise<unknown>;
  /** Issue 26: learns a message price from the credit before and after a send (rates.ts). */
  rateWatch?: ReturnType<typeof rateWatcher>;
  /** The last credit read (null before the first). */
  credit(): Promise<Credit | null>;
  settings(): Settings;
  closing(): boolean;
  emit: Emit;
  log: Log;
  /** Issue 25: a job's loop stopped on an error (the journal took no write): the UI is told. */
  halted?(jobId: number, reason: string): void;
  /** Issue 25: a job's loop starts (again). */
  started?(jobId: number): void;
  /** Issue 28: office mode: the office database's opt-out list pulled in before a send is planned. */
  optOutsFresh?(): Promise<void>;
}

function toJournalResult(r: ClientRecipientResult): RecipientResult {
  // One object of one shape per recipient (an absent value is undefined, which the journal and its
  // JSON treat as absent): spreading conditional objects made three more per recipient (issue 27 item 6).
  const out: RecipientResult = {
    to: r.number,
    messageIdentifier: r.messageIdentifier,
    report: r.report,
    text: r.text,
  };
  if (r.status === 'not-sent') out.notSent = true;
  return out;
}

/**
 * A batch's request, done: the whole-account stop reason, if any, and what the gateway answered for
 * its recipients. `results` are stored by the loop (held first, then stored while the next batch's
 * request is on its way); without them the batch's outcome is stored already (refused before its
 * request, unknown, or not sent).
 */
interface BatchSent {
  stop: string | null;
  results?: RecipientResult[];
  /** After the results are stored (the library number an upload was given). */
  afterStored?: () => void;
}

/**
 * Resolves once a request just made has been written to its connection. undici (8) writes a request
 * on a kept-alive connection from a setImmediate that it schedules while dispatching it (it first
 * lets any bytes the server sent on the idle socket arrive, GHSA-35p6-xmwp-9g52), and the dispatch
 * runs in the microtasks after the request is made: two turns of the check phase let that write
 * happen before this thread goes on with work of its own (issue 15).
 */
function requestWritten(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

export function createSender(deps: SenderDeps) {
  const { store, sessions, emit, log } = deps;
  let chain: Promise<void> = Promise.resolve();

  /**
   * One journal batch = one request. Returns the whole-account stop reason, if any, and the
   * recipients' results to store (issue 15: the loop stores them while the next request goes).
   */
  async function sendBatch(s: Session, batch: OutboxBatch, content: OutboxContent): Promise<BatchSent> {
    if (batch.extras) {
      // Read after the batch was claimed: a failure here is "not sent" (nothing was requested), not
      // "unknown".
      const refusal = await recheckExtras(
        s,
        batch.extras.fields,
        deps.country(),
        (n) => store.optOuts.filter(s.account.id, n).skipped,
        () => store.outbox.numbersOf(batch.jobId),
        batch.recipients.length,
      ).catch((err: unknown) => `not sent: its address book could not be checked (${message(err)})`);
      if (refusal !== null) {
        store.outbox.refuseClaimed(batch.id, refusal);
        return { stop: null };
      }
    }
    // Issue 27: every kind the same way: the content's form fields (protocol/content.ts
    // contentFormFields) to the batch's recipients, one request, one answer shape. A mail merge's text
    // batch carries its recipients' own text (one text per batch); any other batch, the content's.
    const text = isMailMerge(content) ? store.outbox.batchText(batch.id) : null;
    const fields = sendFields(
      { username: s.account.username, pin: s.pin },
      text === null ? content : { ...content, text },
      batch.recipients.join(','),
    );
    // Issue 16: the batch's address book or Cc/Bcc; a batch of no numbers has no SendTo.
    if (batch.recipients.length === 0) delete fields.SendTo;
    Object.assign(fields, batch.extras?.fields ?? {});
    const res = await s.client.sendFormFields(
      contentOperation(content.kind),
      fields,
      labelsOf(batch),
      bookLabel(batch),
    );
    if (res.outcome !== 'answered') {
      if (res.outcome === 'unsent')
        return {
          stop: null,
          results: batch.recipients.map((to) => ({ to, notSent: true, text: res.reason })),
        };
      store.outbox.markUnknown(batch.id, res.reason, res.cause);
      return { stop: null };
    }
    const interpreted = res.value;
    const libraryKind = libraryKindOf(content.kind);
    const libraryNumber = interpreted.libraryNumber;
    return {
      stop: interpreted.stop ? (interpreted.error?.message ?? 'the gateway refused the account') : null,
      results: [
        ...interpreted.results.map(toJournalResult),
        ...extraResults(batch, interpreted.results, interpreted.error),
      ],
      ...(libraryNumber !== undefined && libraryKind !== null
        ? {
            // The gateway stored an upload under this number: the media picker offers it again.
            afterStored: () => {
              const f = (isRichContent(content) ? content.fields : undefined) ?? {};
              const name = f.MMSNotificationFileName1 ?? f.WAPPushFileName1 ?? '';
              store.libraryNumbers.record(s.account.id, Number(libraryNumber), libraryKind, name);
            },
          }
        : {}),
    };
  }

  function progress(jobId: number, batch: OutboxBatch, job: OutboxJob): void {
    emit('outbox:progress', { jobId, batch, job });
  }

  /**
   * An answered batch's results stored outside the loop's steps (a step of the loop failed): else,
   * if the journal refuses that too, the batch made unknown; its held answer, if any, stays for the
   * next start. Never throws.
   */
  function settleAnswered(batchId: number, results: RecipientResult[], why?: unknown): void {
    try {
      store.outbox.recordResults(batchId, results);
    } catch (err) {
      log(`batch ${batchId}: its answer not stored: ${message(err)}`);
      try {
        store.outbox.markUnknown(
          batchId,
          `answered, but the answer could not be stored (${message(why ?? err)})`,
          'not-stored',
        );
      } catch {
        // the journal takes nothing now: the next start makes the batch unknown, or stores its held answer
      }
    }
  }

  /** A batch's bookkeeping after its results (the library number of an upload): logged if it fails. */
  function afterStored(sent: BatchSent): void {
    try {
      sent.afterStored?.();
    } catch (err) {
      log(`after a batch's results: ${message(err)}`);
    }
  }

  /** The batch's request; a request that threw may have reached the gateway: unknown, never re-sent. */
  function request(s: Session, batch: OutboxBatch, content: OutboxContent): Promise<BatchSent> {
    return sendBatch(s, batch, content).catch((err: unknown) => {
      try {
        store.outbox.markUnknown(batch.id, message(err), 'failed');
      } catch (inner) {
        log(`batch ${batch.id} not marked unknown: ${message(inner)}`);
      }
      return { stop: null };
    });
  }

  /**
   * The job's batches one request at a time (never two in flight: the request after a whole-account
   * stop is never made). Issue 15: when a batch is answered, its answer is held in the journal and
   * the next batch claimed in one transaction, the next request goes out, and only then are the
   * answered batch's 350 results stored and its progress sent, while the gateway works on the next.
   */
  async function drive(jobId: number, journaled?: OutboxJob): Promise<void> {
    // Issue 27 item 6: a job send.submit has just journaled is not read again (a full read of its
    // counts); it is the progress's first snapshot too (nothing but this loop changes a job never
    // requested: a cancel meanwhile leaves no batch to claim).
    const job = journaled ?? store.outbox.job(jobId);
    if (!job) return;
    const counts = new JobProgress(store, jobId, Date.now, job);
    // A sign-out or a sign-in to another account stops the loop between requests: the rest stays
    // pending for the user, never sent with another account's login and credit.
    const session = (): Session | null => {
      const s = sessions.current();
      if (deps.closing() || !s) return null;
      return job.accountId !== null && s.account.id !== job.accountId ? null : s;
    };
    const claim = (): { s: Session; batch: OutboxBatch } | null => {
      const s = session();
      const batch = s ? store.outbox.claimNext(jobId) : null;
      return s && batch ? { s, batch } : null;
    };
    // Issue 26: the credit before the first request, to learn what the gateway charged.
    const watch = deps.rateWatch && session() ? await deps.rateWatch.begin(job) : null;
    let current = claim();
    let answer = current ? request(current.s, current.batch, job.content) : null;
    while (current && answer) {
      const batch = current.batch;
      const sent = await answer;
      const results = sent.results;
      const goOn = (): { s: Session; batch: OutboxBatch } | null => (sent.stop === null ? claim() : null);
      let next: { s: Session; batch: OutboxBatch } | null;
      try {
        if (results) {
          // The answer held and the next batch claimed in one transaction of the journal's.
          const s = sent.stop === null ? session() : null;
          const claimed = store.outbox.holdAnswerAndClaim(batch.id, results, jobId, () => s !== null);
          next = s && claimed ? { s, batch: claimed } : null;
        } else next = goOn();
      } catch (err) {
        // The answer could not be held (nor the next batch claimed: no request is out). Store it
        // now if the journal takes it; else the batch is unknown rather than left 'sending'.
        if (results) settleAnswered(batch.id, results, err);
        throw err;
      }
      answer = next ? request(next.s, next.batch, job.content) : null;
      const inFlight = answer;
      /**
       * The request already made is waited for and its answer stored before the loop ends, however
       * it ends (app closing, or storing the answered batch failed): never left unobserved while the
       * chain goes on to another request.
       */
      const settleNext = async (): Promise<void> => {
        if (!inFlight || !next) return;
        const last = await inFlight;
        if (last.results) settleAnswered(next.batch.id, last.results);
        afterStored(last);
      };
      try {
        // The next request goes out before this thread stores the answered batch's results.
        if (inFlight) await requestWritten();
        // Issue 27 item 6: the answered batch's recipients counted by status (no outcome object each).
        const ended = results
          ? store.outbox.recordResultsCounted(batch.id, results)
          : store.outbox.recipientsOfBatch(batch.id);
        afterStored(sent);
        if (deps.closing()) {
          // The app closes the store after this loop: a request already made is waited for and its
          // answer stored first.
          await settleNext();
          return;
        }
        const nowJob = counts.after(ended, results !== undefined) ?? job;
        progress(jobId, store.outbox.batchWith(batch) ?? batch, nowJob);
        if (sent.stop !== null) {
          const cancelled = store.outbox.cancelPending(jobId, `not sent: ${sent.stop}`);
          for (const b of cancelled) progress(jobId, b, store.outbox.job(jobId) ?? nowJob);
          break;
        }
      } catch (err) {
        // Whatever failed here, the request already made is not left unobserved.
        await settleNext();
        throw err;
      }
      current = next;
    }
    if (!deps.closing() && sessions.current()) {
      // Issue 26: the price is learned from the balance before the credit (with its prices) is shown.
      const learn = watch
        ? (after: Balance) => {
            if (session()) deps.rateWatch?.end(watch, after, store.outbox.job(jobId));
          }
        : undefined;
      await deps.refreshCredit(learn).catch((err: unknown) => log(`credit not refreshed: ${message(err)}`));
    }
  }

  /** `journaled`: the job as send.submit journaled it (not read again). */
  function startSending(jobId: number, journaled?: OutboxJob): void {
    deps.started?.(jobId);
    chain = chain
      .then(() => drive(jobId, journaled))
      .catch((err: unknown) => {
        log(`send of job ${jobId} failed: ${message(err)}`);
        deps.halted?.(jobId, message(err));
      });
  }

  // Issue 27: a send is planned once: the estimate's plan serves the submit that follows (send-planner.ts).
  const { planSend, remember, planForSubmit } = createSendPlanner({
    store,
    sessions,
    country: deps.country,
    optOutsFresh: deps.optOutsFresh,
  });

  async function submit(req: SendRequest): Promise<SendAccepted> {
    const { s, country: c, plan, kept, skipped, planned } = await planForSubmit(req);
    const { invalid } = plan;
    // "Send to the first K the credit covers": the rest is not journaled at all; books and Cc/Bcc
    // whole while they fit.
    const numbers = req.limit !== undefined ? kept.slice(0, req.limit) : kept;
    const extras =
      req.limit !== undefined ? limitExtras(planned, req.limit - numbers.length) : planned.extras;
    const hasExtras = (extras.books?.length ?? 0) > 0 || extras.first !== undefined;
    if (numbers.length === 0 && !hasExtras) {
      throw new ApiError(
        'invalid-recipients',
        skipped.length > 0 && invalid.length === 0
          ? `every recipient is on the opt-out list (${skipped.length})`
          : invalid.length === 0
            ? 'no recipients'
            : `no valid recipient; ${invalid.length} invalid`,
        invalid,
      );
    }
    // Journaled BEFORE the first request (the journal de-duplicates).
    const merged = isMailMerge(req.content) ? store.contacts.byMsisdns(numbers) : null;
    if (merged)
      checkMergedLength(measureMerge(req.content.text, req.content.kind === 'flash', numbers, merged));
    const merge = merged ? mergedTexts(req.content.text, merged) : undefined;
    const job = store.outbox.createJob(numbers, req.content, {
      ...(merge ? { textOf: merge } : {}),
      accountId: s.account.id,
      ...(c ? { defaultCountry: c } : {}),
      extras,
      // planRecipients normalised them once (issue 15: not again in the journal)
      normalized: true,
    });
    startSending(job.id, job);
    return { job, invalid, optedOut: skipped.length };
  }

  // outbox.halts is ./send-halts.ts's (issue 25)
  const api: { send: MessengerApi['send']; outbox: Omit<MessengerApi['outbox'], 'halts'> } = {
    send: {
      submit,
      estimate: async (req) => {
        const planOfSend = remember(req, await planSend(req));
        const { plan: all, kept, skipped, planned } = planOfSend;
        const plan = { ...all, numbers: kept, optedOut: skipped.length };
        let credit = await deps.credit();
        if (!credit)
          credit = await deps.refreshCredit().then(
            (c) => c as Credit,
            () => null,
          );
        // The recipients' contacts in one query (a 5,000-recipient estimate is not 5,000 lookups).
        const merge = isMailMerge(req.content)
          ? mergedTexts(req.content.text, store.contacts.byMsisdns(kept))
          : undefined;
        const estimate = estimateSend(
          plan,
          req.content,
          credit,
          deps.settings().confirmAboveRecipients,
          merge,
          {
            reach: reachOfPlan(planned),
            reached: planned.reached,
          },
        );
        // Issue 26: Compose names the opted-out recipients before Send (the first few, with their contacts' names).
        const named = skipped.slice(0, OPTED_OUT_NAMED);
        const contacts = store.contacts.byMsisdns(named);
        const optedOutNamed = named.map((number) => ({ number, name: contacts.get(number)?.name ?? null }));
        return { ...estimate, optedOutNamed };
      },
      permittedReplyTo: async () => {
        const r = await sessions.require().client.permittedReplyTo();
        if (r.outcome !== 'ok')
          throw new ApiError('gateway-unavailable', `permitted ReplyTo not available: ${r.reason}`);
        return r.value;
      },
    },
    outbox: {
      jobs: async (args) => store.outbox.jobs(args ?? {}),
      job: async (id) => store.outbox.job(id),
      batches: async (id) => store.outbox.batches(id),
      recipients: async (id) => store.outbox.recipients(id),
      unknownBatches: async () => store.outbox.unknownBatches(),
      cancel: async (id) => store.outbox.cancelPending(id),
      continue: async (jobId) => {
        const s = sessions.require();
        const job = store.outbox.job(jobId);
        if (!job) throw new ApiError('not-found', `no send ${jobId}`);
        if (job.accountId !== null && job.accountId !== s.account.id)
          throw new ApiError(
            'invalid-state',
            'this send belongs to another account: sign in to it to continue',
          );
        if (job.counts.pending === 0 && !store.outbox.hasPending(jobId))
          throw new ApiError(
            'invalid-state',
            'nothing is left that was never requested; recipients shown as unknown may have received it',
          );
        // Issue 12: a number that opted out after the send was journaled is never requested.
        await deps.optOutsFresh?.(); // issue 28
        const optedOut = store.outbox.skipOptedOutPending(jobId, (list) =>
          store.optOuts.filter(s.account.id, list),
        );
        const now = store.outbox.job(jobId) ?? job;
        // A book's batch journals no message rows: what is left is any pending batch.
        if (store.outbox.hasPending(jobId)) startSending(jobId);
        return { job: now, optedOut };
      },
      resend: async ({ jobId, numbers }) => {
        const s = sessions.require();
        const original = store.outbox.job(jobId);
        if (original && original.accountId !== null && original.accountId !== s.account.id) {
          throw new ApiError(
            'invalid-state',
            `job ${jobId} was sent from another account: sign in to that account to resend it`,
          );
        }
        // A number that opted out since is not sent to again.
        await deps.optOutsFresh?.(); // issue 28
        const { kept, skipped } = store.optOuts.filter(s.account.id, numbers);
        if (kept.length === 0 && skipped.length > 0)
          throw new ApiError(
            'invalid-recipients',
            `every recipient is on the opt-out list (${skipped.length})`,
          );
        const job = store.outbox.resendToRecipients(jobId, kept);
        startSending(job.id);
        return job;
      },
    },
  };

  return {
    api,
    /**
     * At start-up: batches a previous run was sending become unknown (never re-sent by themselves);
     * pending batches of an interrupted send stay pending for the user.
     */
    recoverAfterCrash(): OutboxBatch[] {
      const recovered = store.outbox.recoverAfterCrash();
      if (recovered.length > 0) {
        log(
          `${recovered.length} batch(es) were being sent when the app stopped: now unknown, never re-sent by themselves`,
        );
      }
      return recovered;
    },
    /** Send a journaled job's pending batches (campaigns.ts's resend to failed), after any send under way. */
    start: startSending,
    /** Resolves when no send is under way (the chain as it is now). */
    idle: (): Promise<void> => chain,
    async close(): Promise<void> {
      await chain;
    },
  };
}
