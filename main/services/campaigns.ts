// Campaigns (issue 12): a send to more than one recipient with its resends, read as one (each
// recipient's latest attempt, counts of those rows) from main/store/outbox-campaigns.ts; "Resend to
// failed" journals one new send to the failed recipients (never an opted-out number) through the
// journal's resend path, in one transaction, and hands it to the sending loop.
import type { AppStore } from '../store/app-store.ts';
import type { Session } from './session.ts';
import { ApiError } from './validate-args.ts';
import type { MessengerApi } from '../../preload/api.ts';

export interface CampaignsDeps {
  store: AppStore;
  sessions: { current(): Session | null; require(): Session };
  /** The sending loop (sender.ts): sends the new job's batches. */
  start(jobId: number): void;
}

export function createCampaigns(deps: CampaignsDeps): { api: Pick<MessengerApi, 'campaigns'> } {
  const { store, sessions } = deps;
  return {
    api: {
      campaigns: {
        get: async (jobId) => {
          // Rows on the signed-in account's opt-out list say so (never sent to again).
          const account = sessions.current()?.account.id;
          return store.campaigns.read(
            jobId,
            account === undefined ? {} : { optedOut: (list) => store.optOuts.filter(account, list) },
          );
        },
        resendFailed: async (jobId) => {
          const s = sessions.require();
          const first = store.campaigns.read(jobId).job;
          if (first.accountId !== null && first.accountId !== s.account.id)
            throw new ApiError(
              'invalid-state',
              'this campaign was sent from another account: sign in to that account to resend it',
            );
          const r = store.campaigns.resendFailed(jobId, (list) => store.optOuts.filter(s.account.id, list));
          deps.start(r.job.id);
          return r;
        },
      },
    },
  };
}
