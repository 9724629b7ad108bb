// The service facade: one MessengerApi (preload/api.ts) over the app store, a gateway session
// (GatewayClient), the sending loop, the inbox poller, credit and updates. Both shells (Electron
// and main/web.ts) bind exactly what createMessengerApp returns; every call's argument is checked
// at the boundary (validate-args.ts) and every failure is an ApiError with a code.
import { EventEmitter } from 'node:events';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeForm, FORM_CONTENT_TYPE } from '../../protocol/form.ts';
import { normalizeMsisdn } from '../../protocol/msisdn.ts';
import { tidyChildAccount } from '../../protocol/child-account.ts';
import { REPORT } from '../../protocol/reports.ts';
import { GatewayClient, interpretRecords, PATHS } from '../client/gateway-client.ts';
import type { SmsRequest } from '../client/gateway-client.ts';
import { ValidationError } from '../client/results.ts';
import type { RecipientResult as ClientRecipientResult } from '../client/results.ts';
import { PushReceiver } from '../client/push-receiver.ts';
import { openAppStore } from '../store/app-store.ts';
import type { AppStore } from '../store/app-store.ts';
import { ApiError } from './validate-args.ts';
import { bindApi } from './api-binding.ts';
import { checkContent, sendFields } from './send-content.ts';
import { BASIC_TEXT_MESSAGE, MemoryPins, NO_KEYRING_MESSAGE, NO_SECRET_STORE } from '../secrets.ts';
import type { SecretStore } from '../secrets.ts';
import { startSandbox } from './sandbox.ts';
import type { Sandbox } from './sandbox.ts';
import { parseManageResponse } from '../../protocol/responses.ts';
import { describeReport } from '../../protocol/reports.ts';
import { ChildAccountsRepo } from '../store/children.ts';
import { POLL_INTERVAL_RANGE } from '../store/settings.ts';
import { clampPollInterval, loadDeployPolicy, signInRefusal } from './deploy-policy.ts';
import type { LoadPolicyOptions } from './deploy-policy.ts';
import type {
  Balance,
  ChildAccount,
  ChildCreated,
  ChildCreateRequest,
  ChildPermission,
  ChildTransferRequest,
  ChildTransferResult,
  EffectivePolicy,
} from '../../preload/api.ts';
import { gatewayLibrary, libraryKindOf, LibraryNumbersRepo, mergeLibrary } from './library.ts';
import { createUpdater, gatewayHostOf } from './updates.ts';
import type { UpdatePolicy } from './updates.ts';
import type {
  AccountSummary,
  Credit,
  MessageRecord,
  MessengerApi,
  MessengerEvents,
  EventChannel,
  OutboxBatch,
  OutboxContent,
  RecipientResult,
  SendRequest,
  Settings,
  SignInRequest,
} from '../../preload/api.ts';

export { ApiError };

export interface MessengerAppOptions {
  dataDir: string;
  /** Sign in to the local sandbox at start (npm run web -- --sandbox). */
  sandbox?: boolean;
  /** The Electron shell's safeStorage; none outside Electron (PIN in memory only). */
  secrets?: SecretStore;
  /** Environment for MESSENGER_PIN (default process.env). */
  env?: Record<string, string | undefined>;
  /** Receipt delay of the sandbox gateway, ms (tests). */
  sandboxReceiptDelayMs?: number;
  log?: (message: string) => void;
  /**
   * The deploy policy: an effective policy as is, or where to read it (tests). Default: the system
   * location, then MESSENGER_POLICY of `env` (main/services/deploy-policy.ts).
   */
  policy?: EffectivePolicy | LoadPolicyOptions;
  /**
   * Update checks and downloads in place of the deploy policy's `updates` part (tests); by default
   * the policy decides (docs/ADMIN.md "Updates"; without a policy: enabled, stable).
   */
  updates?: UpdatePolicy;
  /** Where update downloads go: the Electron shell passes app.getPath('downloads'); default ~/Downloads. */
  downloadsDir?: string;
  /** Opens a downloaded file or shows it in its folder (Electron's shell); absent in the web shell. */
  openPath?: (path: string, how: 'open' | 'reveal') => Promise<void>;
  /** An extra CA (PEM) trusted for update downloads only in place of the system's (tests). */
  updateDownloadCa?: string;
  /** The preferences the Electron shell opened over electron-store; by default conf's file in dataDir. */
  preferences?: AppStore['preferences'];
}

export interface MessengerEventsHub {
  on<E extends EventChannel>(event: E, listener: (payload: MessengerEvents[E]) => void): () => void;
}

export interface MessengerApp {
  api: MessengerApi;
  events: MessengerEventsHub;
  /** The shells' generic binding: validates `arg` for `channel` and calls it. */
  call(channel: unknown, arg?: unknown): Promise<unknown>;
  /** Where the push receiver listens (to configure at a gateway), null when it is off. */
  pushReceiverUrl(): string | null;
  close(): Promise<void>;
}

interface Session {
  account: AccountSummary;
  pin: string;
  client: GatewayClient;
  receiver: PushReceiver | null;
  /** The definite answer of the manageaccount permission probe, asked once per sign-in. */
  permission?: ChildPermission;
  /** The probe under way: callers at the same time share it (one request). */
  permissionAsking?: Promise<ChildPermission> | undefined;
}

