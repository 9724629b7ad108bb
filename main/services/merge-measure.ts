// Compose's live counter for a mail-merge text (issue 12): the request's recipients planned as a send
// plans them (opted-out numbers left out), their contacts read in one query, and each recipient's own
// text measured in mail-merge.ts's measureMerge. Here, not in the renderer: the address book lives in
// the main process, and 5,000 recipients cost one call, not 5,000 lookups.
import type { AppStore } from '../store/app-store.ts';
import type { Session } from './session.ts';
import { isMailMerge, measureMerge } from './mail-merge.ts';
import { planRecipients } from './send-plan.ts';
import type { MessengerApi } from '../../preload/api.ts';

export function createMergeMeasure(deps: {
  store: AppStore;
  sessions: { require(): Session };
  country: () => string | undefined;
}) {
  const { store, sessions } = deps;
  const api: MessengerApi['mailmerge'] = {
    measure: async (req) => {
      const s = sessions.require();
      const { kind, text } = req.content;
      const all = planRecipients(store, req, deps.country());
      const { kept } = store.optOuts.filter(s.account.id, all.numbers);
      if (!isMailMerge(req.content))
        return {
          merged: false,
          recipients: kept.length,
          longest: null,
          segments: 1,
          messages: 0,
          withoutContact: 0,
          distinctTexts: 1,
        };
      return measureMerge(text, kind === 'flash', kept, store.contacts.byMsisdns(kept));
    },
  };
  return { api, close(): void {} };
}
