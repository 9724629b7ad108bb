// The inbox: CollectMessages every settings.pollIntervalSeconds while a session exists (again at once
// while a page comes back full; each answer streamed and stored as it is read), back-off
// ×2 per failure up to an hour ('inbox:pollFailed'), pollNow (one poll at a time: a second caller
// shares it); a page that repeats a message of an earlier page (a gateway that keeps collected
// messages, issue 24) ends the poll, with a warning logged once a session and returned by pollNow;
// each message stored once, 'inbox:received' with the unread total. The push receiver (always for
// the sandbox, else by settings.pushReceiver): receipts → 'inbox:receipt', DeliverMessage → stored
// like a poll. Issue 25: whatever is received goes through the reply intake (./reply-intake.ts): on
// disk before it is parsed, each message stored once by its place in its answer; no answer is asked
// for while replies are held (a full disk).
import { CollectRepeats, repeatWarning } from '../client/collect-repeats.ts';
import { newPushPath, PushReceiver } from '../client/push-receiver.ts';
import type { DeliveryReceipt } from '../client/push-receiver.ts';
import type { AppStore } from '../store/app-store.ts';
import { dateTimeMs } from '../../protocol/soap/values.ts';
import { message } from './app-options.ts';
import { createReplyIntake } from './reply-intake.ts';
import type { Emit, Log } from './app-options.ts';
import type { Sandbox } from './sandbox.ts';
import type { Session } from './session.ts';
import { ApiError } from './validate-args.ts';
import type { AccountSummary, MessageRecord, Settings } from '../../domain/index.ts';
import type { Office } from '../office/office.ts';

export const MAX_POLL_BACKOFF_SECONDS = 3600;

/** Most CollectMessages calls one poll makes in a row while pages come back full (then the interval). */
export const MAX_PAGES_PER_POLL = 1000;

export interface InboxPollerDeps {
  store: AppStore;
  sessions: { current(): Session | null; require(): Session };
  settings(): Settings;
  sandbox: { running(): Sandbox | null };
  closing(): boolean;
  emit: Emit;
  log: Log;
  /**
   * New inbound messages of `accountId`, after they are stored and announced (opt-outs,
   * auto-replies; issue 12).
   */
  onReceived?(messages: MessageRecord[], accountId: string): void;
  /** Issue 28: office mode (main/office/): who collects, and each reply shared once. */
  office?: Pick<Office, 'mayCollect' | 'inboundStored' | 'sync' | 'receiptUnmatched'>;
  /** Free bytes needed before an answer is asked for (reply-intake.ts MIN_FREE_BYTES by default). */
  minFreeBytes?: number | undefined;
}