/** Report codes after which the rest of a send is not requested (the client's stop codes). */
const STOP_CODES: ReadonlySet<string> = new Set([
  REPORT.invalidLogin,
  REPORT.invalidLoginQuery,
  REPORT.outOfCredit,
]);
const MAX_POLL_BACKOFF_SECONDS = 3600;
const SANDBOX_REFUSED = 'the deploy policy of this computer does not offer the local sandbox';

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function createMessengerApp(opts: MessengerAppOptions): Promise<MessengerApp> {
  mkdirSync(opts.dataDir, { recursive: true });
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const env = opts.env ?? process.env;
  const secrets = opts.secrets ?? NO_SECRET_STORE;
  const store: AppStore = openAppStore(join(opts.dataDir, 'messenger.sqlite'), {
    defaultCountry: 'GB',
    preferences: opts.preferences,
  });
  const libraryNumbers = new LibraryNumbersRepo(store.app);
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  const emit = <E extends EventChannel>(event: E, payload: MessengerEvents[E]): void => {
    emitter.emit(event, payload);
  };
  const pins = new MemoryPins();
  let session: Session | null = null;
  let sandbox: Sandbox | null = null;
  let credit: Credit | null = null;
  let closing = false;
  let sendChain: Promise<void> = Promise.resolve();
  const clientCloses: Array<Promise<void>> = [];
  let pollTimer: NodeJS.Timeout | null = null;
  let pollFailures = 0;
  let polling: Promise<{ received: number }> | null = null;
  const version = packageVersion();

  const policy: EffectivePolicy =
    opts.policy !== undefined && 'offerSandbox' in opts.policy
      ? opts.policy
      : loadDeployPolicy({ env, ...opts.policy });
  if (policy.error) {
    log(
      `deploy policy ${policy.error.path} not applied, safe defaults in force: ${policy.error.problems.join('; ')}`,
    );
  }
  const children = new ChildAccountsRepo(store.app);
  const settings = (): Settings => {
    const s = store.settings.get();
    return { ...s, pollIntervalSeconds: clampPollInterval(policy, s.pollIntervalSeconds) };
  };
  const country = (): string | undefined => settings().defaultCountry || undefined;

  // ------------------------------------------------------------------ sessions

  async function ensureSandbox(): Promise<Sandbox> {
    sandbox ??= await startSandbox({
      dir: join(opts.dataDir, 'sandbox-gateway'),
      ...(opts.sandboxReceiptDelayMs !== undefined ? { receiptDelayMs: opts.sandboxReceiptDelayMs } : {}),
    });
    return sandbox;
  }

  /** Ends the session; `next` is the account signing in next (the same one: the PIN changed). */
  async function endSession(next?: AccountSummary): Promise<void> {
    const s = session;
    session = null;
    stopPolling();
    if (!s) return;
    await s.receiver?.close();
    // What the update check found belongs to this account's gateway (updates.ts).
    const same =
      next !== undefined &&
      next.id === s.account.id &&
      next.primaryUrl === s.account.primaryUrl &&
      next.secondaryUrl === s.account.secondaryUrl;
    if (!same) await updater.sessionEnded();
    // A request of the sending loop may be under way with this client: it finishes (the loop stops
    // after it, seeing no session) before the client closes, so the batch is not made unknown.
    clientCloses.push(sendChain.finally(() => s.client.close()).catch(() => undefined));
  }

  /** The push receiver of an account: automatic for the sandbox, by settings.pushReceiver otherwise. */
  async function startReceiver(account: AccountSummary): Promise<PushReceiver | null> {
    const push = settings().pushReceiver;
    if (!account.sandbox && !push.enabled) return null;
    // The gateway pushes with the account's Username and no PIN (spec 6).
    const receiver = new PushReceiver({
      username: account.username,
      ...(push.port !== null && !account.sandbox ? { port: push.port } : {}),
    });
    try {
      const url = await receiver.listen();
      if (account.sandbox && sandbox) sandbox.setPushUrl(url);
      log(`push receiver listening at ${url}`);
    } catch (err) {
      log(`push receiver not started: ${message(err)}`);
      return null;
    }
    receiver.on('receipt', (r) => {
      const at = Date.parse(r.Timestamp1);
      const updated = store.outbox.recordReceipt({
        messageIdentifier: r.MessageIdentifier ?? '',
        report: String(r.Report),
        ...(Number.isFinite(at) ? { at } : {}),
        ...(r.SentTo !== undefined ? { sentTo: r.SentTo } : {}),
      });
      if (updated) emit('inbox:receipt', { message: updated });
    });
    receiver.on('message', (m) => {
      const stored = storeInbound([
        {
          from: m.ReplyTo ?? '',
          to: m.Recipient?.SendTo ?? '',
          text: m.Message?.TextMessage ?? m.Message?.FlashMessage ?? '',
          timestamp: m.Timestamp1 ?? new Date().toISOString(),
        },
      ]);
      if (stored.length > 0)
        emit('inbox:received', { messages: stored, unreadTotal: store.conversations.unreadTotal() });
    });
    receiver.on('refused', (r) => log(`push refused: ${r.reason}`));
    return receiver;
  }

  async function openSession(account: AccountSummary, pin: string): Promise<Session> {
    await endSession(account);
    const client = new GatewayClient({
      primaryUrl: account.primaryUrl,
      ...(account.secondaryUrl !== null ? { secondaryUrl: account.secondaryUrl } : {}),
      username: account.username,
      pin,
      defaultCountry: country(),
    });
    session = { account, pin, client, receiver: await startReceiver(account) };
    schedulePoll(settings().pollIntervalSeconds);
    updater.sessionReady();
    return session;
  }

  function requireSession(): Session {
    if (session) return session;
    const current = store.accounts.current();
    if (current) {
      throw new ApiError(
        'pin-required',
        `signed in as ${current.username}, but ${current.pinStored ? 'the stored PIN could not be read' : NO_KEYRING_MESSAGE}`,
      );
    }
    throw new ApiError('not-signed-in', 'sign in to a gateway account or choose the local sandbox first');
  }

  async function signInSandbox(): Promise<AccountSummary> {
    const sb = await ensureSandbox();
    const existing = store.accounts.list().find((a) => a.sandbox && a.username === sb.username);
    if (existing && existing.primaryUrl !== sb.url) {
      // The sandbox listens on a new port after a restart when the old one was taken.
      store.app.db
        .prepare('UPDATE accounts SET primary_url = ?, updated_at = ? WHERE id = ?')
        .run(sb.url, Date.now(), existing.id);
    }
    const account =
      store.accounts.get(existing?.id ?? '') ??
      store.accounts.save({
        label: 'Local sandbox',
        username: sb.username,
        primaryUrl: sb.url,
        sandbox: true,
      });
    store.accounts.setCurrent(account.id);
    pins.set(account.id, sb.pin);
    await openSession(account, sb.pin);
    return account;
  }

  async function signIn(req: SignInRequest): Promise<AccountSummary> {
    if (req.sandbox === true) {
      if (!policy.offerSandbox) throw new ApiError('policy', SANDBOX_REFUSED);
      return finishSignIn(await signInSandbox());
    }
    const refusal = signInRefusal(policy, req);
    if (refusal !== null) throw new ApiError('policy', refusal);
    if (policy.gateway.locked && policy.gateway.primaryUrl !== null) {
      // Locked: the policy's URLs, whatever the form sent (a secondary only from the policy).
      req = {
        ...req,
        primaryUrl: policy.gateway.primaryUrl,
        ...(policy.gateway.secondaryUrl !== null ? { secondaryUrl: policy.gateway.secondaryUrl } : {}),
      };
      if (policy.gateway.secondaryUrl === null) delete req.secondaryUrl;
    }
    if (req.pin === '') throw new ApiError('bad-argument', 'the PIN is empty');
    if (req.rememberPin && secrets.backend === 'none') {
      throw new ApiError(
        'no-keyring',
        secrets === NO_SECRET_STORE
          ? NO_KEYRING_MESSAGE
          : 'the PIN cannot be stored: the operating system offers no encryption for saved secrets right now; sign in without remembering it to keep it in memory for this run only',
      );
    }
    if (req.rememberPin && secrets.backend === 'basic_text' && req.acceptPlainTextStorage !== true) {
      throw new ApiError('basic-text-keyring', BASIC_TEXT_MESSAGE);
    }
    // Check the credentials with a harmless query before saving anything.
    const probe = new GatewayClient({
      primaryUrl: req.primaryUrl,
      ...(req.secondaryUrl !== undefined && req.secondaryUrl !== ''
        ? { secondaryUrl: req.secondaryUrl }
        : {}),
      username: req.username,
      pin: req.pin,
    });
    try {
      const r = await probe.availableCredit();
      if (r.outcome === 'rejected')
        throw new ApiError('invalid-login', `the gateway refused the sign-in: ${r.reason}`);
      if (r.outcome !== 'ok')
        throw new ApiError('gateway-unavailable', `the gateway could not be reached: ${r.reason}`);
    } catch (err) {
      if (err instanceof ValidationError) throw new ApiError('invalid-request', err.message, err.problems);
      throw err;
    } finally {
      await probe.close();
    }
    const account = store.accounts.save({
      username: req.username,
      primaryUrl: req.primaryUrl,
      secondaryUrl: req.secondaryUrl ?? null,
      ...(req.label !== undefined ? { label: req.label } : {}),
    });
    store.accounts.setCurrent(account.id);
    pins.set(account.id, req.pin);
    store.accounts.storeEncryptedPin(account.id, req.rememberPin ? await secrets.encrypt(req.pin) : null);
    const saved = store.accounts.get(account.id) ?? account;
    await openSession(saved, req.pin);
    return finishSignIn(saved);
  }

  function finishSignIn(account: AccountSummary): AccountSummary {
    emit('accounts:changed', { current: account });
    void refreshCredit().catch((err: unknown) => log(`credit not fetched: ${message(err)}`));
    return account;
  }

  /** At start: the current account's session, with the PIN from this run, the keyring or MESSENGER_PIN. */
  async function resumeSession(): Promise<void> {
    const current = store.accounts.current();
    if (!current) return;
    const refusal = current.sandbox
      ? policy.offerSandbox
        ? null
        : SANDBOX_REFUSED
      : signInRefusal(policy, current);
    if (refusal !== null) {
      // The policy changed since this account signed in: signed out, the user signs in again.
      store.accounts.setCurrent(null);
      log(`signed out of ${current.username}: ${refusal}`);
      return;
    }
    if (current.sandbox) {
      finishSignIn(await signInSandbox());
      return;
    }
    let pin = pins.get(current.id);
    const encrypted = store.accounts.encryptedPin(current.id);
    if (pin === undefined && encrypted !== null && secrets.backend !== 'none') {
      try {
        pin = await secrets.decrypt(encrypted);
      } catch (err) {
        log(`stored PIN not readable: ${message(err)}`);
      }
    }
    pin ??= env.MESSENGER_PIN;
    if (pin === undefined || pin === '') {
      log(`signed in as ${current.username}, but no PIN: ${NO_KEYRING_MESSAGE}`);
      return;
    }
    pins.set(current.id, pin);
    await openSession(current, pin);
    void refreshCredit().catch((err: unknown) => log(`credit not fetched: ${message(err)}`));
  }

  // ------------------------------------------------------------------ sending loop

  function toJournalResult(r: ClientRecipientResult): RecipientResult {
    return {
      to: r.number,
      ...(r.messageIdentifier !== undefined ? { messageIdentifier: r.messageIdentifier } : {}),
      ...(r.report !== undefined ? { report: r.report } : {}),
      text: r.text,
      ...(r.status === 'not-sent' ? { notSent: true } : {}),
    };
  }

  /** One journal batch = one request. Returns the whole-account stop reason, if any. */
  async function sendBatch(s: Session, batch: OutboxBatch, content: OutboxContent): Promise<string | null> {
    if (content.kind === 'text' || content.kind === 'flash') {
      const req: SmsRequest = {
        to: batch.recipients,
        recipientsNormalized: true,
        text: content.text,
        flash: content.kind === 'flash',
        ...(content.replyTo !== undefined && content.replyTo !== '' ? { replyTo: content.replyTo } : {}),
        ...(content.deliveryOption !== undefined ? { deliveryOption: content.deliveryOption } : {}),
        ...(content.sendTimeDelay !== undefined ? { sendTimeDelay: content.sendTimeDelay } : {}),
        ...(content.sendTimeAbsolute !== undefined ? { sendTimeAbsolute: content.sendTimeAbsolute } : {}),
      };
      const sent = await s.client.sendSms(req);
      store.outbox.recordResults(batch.id, sent.recipients.map(toJournalResult));
      return sent.error?.code !== undefined && STOP_CODES.has(sent.error.code) ? sent.error.message : null;
    }
    // Rich content: OutboxContent.fields go to sendmms as they are (validated in checkContent).
    const res = await s.client.transport.post({
      path: PATHS.sendmms,
      body: encodeForm(
        sendFields({ username: s.account.username, pin: s.pin }, content, batch.recipients.join(',')),
      ),
      contentType: FORM_CONTENT_TYPE,
    });
    if (res.kind === 'unsent') {
      store.outbox.recordResults(
        batch.id,
        batch.recipients.map((to) => ({ to, notSent: true, text: res.reason })),
      );
      return null;
    }
    if (res.kind === 'unknown' || res.status !== 200) {
      store.outbox.markUnknown(
        batch.id,
        res.kind === 'unknown' ? res.reason : `the gateway answered HTTP ${res.status}`,
      );
      return null;
    }
    const interpreted = interpretRecords(res.body, batch.recipients);
    store.outbox.recordResults(batch.id, interpreted.results.map(toJournalResult));
    const libraryKind = libraryKindOf(content.kind);
    if (interpreted.libraryNumber !== undefined && libraryKind !== null) {
      // The gateway stored an upload under this number: the media picker offers it again.
      const f = content.fields ?? {};
      const name = f.MMSNotificationFileName1 ?? f.WAPPushFileName1 ?? '';
      libraryNumbers.record(s.account.id, Number(interpreted.libraryNumber), libraryKind, name);
    }
    return interpreted.stop ? (interpreted.error?.message ?? 'the gateway refused the account') : null;
  }

  async function drive(jobId: number): Promise<void> {
    const job = store.outbox.job(jobId);
    if (!job) return;
    while (!closing && session) {
      const s = session;
      const batch = store.outbox.claimNext(jobId);
      if (!batch) break;
      let stop: string | null = null;
      try {
        stop = await sendBatch(s, batch, job.content);
      } catch (err) {
        // It may have reached the gateway: unknown, never re-sent by itself.
        try {
          store.outbox.markUnknown(batch.id, message(err));
        } catch (inner) {
          log(`batch ${batch.id} not marked unknown: ${message(inner)}`);
        }
      }
      if (closing) return;
      const updated = store.outbox.batch(batch.id) ?? batch;
      const nowJob = store.outbox.job(jobId) ?? job;
      emit('outbox:progress', {
        jobId,
        batch: updated,
        outcomes: store.outbox.recipientsOfBatch(batch.id),
        job: nowJob,
      });
      if (stop !== null) {
        const cancelled = store.outbox.cancelPending(jobId, `not sent: ${stop}`);
        for (const b of cancelled) {
          emit('outbox:progress', {
            jobId,
            batch: b,
            outcomes: store.outbox.recipientsOfBatch(b.id),
            job: store.outbox.job(jobId) ?? nowJob,
          });
        }
        break;
      }
    }
    if (!closing && session)
      await refreshCredit().catch((err: unknown) => log(`credit not refreshed: ${message(err)}`));
  }

  function startSending(jobId: number): void {
    sendChain = sendChain
      .then(() => drive(jobId))
      .catch((err: unknown) => log(`send of job ${jobId} failed: ${message(err)}`));
  }

  async function submit(req: SendRequest): Promise<{
    job: ReturnType<typeof store.outbox.createJob>;
    invalid: Array<{ input: string; reason: string }>;
  }> {
    const s = requireSession();
    checkContent(req.content);
    const c = country();
    const numbers: string[] = [];
    const invalid: Array<{ input: string; reason: string }> = [];
    for (const input of req.recipients) {
      const n = normalizeMsisdn(input, c);
      if (n.ok) numbers.push(n.msisdn);
      else invalid.push({ input, reason: n.reason });
    }
    for (const id of req.contactIds ?? []) {
      const contact = store.contacts.get(id);
      if (contact) numbers.push(contact.number);
      else invalid.push({ input: `contact ${id}`, reason: 'no such contact' });
    }
    for (const id of req.groupIds ?? []) {
      if (!store.groups.get(id)) invalid.push({ input: `group ${id}`, reason: 'no such group' });
      else for (const m of store.groups.members(id)) numbers.push(m.number);
    }
    if (numbers.length === 0) {
      throw new ApiError(
        'invalid-recipients',
        invalid.length === 0 ? 'no recipients' : `no valid recipient; ${invalid.length} invalid`,
        invalid,
      );
    }
    // Journaled BEFORE the first request (the journal de-duplicates).
    const job = store.outbox.createJob(numbers, req.content, {
      accountId: s.account.id,
      ...(c ? { defaultCountry: c } : {}),
    });
    startSending(job.id);
    return { job, invalid };
  }

  // ------------------------------------------------------------------ inbox

  function storeInbound(
    items: Array<{ from: string; to: string; text: string; timestamp: string }>,
  ): MessageRecord[] {
    const stored: MessageRecord[] = [];
    for (const m of items) {
      if (m.from.trim() === '') continue;
      const r = store.conversations.storeInbound(m);
      if (r.stored) stored.push(r.message);
    }
    return stored;
  }

  async function pollOnce(): Promise<{ received: number }> {
    const s = requireSession();
    const r = await s.client.collectMessages();
    if (r.outcome !== 'ok') {
      pollFailures++;
      const retryInSeconds = Math.min(
        settings().pollIntervalSeconds * 2 ** pollFailures,
        MAX_POLL_BACKOFF_SECONDS,
      );
      emit('inbox:pollFailed', { error: r.reason, retryInSeconds });
      schedulePoll(retryInSeconds);
      throw new ApiError('gateway-unavailable', `messages could not be collected: ${r.reason}`);
    }
    pollFailures = 0;
    const list = r.value.MessageList?.item ?? [];
    const items = Array.isArray(list) ? list : [list];
    const stored = storeInbound(
      items.map((m) => ({
        from: m.ReplyTo,
        to: m.SendTo,
        text: m.Message?.TextMessage ?? m.Message?.FlashMessage ?? '',
        timestamp: m.Timestamp1,
      })),
    );
    if (stored.length > 0)
      emit('inbox:received', { messages: stored, unreadTotal: store.conversations.unreadTotal() });
    schedulePoll(settings().pollIntervalSeconds);
    return { received: stored.length };
  }

  function pollNow(): Promise<{ received: number }> {
    // One CollectMessages at a time: a second caller shares the one under way.
    polling ??= pollOnce().finally(() => {
      polling = null;
    });
    return polling;
  }

  function stopPolling(): void {
    if (pollTimer) clearTimeout(pollTimer);
    pollTimer = null;
  }

  function schedulePoll(seconds: number): void {
    stopPolling();
    if (closing || !session) return;
    pollTimer = setTimeout(() => {
      pollTimer = null;
      pollNow().catch((err: unknown) => log(`poll failed: ${message(err)}`));
    }, seconds * 1000);
    pollTimer.unref();
  }

  // ------------------------------------------------------------------ credit, updates

  async function refreshCredit(): Promise<Credit> {
    const s = requireSession();
    const [c, m] = await Promise.all([s.client.availableCredit(), s.client.availableMessages()]);
    if (c.outcome !== 'ok') {
      throw new ApiError(
        c.outcome === 'rejected' ? 'gateway-refused' : 'gateway-unavailable',
        `credit not available: ${c.reason}`,
      );
    }
    credit = {
      currency: c.value.currency,
      credit: c.value.credit,
      availableMessages: m.outcome === 'ok' ? String(m.value) : null,
      fetchedAt: Date.now(),
      low: Number(c.value.credit) < settings().lowCreditThreshold,
    };
    emit('credit:changed', credit);
    return credit;
  }

  // On start (once a session exists) and every 24 h, policy permitting (./updates.ts).
  const { enabled, channel, allowedDownloadHosts } = policy.updates;
  const updater = createUpdater({
    policy: opts.updates ?? { enabled, channel, ...(allowedDownloadHosts ? { allowedDownloadHosts } : {}) },
    currentVersion: version,
    ...(opts.downloadsDir !== undefined ? { downloadsDir: opts.downloadsDir } : {}),
    ...(opts.openPath ? { openPath: opts.openPath } : {}),
    ...(opts.updateDownloadCa !== undefined ? { ca: opts.updateDownloadCa } : {}),
    fetchRelease: () => {
      if (!session) return null;
      return session.client.mobileMessengerVersion().then((r) => {
        if (r.outcome !== 'ok')
          throw new ApiError('gateway-unavailable', `no version information: ${r.reason}`);
        return {
          version: r.value.Version,
          releaseNotice: r.value.ReleaseNotice,
          downloadUrl: r.value.DownloadURL,
          releaseDate: r.value.ReleaseDate,
        };
      });
    },
    gatewayHosts: () =>
      [session?.account.primaryUrl, session?.account.secondaryUrl]
        .map(gatewayHostOf)
        .filter((h): h is string => h !== null),
    emit,
    log,
  });

  // ------------------------------------------------------------------ child accounts (spec 4.4)

  /**
   * Whether the account may use manageaccount, asked once per sign-in with a request that names no
   * operation: the gateway checks the login and the restricted-service permission before the
   * request's operation, so the reference gateway answers "not permitted" (7) or "invalid login"
   * (2, −1) without the permission and its "no operation" syntax error (REPORT.syntaxError) with it,
   * and nothing is created, deleted or moved either way. Only those answers are definite and kept for
   * the session (never asked again: the spec forbids retrying after an error code). Any other answer
   * (another code, an unreadable body) and a request that could not be made (no connection) are not
   * known: not permitted for now, with the reason, and asked again on the next call.
   */
  async function childPermission(): Promise<ChildPermission> {
    const s = requireSession();
    if (s.permission) return s.permission;
    s.permissionAsking ??= askPermission(s).finally(() => {
      s.permissionAsking = undefined;
    });
    return s.permissionAsking;
  }

  async function askPermission(s: Session): Promise<ChildPermission> {
    const unknown = (why: string): ChildPermission => ({
      permitted: false,
      reason: `account management could not be checked: ${why}`,
      definite: false,
    });
    const res = await s.client.transport.post({
      path: PATHS.manageaccount,
      body: encodeForm({ Username: s.account.username, PIN: s.pin }),
      contentType: FORM_CONTENT_TYPE,
    });
    if (res.kind !== 'response' || res.status !== 200)
      return unknown(res.kind === 'response' ? `the gateway answered HTTP ${res.status}` : res.reason);
    let report: string;
    let text: string | undefined;
    try {
      ({ report, text } = parseManageResponse(res.body));
    } catch (err) {
      return unknown(message(err));
    }
    const refused: ReadonlySet<string> = new Set([
      REPORT.notPermitted,
      REPORT.invalidLogin,
      REPORT.invalidLoginQuery,
    ]);
    let answer: ChildPermission;
    if (report === REPORT.syntaxError) answer = { permitted: true, reason: null, definite: true };
    else if (refused.has(report))
      answer = {
        permitted: false,
        reason: `${s.account.username} may not manage child accounts: ${describeReport(report, text)}`,
        definite: true,
      };
    else return unknown(`the gateway answered ${describeReport(report, text)}`);
    if (session === s) s.permission = answer;
    return answer;
  }

  async function requirePermission(): Promise<Session> {
    const p = await childPermission();
    if (!p.permitted)
      throw new ApiError(
        p.definite ? 'not-permitted' : 'permission-unknown',
        p.reason ?? 'account management is not permitted',
      );
    return requireSession();
  }

  /** A refused, unknown or unsent manageaccount answer as an API error. */
  function manageError(what: string, r: { outcome: string; reason: string; code?: string }): ApiError {
    if (r.outcome === 'rejected') return new ApiError('gateway-refused', `${what}: ${r.reason}`);
    if (r.outcome === 'unsent') return new ApiError('gateway-unavailable', `${what}: ${r.reason}`);
    return new ApiError(
      'outcome-unknown',
      `${what}: the request may or may not have reached the gateway (${r.reason}); it is not sent again — check with the gateway before repeating it`,
    );
  }

  function clientFor(s: Session, username: string, pin: string): GatewayClient {
    return new GatewayClient({
      primaryUrl: s.account.primaryUrl,
      ...(s.account.secondaryUrl !== null ? { secondaryUrl: s.account.secondaryUrl } : {}),
      username,
      pin,
    });
  }

  async function readBalance(client: GatewayClient, who: string): Promise<Balance> {
    const [c, m] = await Promise.all([client.availableCredit(), client.availableMessages()]);
    if (c.outcome !== 'ok') {
      throw new ApiError(
        c.outcome === 'rejected' ? 'gateway-refused' : 'gateway-unavailable',
        `the balance of ${who} is not available: ${c.reason}`,
      );
    }
    return {
      currency: c.value.currency,
      credit: c.value.credit,
      availableMessages: m.outcome === 'ok' ? String(m.value) : null,
    };
  }

  async function createChild(req: ChildCreateRequest): Promise<ChildCreated> {
    const s = await requirePermission();
    const { request } = tidyChildAccount(req, country());
    const r = await s.client.createChildAccount(request);
    if (r.outcome !== 'ok') throw manageError('the child account was not created', r);
    const child: ChildAccount = {
      username: r.value.username,
      type: request.type,
      email: request.email,
      telephoneCountryCode: request.telephoneCountryCode,
      mobileNumber: request.mobileNumber,
      givenName: request.givenName ?? null,
      familyName: request.familyName ?? null,
      companyName: request.companyName ?? null,
      createdAt: Date.now(),
    };
    children.add(s.account.id, child);
    return { child, pin: r.value.pin };
  }

  async function deleteChild(username: string): Promise<void> {
    const s = await requirePermission();
    const r = await s.client.deleteChildAccount(username);
    if (r.outcome !== 'ok') throw manageError(`${username} was not deleted`, r);
    children.remove(s.account.id, username);
    // A TRANSFER child's remaining credit goes back to the parent.
    await refreshCredit().catch((err: unknown) => log(`credit not refreshed: ${message(err)}`));
  }

  async function transferChild(req: ChildTransferRequest): Promise<ChildTransferResult> {
    const s = await requirePermission();
    if ((req.amount === undefined) === (req.messages === undefined)) {
      throw new ApiError('bad-argument', 'give either an amount in GBP or a number of messages, not both');
    }
    if (req.amount !== undefined && !(Number(req.amount) > 0)) {
      throw new ApiError(
        'bad-argument',
        `the amount must be more than 0 GBP (${JSON.stringify(req.amount)})`,
      );
    }
    const amount =
      req.amount !== undefined ? { currency: req.amount.trim() } : { messages: req.messages ?? 0 };
    const pin = req.childPin !== undefined && req.childPin !== '' ? req.childPin : null;
    const username = req.username.trim();
    const what =
      req.direction === 'toChild'
        ? `the transfer to ${username} was refused`
        : `the transfer from ${username} was refused`;
    if (req.direction === 'toChild') {
      const r = await s.client.transferFunds(username, amount);
      if (r.outcome !== 'ok') throw manageError(what, r);
    } else {
      // The paying account signs a transfer (spec 4.4): the child, with the PIN the user gives.
      if (pin === null) {
        throw new ApiError(
          'bad-argument',
          `the PIN of ${username} is needed to move funds from it to ${s.account.username}: the paying account signs the transfer`,
        );
      }
      const child = clientFor(s, username, pin);
      try {
        const r = await child.transferFunds(s.account.username, amount);
        if (
          r.outcome === 'rejected' &&
          (r.code === REPORT.invalidLogin || r.code === REPORT.invalidLoginQuery)
        ) {
          throw new ApiError('gateway-refused', `${what}: ${r.reason} — check the PIN of ${username}`);
        }
        if (r.outcome !== 'ok') throw manageError(what, r);
      } finally {
        await child.close();
      }
    }
    const parent = await refreshCredit();
    let childBalance: Balance | null = null;
    if (pin !== null) {
      const c = clientFor(s, username, pin);
      try {
        childBalance = await readBalance(c, username);
      } catch (err) {
        log(`balance of ${username} not read: ${message(err)}`);
      } finally {
        await c.close();
      }
    }
    return { parent, child: childBalance };
  }

  async function childBalance({ username, pin }: { username: string; pin: string }): Promise<Balance> {
    const c = clientFor(requireSession(), username.trim(), pin);
    try {
      return await readBalance(c, username.trim());
    } finally {
      await c.close();
    }
  }

  // ------------------------------------------------------------------ the API

  const impl: MessengerApi = {
    accounts: {
      list: async () => store.accounts.list(),
      current: async () => store.accounts.current(),
      signIn,
      signOut: async () => {
        const current = store.accounts.current();
        if (current) pins.delete(current.id);
        store.accounts.setCurrent(null);
        await endSession();
        credit = null;
        emit('accounts:changed', { current: null });
      },
      changePin: async ({ oldPin, newPin }) => {
        // The gateway has no PIN-change operation (spec 4.4): the PIN is changed with the provider;
        // here the app learns the new one, checked against the gateway before it replaces the old.
        const s = requireSession();
        if (oldPin !== s.pin) throw new ApiError('invalid-login', 'the old PIN is not the one in use');
        const probe = new GatewayClient({
          primaryUrl: s.account.primaryUrl,
          ...(s.account.secondaryUrl !== null ? { secondaryUrl: s.account.secondaryUrl } : {}),
          username: s.account.username,
          pin: newPin,
        });
        try {
          const r = await probe.availableCredit();
          if (r.outcome !== 'ok')
            throw new ApiError('invalid-login', `the gateway does not take the new PIN: ${r.reason}`);
        } finally {
          await probe.close();
        }
        pins.set(s.account.id, newPin);
        if (s.account.pinStored)
          store.accounts.storeEncryptedPin(s.account.id, await secrets.encrypt(newPin));
        await openSession(s.account, newPin);
      },
    },
    send: {
      submit,
      permittedReplyTo: async () => {
        const r = await requireSession().client.permittedReplyTo();
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
      resend: async ({ jobId, numbers }) => {
        requireSession();
        const job = store.outbox.resendToRecipients(jobId, numbers);
        startSending(job.id);
        return job;
      },
    },
    inbox: {
      conversations: async (args) => store.conversations.list(args ?? {}),
      thread: async (args) => store.conversations.thread(args),
      markRead: async (id) => store.conversations.markRead(id),
      markUnread: async (id) => store.conversations.markUnread(id),
      delete: async (id) => store.conversations.delete(id),
      exportCsv: async (id) => store.conversations.exportCsv(id),
      unreadTotal: async () => store.conversations.unreadTotal(),
      pollNow,
      search: async ({ query, limit }) => store.search.search(query, limit !== undefined ? { limit } : {}),
    },
    history: {
      messages: async (args) => store.conversations.history(args ?? {}),
    },
    contacts: {
      list: async () => store.contacts.list(),
      get: async (id) => store.contacts.get(id),
      add: async (input) =>
        store.contacts.add(input, { ...(country() ? { defaultCountry: country() } : {}) }),
      edit: async ({ id, changes }) =>
        store.contacts.edit(id, changes, { ...(country() ? { defaultCountry: country() } : {}) }),
      delete: async (id) => store.contacts.delete(id),
      findDuplicates: async (n) => store.contacts.findDuplicates(n, country()),
      importCsv: async ({ csv, mapping, options }) =>
        store.contacts.importCsv(csv, mapping, {
          ...(country() ? { defaultCountry: country() } : {}),
          ...options,
        }),
      importVcard: async ({ text, options }) =>
        store.contacts.importVcard(text, { ...(country() ? { defaultCountry: country() } : {}), ...options }),
      exportCsv: async () => store.contacts.exportCsv(),
    },
    groups: {
      list: async () => store.groups.list(),
      create: async (name) => store.groups.create(name),
      rename: async ({ id, name }) => store.groups.rename(id, name),
      delete: async (id) => store.groups.delete(id),
      addMembers: async ({ id, contactIds }) => store.groups.addMembers(id, contactIds),
      removeMembers: async ({ id, contactIds }) => store.groups.removeMembers(id, contactIds),
      members: async (id) => store.groups.members(id),
    },
    templates: {
      list: async () => store.templates.list(),
      create: async (args) => store.templates.create(args),
      update: async ({ id, ...changes }) => store.templates.update(id, changes),
      delete: async (id) => store.templates.delete(id),
    },
    credit: {
      get: async () => credit,
      refresh: refreshCredit,
    },
    updates: updater.api,
    library: {
      list: async () => {
        const s = requireSession();
        const seen = libraryNumbers.list(s.account.id);
        if (s.account.sandbox && sandbox)
          return mergeLibrary(gatewayLibrary(sandbox.gateway.ctx.db, s.account.username), seen);
        return seen;
      },
    },
    settings: {
      get: async () => settings(),
      update: async (changes) => {
        const before = settings();
        // A valid interval outside the deploy policy's bounds is stored clamped; an invalid one
        // is refused by the settings store as without a policy.
        const poll = changes.pollIntervalSeconds;
        const valid =
          Number.isInteger(poll) &&
          (poll as number) >= POLL_INTERVAL_RANGE[0] &&
          (poll as number) <= POLL_INTERVAL_RANGE[1];
        store.settings.update(
          valid ? { ...changes, pollIntervalSeconds: clampPollInterval(policy, poll as number) } : changes,
        );
        const after = settings();
        emit('settings:changed', after);
        const s = session;
        if (
          s &&
          JSON.stringify(after.pushReceiver) !== JSON.stringify(before.pushReceiver) &&
          !s.account.sandbox
        ) {
          // The push receiver starts, stops or moves port with the setting (the client stays).
          await s.receiver?.close();
          s.receiver = await startReceiver(s.account);
        } else if (after.pollIntervalSeconds !== before.pollIntervalSeconds && s) {
          schedulePoll(after.pollIntervalSeconds);
        }
        if (credit && after.lowCreditThreshold !== before.lowCreditThreshold) {
          credit = { ...credit, low: Number(credit.credit) < after.lowCreditThreshold };
          emit('credit:changed', credit);
        }
        return after;
      },
    },
    children: {
      permitted: childPermission,
      list: async () => {
        const s = session;
        const current = s?.account ?? store.accounts.current();
        return current ? children.list(current.id) : [];
      },
      create: createChild,
      delete: deleteChild,
      transfer: transferChild,
      balance: childBalance,
    },
    policy: {
      get: async () => structuredClone(policy),
    },
    sandbox: {
      // The virtual phone's source: GET /sandbox/outbound of the in-process sandbox gateway, for the
      // signed-in demo account only (a real gateway has no such route).
      outbound: async (args) => {
        const s = requireSession();
        const sb = sandbox;
        if (!s.account.sandbox || !sb) {
          throw new ApiError(
            'not-sandbox',
            `the virtual phone works with the local sandbox only; the current account ${s.account.username} is on ${s.account.primaryUrl}`,
          );
        }
        const limit = args?.limit ?? 500;
        const query = new URLSearchParams({
          username: s.account.username,
          after: String(args?.afterId ?? 0),
          limit: String(limit),
        });
        const res = await fetch(`${sb.url}/sandbox/outbound?${query.toString()}`);
        if (!res.ok) {
          throw new ApiError(
            'gateway-unavailable',
            `the sandbox answered HTTP ${res.status} to /sandbox/outbound`,
          );
        }
        const rows = (await res.json()) as Array<{
          id: number;
          MessageIdentifier: string;
          recipient: string;
          part: number;
          parts: number;
          pdu: string;
          createdAt: string;
        }>;
        const items = rows.map((r) => ({
          id: r.id,
          messageIdentifier: r.MessageIdentifier,
          recipient: r.recipient,
          part: r.part,
          parts: r.parts,
          pdu: r.pdu,
          createdAt: r.createdAt,
        }));
        const last = items[items.length - 1];
        return { items, next: items.length === limit && last ? last.id : null };
      },
    },
  };

  const { call, api } = bindApi(impl, () => closing);

  // ------------------------------------------------------------------ start-up

  const recovered = store.outbox.recoverAfterCrash();
  if (recovered.length > 0) {
    log(
      `${recovered.length} batch(es) were being sent when the app stopped: now unknown, never re-sent by themselves`,
    );
  }
  try {
    if (opts.sandbox) await signIn({ sandbox: true });
    else await resumeSession();
  } catch (err) {
    log(`not signed in at start: ${message(err)}`);
  }

  if (recovered.length > 0) {
    // After the caller has subscribed (it runs before this macrotask); outbox.unknownBatches()
    // lists them at any time.
    setImmediate(() => emit('outbox:recovered', { batches: recovered }));
  }
  return {
    api,
    events: {
      on(event, listener) {
        emitter.on(event, listener as (p: unknown) => void);
        return () => emitter.off(event, listener as (p: unknown) => void);
      },
    },
    call,
    pushReceiverUrl: () => session?.receiver?.url ?? null,
    async close() {
      if (closing) return;
      closing = true;
      stopPolling();
      await updater.close();
      await sendChain;
      await endSession();
      await Promise.all(clientCloses);
      await sandbox?.close();
      store.close();
      emitter.removeAllListeners();
    },
  };
}
