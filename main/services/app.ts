// The composition root: one MessengerApi (preload/api.ts) wired from one service per area, each
// `create…(deps) → { api, sessionReady?, sessionEnded?, close }` like updates.ts. Both shells
// (Electron and main/web.ts) bind exactly what createMessengerApp returns; every call's argument is
// checked at the boundary (validate-args.ts) and every failure is an ApiError with a code.
// How a send and a poll travel: main/services/README.md.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openAppStore } from '../store/app-store.ts';
import { bindApi } from './api-binding.ts';
import { createEvents, message, resolvePolicy, runAll } from './app-options.ts';
import { createAppUpdater } from './app-updater.ts';
import type { MessengerApp, MessengerAppOptions } from './app-options.ts';
import { createServerBooks } from './server-books.ts';
import { createChildren } from './children.ts';
import { createCredit, readBalance } from './credit.ts';
import { createRates, rateWatcher } from './rates.ts';
import { createDrafts } from './drafts.ts';
import { createMergeMeasure } from './merge-measure.ts';
import { createOptOuts } from './optouts.ts';
import { createAutoReplies } from './auto-replies.ts';
import { createInboxPoller } from './inbox-poller.ts';
import { createDatabase } from './database.ts';
import { checkInBackground, createGuardedApp } from './db-recovery.ts';
import { checkDatabaseAtStart, isDamage } from '../store/db-health.ts';
import { createRecords } from './records.ts';
import { createSandboxFeed } from './sandbox-feed.ts';
import { createSender } from './sender.ts';
import { createSendHalts } from './send-halts.ts';
import { createAccountScope } from './account-scope.ts';
import { createCampaigns } from './campaigns.ts';
import { createSessions } from './session.ts';
import { createSettings } from './settings.ts';
import { ApiError } from './validate-args.ts';
import type { MessengerApi } from '../../preload/api.ts';
import { openOffice } from '../office/setup.ts';
import { SendsLocal } from '../office/sends-local.ts';
import { withOfficeSends } from './office-sends.ts';

export { ApiError };
export type { MessengerApp, MessengerAppOptions, MessengerEventsHub } from './app-options.ts';

/**
 * The app over `dataDir`. Issue 25: the database is checked first (bounded, db-health.ts), then
 * thoroughly on a thread of its own while the app runs; a damaged or unreadable one is not served:
 * the app then answers only database.* (db-recovery.ts) until the user has chosen what to do.
 */
export async function createMessengerApp(opts: MessengerAppOptions): Promise<MessengerApp> {
  mkdirSync(opts.dataDir, { recursive: true });
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const file = join(opts.dataDir, 'messenger.sqlite');
  const health = checkDatabaseAtStart(file);
  if (!health.ok) log(`database check of ${file}: ${health.problem}`);
  const open = (keptAs: string | null) => openMessengerApp(opts, file, log, keptAs);
  let inner: MessengerApp | null = null;
  let found = health;
  if (health.ok) {
    try {
      inner = await open(null);
    } catch (err) {
      if (!isDamage(err)) throw err;
      found = { ...health, ok: false, problem: message(err) };
    }
  }
  const guarded = createGuardedApp(file, { inner, health: found }, open, log);
  if (!inner) return guarded;
  // The thorough check, while the app runs (seconds at 1,000,000 messages: bench/db-health.ts).
  const thorough = checkInBackground(file);
  thorough.result.then(
    (h) => {
      if (!h.ok) void guarded.damaged(h);
    },
    () => undefined,
  );
  return {
    ...guarded,
    async close() {
      await thorough.stop();
      await guarded.close();
    },
  };
}