export function createInboxPoller(deps: InboxPollerDeps) {
  const { store, sessions, emit, log } = deps;
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;
  let polling: Promise<{ received: number; warning?: string }> | null = null;
  /** The current session's push receiver. */
  let receiver: PushReceiver | null = null;

  /**
   * The largest page a CollectMessages call returned this session. The client cannot know the
   * gateway's page size (the reference gateway's is 1,000; a provider's may differ): a page at least
   * as large as any before counts as full, and the poller calls again at once.
   */
  let largestPage = 0;

  /** Messages the session's polls already collected (issue 24): a page that repeats one ends a poll. */
  let repeats = new CollectRepeats();
  let repeatsWarned = false;

  /** Ends a page: the warning when it repeated messages of earlier pages (logged once a session). */
  function endPage(calls: number): string | undefined {
    const { repeated } = repeats.endPage();
    if (repeated === 0) return undefined;
    const warning = repeatWarning(repeated, calls);
    if (!repeatsWarned) log(`inbox: ${warning}`);
    repeatsWarned = true;
    return warning;
  }

  /**
   * 'inbox:received' for messages just stored under `accountId`, with its unread total (the badge;
   * issue 25: each account's own) — not when they are another account's than the one signed in now
   * (an answer still arriving after a switch): that Inbox is not shown —, then opt-outs and
   * auto-replies, for `accountId`.
   */
  function announce(stored: MessageRecord[], accountId: string): void {
    if (sessions.current()?.account.id === accountId)
      emit('inbox:received', { messages: stored, unreadTotal: store.conversations.unreadTotal(accountId) });
    try {
      deps.onReceived?.(stored, accountId);
    } catch (err) {
      log(`inbound messages not handled: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const intake = createReplyIntake({
    store,
    emit,
    log,
    announce,
    minFreeBytes: deps.minFreeBytes,
    office: deps.office,
    repeatsAcrossRuns: true, // issue 24: what a gateway that keeps messages returned before, after a restart
  });

  /**
   * One poll: CollectMessages, again at once while the page comes back full (issue 16). Each answer
   * is written to the reply spool as it is read, and stored from there once read (issue 25).
   */
  async function pollOnce(): Promise<{ received: number; warning?: string }> {
    const s = sessions.require();
    let received = 0;
    let warning: string | undefined;
    // issue 28: in office mode only the desk holding the account's collector lease collects
    if (deps.office && !deps.office.mayCollect()) {
      await deps.office.sync(); // what the collecting desk shared, imported now
      schedule(deps.settings().pollIntervalSeconds);
      return { received };
    }
    for (let call = 1; ; call++) {
      if (!intake.ready()) break; // replies held (a full disk): the gateway keeps its messages
      // a message an earlier page of this session returned is not stored again (issue 24)
      const answer = intake.collect(s.account, (page) => repeats.fresh(page));
      let r: Awaited<ReturnType<typeof s.client.collectMessagesStreaming>>;
      try {
        r = await s.client.collectMessagesStreaming(() => {}, undefined, answer.raw);
      } finally {
        received += answer.finish();
      }
      warning = endPage(call);
      if (r.outcome !== 'ok') {
        failures++;
        const retryInSeconds = Math.min(
          deps.settings().pollIntervalSeconds * 2 ** failures,
          MAX_POLL_BACKOFF_SECONDS,
        );
        emit('inbox:pollFailed', { error: r.reason, retryInSeconds });
        schedule(retryInSeconds);
        throw new ApiError('gateway-unavailable', `messages could not be collected: ${r.reason}`);
      }
      failures = 0;
      const full = r.value.count > 0 && r.value.count >= largestPage;
      largestPage = Math.max(largestPage, r.value.count);
      if (!full || warning !== undefined || call >= MAX_PAGES_PER_POLL) break;
      if (deps.closing() || sessions.current() !== s) break;
      if (deps.office && !deps.office.mayCollect()) break; // issue 28: the lease ran out
    }
    // issue 28: a poll ends once what it collected is in the office database (or queued for it)
    if (received > 0) await deps.office?.sync();
    schedule(deps.settings().pollIntervalSeconds);
    return warning !== undefined ? { received, warning } : { received };
  }

  function pollNow(): Promise<{ received: number; warning?: string }> {
    polling ??= pollOnce().finally(() => {
      polling = null;
    });
    return polling;
  }

  function stop(): void {
    if (timer) clearTimeout(timer);
    timer = null;
  }

  function schedule(seconds: number): void {
    stop();
    if (deps.closing() || !sessions.current()) return;
    timer = setTimeout(() => {
      timer = null;
      pollNow().catch((err: unknown) => log(`poll failed: ${message(err)}`));
    }, seconds * 1000);
    timer.unref();
  }

  /**
   * Issue 27 item 6: the receipts the push receiver read in one turn, recorded in one transaction
   * (store.outbox.recordReceipts); then each told: 'inbox:receipt' for a send's message, or (issue
   * 28) a receipt matching none of this desk's sends passed on to the office. Per receipt whether it
   * is stored and passed on: the receiver answers the others with a fault (the gateway pushes again).
   */
  function receiptsTaken(account: AccountSummary, list: readonly DeliveryReceipt[]): boolean[] {
    const inputs = list.map((p) => {
      const at = dateTimeMs(p.Timestamp1); // no zone: UTC
      return {
        messageIdentifier: p.MessageIdentifier ?? '',
        report: String(p.Report),
        ...(Number.isFinite(at) ? { at } : {}),
        ...(p.SentTo !== undefined ? { sentTo: p.SentTo } : {}),
      };
    });
    const recorded = store.outbox.recordReceipts(inputs);
    return recorded.map((r, i) => {
      const { messageIdentifier, report, at } = inputs[i] ?? { messageIdentifier: '', report: '' };
      try {
        if (r instanceof Error) throw r;
        if (r) emit('inbox:receipt', { message: r });
        // issue 28: another desk's send's receipt (the account's one push URL is this desk's): passed on
        else
          deps.office?.receiptUnmatched(account.id, {
            messageIdentifier,
            report,
            ...(at !== undefined ? { at } : {}),
          });
        return true;
      } catch (err) {
        log(`receipt ${messageIdentifier} not taken: ${message(err)}`);
        return false;
      }
    });
  }

  /** The push receiver of an account: automatic for the sandbox, by settings.pushReceiver otherwise. */
  async function startReceiver(account: AccountSummary): Promise<PushReceiver | null> {
    const push = deps.settings().pushReceiver;
    if (!account.sandbox && !push.enabled) return null;
    // The gateway pushes with the account's Username and no PIN (spec 6). Issue 17: the address
    // (port and unguessable path) is chosen once per account and kept, so that the gateway's
    // pushes for an earlier run (receipts retried after a restart) reach this one; the user's
    // port setting wins; a kept port now taken by another program gives way to a new one.
    const kept = store.accounts.pushAddress(account.id);
    const port = push.port !== null && !account.sandbox ? push.port : (kept?.port ?? 0);
    const path = kept?.path ?? newPushPath();
    // Listeners first: the sandbox gateway's thread may push to this address (kept from an earlier
    // session) while its setPushUrl is acknowledged; a push emitted to no listener is lost.
    const wire = (rcv: PushReceiver): PushReceiver => {
      rcv.on('message', (m, token) => intake.pushed(account, token, m));
      rcv.on('refused', (p) => log(`push refused: ${p.reason}`));
      return rcv;
    };
    const spool = intake.pushSpool(account);
    const recordReceipts = (list: readonly DeliveryReceipt[]): boolean[] => receiptsTaken(account, list);
    let r = wire(new PushReceiver({ username: account.username, port, path, spool, recordReceipts }));
    try {
      let url: string;
      try {
        url = await r.listen();
      } catch (err) {
        if (port === 0 || port === push.port || (err as { code?: string }).code !== 'EADDRINUSE') throw err;
        log(`push receiver: port ${port} is taken, choosing another`);
        r = wire(new PushReceiver({ username: account.username, port: 0, path, spool, recordReceipts }));
        url = await r.listen();
      }
      store.accounts.setPushAddress(account.id, { port: Number(new URL(url).port), path });
      const sandbox = deps.sandbox.running();
      // The sandbox gateway runs on its own thread: the session is ready (and sends) only once it
      // has stored the receiver's address, so no receipt of this session is pushed elsewhere.
      if (account.sandbox && sandbox) {
        await sandbox.setPushUrl(url).catch(async (err: unknown) => {
          await r.close();
          throw err;
        });
      }
      log(`push receiver listening at ${url}`);
    } catch (err) {
      log(`push receiver not started: ${message(err)}`);
      return null;
    }
    return r;
  }

  // Receiver starts and stops run one at a time: a sign-out or a second settings change while a
  // receiver is starting must not leave a server listening that nothing closes.
  let receiverChanges: Promise<void> = Promise.resolve();
  function changeReceiver(change: () => Promise<void>): Promise<void> {
    const next = receiverChanges.then(change, change);
    receiverChanges = next.catch((err: unknown) => log(`push receiver change failed: ${message(err)}`));
    return next;
  }

  /** Starts the session's receiver in place of the one running; kept only while `s` is current. */
  function replaceReceiver(s: Session): Promise<void> {
    return changeReceiver(async () => {
      const old = receiver;
      receiver = null;
      await old?.close();
      if (sessions.current() !== s || deps.closing()) return;
      const started = await startReceiver(s.account);
      // Another sign-in or a sign-out may have ended this session while the receiver started.
      if (sessions.current() !== s || deps.closing()) {
        await started?.close();
        return;
      }
      receiver = started;
    });
  }

  return {
    api: { pollNow },
    async sessionReady(s: Session): Promise<void> {
      largestPage = 0;
      repeats = new CollectRepeats();
      repeatsWarned = false;
      // issue 25: replies an earlier run of this account received but did not store (kill -9, a full
      // disk), stored now that the session is here: their opt-outs, auto-replies and office queue
      // are this account's (at start, before any session, none of them could be)
      intake.recover(s.account);
      await replaceReceiver(s);
      if (sessions.current() === s) schedule(deps.settings().pollIntervalSeconds);
    },
    async sessionEnded(): Promise<void> {
      stop();
      await changeReceiver(async () => {
        const r = receiver;
        receiver = null;
        await r?.close();
      });
    },
    /** The push receiver starts, stops or moves port with its setting; polls follow the interval. */
    async settingsChanged(before: Settings, after: Settings): Promise<void> {
      const s = sessions.current();
      if (!s) return;
      if (JSON.stringify(after.pushReceiver) !== JSON.stringify(before.pushReceiver) && !s.account.sandbox) {
        await replaceReceiver(s);
      } else if (after.pollIntervalSeconds !== before.pollIntervalSeconds) {
        schedule(after.pollIntervalSeconds);
      }
    },
    /** Replies held (a full disk), for a window that opens after 'inbox:held' was sent. */
    held: () => intake.state(),
    /** Where the push receiver listens, null when it is off. */
    pushReceiverUrl: (): string | null => receiver?.url ?? null,
    close(): void {
      stop();
    },
  };
}
