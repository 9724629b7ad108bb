// The inbox: CollectMessages every settings.pollIntervalSeconds while a session exists, back-off
// ×2 per failure up to an hour ('inbox:pollFailed'), pollNow (one poll at a time: a second caller
// shares it); each message stored once, 'inbox:received' with the unread total. The push receiver
// (always for the sandbox, else by settings.pushReceiver): receipts → 'inbox:receipt',
// DeliverMessage → stored like a poll.
import { PushReceiver } from '../client/push-receiver.ts';
import type { AppStore } from '../store/app-store.ts';
import { message } from './app-options.ts';
import type { Emit, Log } from './app-options.ts';
import type { Sandbox } from './sandbox.ts';
import type { Session } from './session.ts';
import { ApiError } from './validate-args.ts';
import type { AccountSummary, MessageRecord, Settings } from '../../preload/api.ts';

export const MAX_POLL_BACKOFF_SECONDS = 3600;

export interface InboxPollerDeps {
  store: AppStore;
  sessions: { current(): Session | null; require(): Session };
  settings(): Settings;
  sandbox: { running(): Sandbox | null };
  closing(): boolean;
  emit: Emit;
  log: Log;
  /** New inbound messages, after they are stored and announced (opt-outs, auto-replies; issue 12). */
  onReceived?(messages: MessageRecord[]): void;
}

interface Inbound {
  from: string;
  to: string;
  text: string;
  timestamp: string;
}

export function createInboxPoller(deps: InboxPollerDeps) {
  const { store, sessions, emit, log } = deps;
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;
  let polling: Promise<{ received: number }> | null = null;
  /** The current session's push receiver. */
  let receiver: PushReceiver | null = null;

  /** Stores each message once; 'inbox:received' when any is new. */
  function storeInbound(items: Inbound[]): MessageRecord[] {
    const stored: MessageRecord[] = [];
    for (const m of items) {
      if (m.from.trim() === '') continue;
      const r = store.conversations.storeInbound(m);
      if (r.stored) stored.push(r.message);
    }
    if (stored.length > 0) {
      emit('inbox:received', { messages: stored, unreadTotal: store.conversations.unreadTotal() });
      try {
        deps.onReceived?.(stored);
      } catch (err) {
        log(`inbound messages not handled: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return stored;
  }

  async function pollOnce(): Promise<{ received: number }> {
    const s = sessions.require();
    const r = await s.client.collectMessages();
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
    schedule(deps.settings().pollIntervalSeconds);
    return { received: stored.length };
  }

  function pollNow(): Promise<{ received: number }> {
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

  /** The push receiver of an account: automatic for the sandbox, by settings.pushReceiver otherwise. */
  async function startReceiver(account: AccountSummary): Promise<PushReceiver | null> {
    const push = deps.settings().pushReceiver;
    if (!account.sandbox && !push.enabled) return null;
    // The gateway pushes with the account's Username and no PIN (spec 6).
    const r = new PushReceiver({
      username: account.username,
      ...(push.port !== null && !account.sandbox ? { port: push.port } : {}),
    });
    try {
      const url = await r.listen();
      const sandbox = deps.sandbox.running();
      if (account.sandbox && sandbox) sandbox.setPushUrl(url);
      log(`push receiver listening at ${url}`);
    } catch (err) {
      log(`push receiver not started: ${message(err)}`);
      return null;
    }
    r.on('receipt', (p) => {
      const at = Date.parse(p.Timestamp1);
      const updated = store.outbox.recordReceipt({
        messageIdentifier: p.MessageIdentifier ?? '',
        report: String(p.Report),
        ...(Number.isFinite(at) ? { at } : {}),
        ...(p.SentTo !== undefined ? { sentTo: p.SentTo } : {}),
      });
      if (updated) emit('inbox:receipt', { message: updated });
    });
    r.on('message', (m) => {
      storeInbound([
        {
          from: m.ReplyTo ?? '',
          to: m.Recipient?.SendTo ?? '',
          text: m.Message?.TextMessage ?? m.Message?.FlashMessage ?? '',
          timestamp: m.Timestamp1 ?? new Date().toISOString(),
        },
      ]);
    });
    r.on('refused', (p) => log(`push refused: ${p.reason}`));
    return r;
  }

  return {
    api: { pollNow },
    async sessionReady(s: Session): Promise<void> {
      const started = await startReceiver(s.account);
      // Another sign-in may have ended this session while the receiver started.
      if (sessions.current() !== s) {
        await started?.close();
        return;
      }
      receiver = started;
      schedule(deps.settings().pollIntervalSeconds);
    },
    async sessionEnded(): Promise<void> {
      stop();
      const r = receiver;
      receiver = null;
      await r?.close();
    },
    /** The push receiver starts, stops or moves port with its setting; polls follow the interval. */
    async settingsChanged(before: Settings, after: Settings): Promise<void> {
      const s = sessions.current();
      if (!s) return;
      if (JSON.stringify(after.pushReceiver) !== JSON.stringify(before.pushReceiver) && !s.account.sandbox) {
        const old = receiver;
        receiver = null;
        await old?.close();
        receiver = await startReceiver(s.account);
      } else if (after.pollIntervalSeconds !== before.pollIntervalSeconds) {
        schedule(after.pollIntervalSeconds);
      }
    },
    /** Where the push receiver listens, null when it is off. */
    pushReceiverUrl: (): string | null => receiver?.url ?? null,
    close(): void {
      stop();
    },
  };
}
