// Opt-outs (issue 12): an inbound message whose first word is an opt-out keyword (settings
// optOutKeywords, STOP and UNSUBSCRIBE by default) puts its sender on the signed-in account's list,
// an opt-in keyword (START) takes it off; the user can view, add, remove and export the list.
// sender.ts leaves every listed number out of every send, resends included.
import { normalizeMsisdn } from '../../protocol/msisdn.ts';
import type { AppStore } from '../store/app-store.ts';
import type { Log } from './app-options.ts';
import type { Session } from './session.ts';
import type { MessengerApi } from '../../preload/api.ts';
import type { MessageRecord, Settings } from '../../domain/index.ts';
import type { Office } from '../office/office.ts';
import Papa from 'papaparse';

/** The first word of a message, upper-cased, without trailing punctuation ("Stop." → "STOP"). */
export function firstWord(text: string): string {
  const word = text.trim().split(/\s+/, 1)[0] ?? '';
  return word.replace(/[.!?,;:]+$/u, '').toUpperCase();
}

export function keywordIn(text: string, keywords: readonly string[]): string | null {
  const w = firstWord(text);
  return w !== '' && keywords.some((k) => k.toUpperCase() === w) ? w : null;
}

export interface OptOutsDeps {
  store: AppStore;
  sessions: { current(): Session | null; require(): Session };
  settings(): Settings;
  country(): string | undefined;
  log: Log;
  /** Issue 28: office mode: each change of the list queued for the office database. */
  office?: Pick<Office, 'optOutChanged' | 'sync'>;
}

export function createOptOuts(deps: OptOutsDeps) {
  const { store, sessions } = deps;
  const account = () => sessions.require().account.id;
  // issue 28: a list change and its office database write queued in one transaction
  const add = (id: string, numbers: string[], source: 'keyword' | 'manual', keyword: string | null = null) =>
    store.optOuts.add(id, numbers, source, keyword, () =>
      deps.office?.optOutChanged(id, numbers, 'add', source, keyword),
    );
  const remove = (id: string, numbers: string[]) =>
    store.optOuts.remove(id, numbers, () =>
      deps.office?.optOutChanged(id, numbers, 'remove', 'manual', null),
    );
  const shared = (): void => void deps.office?.sync();

  const api: MessengerApi['optouts'] = {
    list: async () => store.optOuts.list(account()),
    add: async (numbers) => {
      const valid: string[] = [];
      const invalid: string[] = [];
      for (const input of numbers) {
        const n = normalizeMsisdn(input, deps.country());
        if (n.ok) valid.push(n.msisdn);
        else invalid.push(input);
      }
      const added = add(account(), valid, 'manual');
      shared();
      return { added, invalid };
    },
    remove: async (numbers) => {
      const c = deps.country();
      const list = numbers.map((input) => {
        const n = normalizeMsisdn(input, c);
        return n.ok ? n.msisdn : input;
      });
      const removed = remove(account(), list);
      shared();
      return removed;
    },
    exportCsv: async () => {
      const data = store.optOuts
        .list(account())
        .map((o) => [o.number, o.source, o.keyword ?? '', new Date(o.createdAt).toISOString()]);
      const fields = ['number', 'source', 'keyword', 'added'];
      return `${Papa.unparse({ fields, data }, { escapeFormulae: true, newline: '\r\n' })}\r\n`;
    },
  };

  return {
    api,
    /**
     * New inbound messages of `accountId` (issue 25: the account that received them, signed in or
     * not any more): opt-out and opt-in keywords applied to its list. Returns the messages that were
     * such a keyword (no auto-reply answers them).
     */
    received(messages: readonly MessageRecord[], accountId: string): Set<number> {
      const handled = new Set<number>();
      const { optOutKeywords, optInKeywords } = deps.settings();
      for (const m of messages) {
        if (m.direction !== 'in') continue;
        const out = keywordIn(m.text, optOutKeywords);
        if (out !== null) {
          add(accountId, [m.peer], 'keyword', out);
          handled.add(m.id);
          deps.log(`+${m.peer} opted out (${out})`);
          continue;
        }
        if (keywordIn(m.text, optInKeywords) !== null) {
          remove(accountId, [m.peer]);
          handled.add(m.id);
        }
      }
      if (handled.size > 0) shared();
      return handled;
    },
    close(): void {},
  };
}
