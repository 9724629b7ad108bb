// Keyword auto-replies (issue 12, FrontlineSMS's most used feature): rules "inbound text starts
// with KEYWORD → reply TEXT", enabled per rule, run in the main process as messages arrive (the
// poller's onReceived), while the app runs. At most one reply per number per rule per UTC day, so
// two machines answering each other stop after one round, and at most settings.autoReplyDailyCap a
// day in all; the reply goes through the one send chain (opt-outs apply) and its message is marked
// automatic in the conversation.
import { LIMITS } from '../../protocol/limits.ts';
import type { AppStore } from '../store/app-store.ts';
import type { Log } from './app-options.ts';
import { message as errorMessage } from './app-options.ts';
import type { Session } from './session.ts';
import { ApiError } from './validate-args.ts';
import type { MessengerApi } from '../../preload/api.ts';
import type {
  AutoReplyRule,
  MessageRecord,
  SendAccepted,
  SendRequest,
  Settings,
} from '../../domain/index.ts';

/** Whether `text` starts with `keyword` as a word (case-insensitive): "JOIN", "join now", not "joiner". */
export function startsWithKeyword(text: string, keyword: string): boolean {
  const t = text.trim().toUpperCase();
  const k = keyword.trim().toUpperCase();
  if (k === '' || !t.startsWith(k)) return false;
  const next = t.charAt(k.length);
  return next === '' || !/[\p{L}\p{N}]/u.test(next);
}

export interface AutoRepliesDeps {
  store: AppStore;
  sessions: { current(): Session | null; require(): Session };
  settings(): Settings;
  submit(req: SendRequest): Promise<SendAccepted>;
  log: Log;
  /**
   * Issue 28, office mode: the reply claimed in the office database too, so the limits hold whichever
   * desk collects (false: answered today at a desk, or the cap reached; null: it cannot say).
   */
  claimShared?(accountId: string, ruleId: number, number: string, cap: number): Promise<boolean | null>;
  /** Issue 28, office mode: each rule's replies today at every desk (local rule id → count; null: unknown). */
  sentTodayShared?(accountId: string): Promise<Map<number, number> | null>;
  /** Issue 28, office mode: a reply answered on the desk's log alone (claimShared could not say). */
  claimedAlone?(accountId: string, ruleId: number, number: string): void;
}

function checkRule(rule: { keyword?: string; reply?: string }): void {
  if (rule.keyword !== undefined && rule.keyword.trim() === '')
    throw new ApiError('invalid-request', 'An auto-reply needs a keyword.');
  if (rule.reply !== undefined && rule.reply.trim() === '')
    throw new ApiError('invalid-request', 'An auto-reply needs the text to reply with.');
  if (rule.reply !== undefined && rule.reply.length > LIMITS.maxMessageParts * 153)
    throw new ApiError('invalid-request', 'The reply is longer than one message can be.');
}

export function createAutoReplies(deps: AutoRepliesDeps) {
  const { store, sessions, log } = deps;
  const account = () => sessions.require().account.id;
  let chain: Promise<void> = Promise.resolve();

  const api: MessengerApi['autoreplies'] = {
    list: async () => {
      const id = account();
      const rules = store.autoReplies.list(id);
      // office mode: "sent today" counts every desk's replies (the limits do: a collector that moved)
      const shared = rules.length > 0 ? await deps.sentTodayShared?.(id) : null;
      if (!shared) return rules;
      return rules.map((r) => ({ ...r, sentToday: Math.max(r.sentToday, shared.get(r.id) ?? 0) }));
    },
    create: async (rule) => {
      checkRule(rule);
      return store.autoReplies.create(account(), {
        keyword: rule.keyword.trim(),
        reply: rule.reply,
        enabled: rule.enabled ?? true,
      });
    },
    update: async ({ id, ...changes }) => {
      checkRule(changes);
      return store.autoReplies.update(account(), id, {
        ...changes,
        ...(changes.keyword !== undefined ? { keyword: changes.keyword.trim() } : {}),
      });
    },
    delete: async (id) => store.autoReplies.delete(account(), id),
  };

  async function answer(m: MessageRecord, rule: AutoReplyRule, accountId: string): Promise<void> {
    if (store.optOuts.has(accountId, m.peer)) return;
    const cap = deps.settings().autoReplyDailyCap;
    const shared = await deps.claimShared?.(accountId, rule.id, m.peer, cap);
    if (shared === false) return;
    if (!store.autoReplies.claim(accountId, rule.id, m.peer, cap)) return;
    // (the office database away: in its log once it is back, so the next collector knows)
    if (shared === null) deps.claimedAlone?.(accountId, rule.id, m.peer);
    const sent = await deps.submit({ recipients: [m.peer], content: { kind: 'text', text: rule.reply } });
    store.autoReplies.recordJob(rule.id, m.peer, sent.job.id);
  }

  return {
    api,
    /**
     * New inbound messages of `accountId` (`skip`: those an opt-out keyword already handled):
     * answered only while that account is signed in (the reply goes out through its session).
     */
    received(messages: readonly MessageRecord[], skip: ReadonlySet<number>, accountId: string): void {
      const s = sessions.current();
      if (s?.account.id !== accountId) return;
      const rules = store.autoReplies.list(s.account.id).filter((r) => r.enabled);
      if (rules.length === 0) return;
      for (const m of messages) {
        if (m.direction !== 'in' || skip.has(m.id) || !/^\d+$/.test(m.peer)) continue;
        const rule = rules.find((r) => startsWithKeyword(m.text, r.keyword));
        if (!rule) continue;
        chain = chain
          .then(() => answer(m, rule, s.account.id))
          .catch((err: unknown) => log(`auto-reply to +${m.peer} not sent: ${errorMessage(err)}`));
      }
    },
    /** Resolves when the replies under way are journaled. */
    idle: (): Promise<void> => chain,
    async close(): Promise<void> {
      await chain;
    },
  };
}