async function openMessengerApp(
  opts: MessengerAppOptions,
  file: string,
  log: (m: string) => void,
  keptAs: string | null,
): Promise<MessengerApp> {
  const env = opts.env ?? process.env;
  const store = openAppStore(file, {
    defaultCountry: 'GB',
    preferences: opts.preferences,
  });
  const { emit, hub, close: closeEvents } = createEvents();
  const policy = resolvePolicy(opts.policy, env, log);
  let closing = false;
  const isClosing = (): boolean => closing;

  // Services that refer to each other are reached through closures: all exist before the first call.
  const settings = createSettings({ store, policy, emit, effects: () => [poller, credit] });
  const country = settings.country;
  const sandbox = createSandboxFeed({
    dataDir: opts.dataDir,
    receiptDelayMs: opts.sandboxReceiptDelayMs,
    log,
    store,
    sessions: { require: () => sessions.require() },
  });
  // Issue 28: office mode (main/office/, docs/OFFICE.md); null on a desk of its own. A URL that
  // cannot be used stops the start: the store (and this run's lock) closed first.
  const { office, setting: officeSetting } = await openOffice({
    url: opts.office,
    policy,
    env,
    secrets: opts.secrets,
    store,
    account: () => sessions.current()?.account ?? null,
    pollIntervalSeconds: () => settings.current().pollIntervalSeconds,
    becameCollector: () =>
      void poller.api.pollNow().catch((err: unknown) => log(`poll failed: ${message(err)}`)),
    emit,
    log,
  }).catch((err: unknown) => {
    closeEvents();
    store.close();
    throw err;
  });
  const sessions = createSessions({
    store,
    policy,
    secrets: opts.secrets,
    env,
    emit,
    log,
    country,
    sandbox,
    hooks: () => [poller, updaterHooks, credit, ...(office ? [office.hooks] : [])],
    refreshCredit: () => credit.refresh(),
    whenIdle: () => sender.idle(),
  });
  // Issue 26: message prices (policy, setting, learned from sends, else AvailableMessages).
  const rates = createRates({ store, policy, settings: settings.current });
  const credit = createCredit({ sessions, settings: settings.current, emit, rates: rates.forBalance });
  const halts = createSendHalts({ emit });
  const sender = createSender({
    store,
    sessions,
    country,
    refreshCredit: (onBalance) => credit.refresh(onBalance),
    rateWatch: rateWatcher(rates, () => readBalance(sessions.require().client, 'credit not available')),
    credit: () => credit.api.get(),
    settings: settings.current,
    closing: isClosing,
    emit,
    log,
    halted: (jobId, reason) => halts.record(jobId, reason),
    started: (jobId) => halts.clear(jobId),
    ...(office ? { optOutsFresh: office.fresh } : {}),
  });
  const poller = createInboxPoller({
    store,
    sessions,
    settings: settings.current,
    sandbox,
    closing: isClosing,
    emit,
    log,
    onReceived: (messages, accountId) =>
      autoReplies.received(messages, optouts.received(messages, accountId), accountId),
    ...(office ? { office } : {}),
    minFreeBytes: opts.minFreeDiskBytes,
  });
  const serverBooks = createServerBooks({ sessions });
  const children = createChildren({
    store,
    sessions,
    refreshCredit: credit.refresh,
    country,
    log,
    // the local sandbox's demo account holds the permission (gateway/demo.ts): nothing to learn
    enabled: () =>
      policy.childAccounts ||
      store.settings.get().childAccounts ||
      sessions.current()?.account.sandbox === true,
  });
  const records = createRecords({ store, country, account: () => sessions.current()?.account.id ?? null });
  const campaigns = createCampaigns({ store, sessions, start: (id) => sender.start(id) });
  const scope = createAccountScope({
    store,
    sessions,
    campaigns: campaigns.api.campaigns,
    cancel: sender.api.outbox.cancel,
    outbox: sender.api.outbox,
  });
  // Issue 28: every desk's sends in History and campaigns; another desk's read-only (office-sends.ts).
  // Always on: a desk that has left office mode still shows the sends it imported, read-only.
  const officeSends = withOfficeSends({
    sends: office?.sends ?? new SendsLocal(store.app, ''),
    deskName: () => office?.deskName() ?? null,
    optedOut: () => {
      const id = sessions.current()?.account.id;
      return id === undefined ? undefined : (list) => store.optOuts.filter(id, list);
    },
    account: () => sessions.current()?.account.id ?? null,
    peerOf: (conversationId) => store.conversations.get(conversationId)?.peer ?? null,
  });
  const drafts = createDrafts({ store, sessions });
  const mergeMeasure = createMergeMeasure({ store, sessions, country });
  const optouts = createOptOuts({
    store,
    sessions,
    settings: settings.current,
    country,
    log,
    ...(office ? { office } : {}),
  });
  const autoReplies = createAutoReplies({
    store,
    sessions,
    settings: settings.current,
    submit: (req) => sender.api.send.submit(req),
    log,
    ...(office
      ? {
          claimShared: office.claimAutoReply,
          sentTodayShared: office.autoRepliesSentToday,
          claimedAlone: office.autoReplyClaimedAlone,
        }
      : {}),
  });

  const { updater, hooks: updaterHooks } = createAppUpdater({ opts, policy, sessions, emit, log });
  const database = createDatabase({ store, log, emit, keptAs, firstCheckMs: opts.firstBackupCheckMs });

  const impl: MessengerApi = {
    accounts: sessions.api,
    ...sender.api,
    outbox: officeSends.outbox({ ...sender.api.outbox, ...halts.api, ...scope.api.outbox }),
    inbox: officeSends.inbox({ ...records.api.inbox, pollNow: poller.api.pollNow }),
    history: records.api.history,
    contacts: records.api.contacts,
    groups: records.api.groups,
    templates: records.api.templates,
    credit: credit.api,
    updates: updater.api,
    library: sandbox.api.library,
    settings: settings.api,
    children: children.api,
    policy: { get: async () => structuredClone(policy) },
    sandbox: sandbox.api.sandbox,
    ...serverBooks.api,
    drafts: drafts.api,
    optouts: optouts.api,
    autoreplies: autoReplies.api,
    mailmerge: mergeMeasure.api,
    campaigns: officeSends.campaigns(scope.api.campaigns),
    office: {
      status: async () => office?.status() ?? null,
      setting: officeSetting.api.get,
      configure: officeSetting.api.set,
      rename: officeSetting.api.rename,
    },
    database: database.api,
  };
  const { call, api } = bindApi(impl, isClosing);

  // Start-up: a send the last run was in the middle of, then the session.
  const recovered = sender.recoverAfterCrash();
  // (issue 25: replies a run that stopped spooled but did not store are stored when their account's
  // session is ready, poller.sessionReady)
  try {
    await sessions.start(opts.sandbox === true);
  } catch (err) {
    log(`not signed in at start: ${message(err)}`);
  }
  // After the caller has subscribed (it runs before this macrotask); outbox.unknownBatches() lists
  // them at any time.
  if (recovered.length > 0) setImmediate(() => emit('outbox:recovered', { batches: recovered }));

  return {
    api,
    events: hub,
    call,
    pushReceiverUrl: poller.pushReceiverUrl,
    async close() {
      if (closing) return;
      closing = true;
      // Every step runs even when one before it fails: the sandbox gateway and the database are
      // always closed (the first failure is thrown after all of them).
      await runAll([
        () => poller.close(),
        () => office?.close(),
        () => updater.close(),
        () => autoReplies.close(),
        () => sender.close(),
        () => sessions.close(),
        () => children.close(),
        () => credit.close(),
        () => sandbox.close(),
        () => database.close(),
        () => store.close(),
        () => closeEvents(),
      ]);
    },
  };
}
