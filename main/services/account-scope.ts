// Issue 25 item 5: one account's data at a time. History (outbox.jobs), its banner of batches whose
// outcome is unknown (outbox.unknownBatches) and the campaign view (campaigns.get) answer for the
// signed-in account only (./../store/outbox-account.ts); signed out, there is nothing to show.
// Cancel refuses a send of another account, as Continue sending and Resend do; so do the reads of
// one send (outbox.job, outbox.batches, outbox.recipients), as campaigns.get does.
import type { AppStore } from '../store/app-store.ts';
import type { Session } from './session.ts';
import { ApiError } from './validate-args.ts';
import type { MessengerApi, OutboxJob } from '../../preload/api.ts';

export interface AccountScopeDeps {
  store: AppStore;
  sessions: { current(): Session | null };
  campaigns: MessengerApi['campaigns'];
  /** outbox.cancel of the sender, refused here for another account's send. */
  cancel: MessengerApi['outbox']['cancel'];
  /** The sender's reads of one send, refused here for another account's send. */
  outbox: Pick<MessengerApi['outbox'], 'job' | 'batches' | 'recipients'>;
}

export function createAccountScope(deps: AccountScopeDeps) {
  const { store, sessions } = deps;
  const account = (): string | null => sessions.current()?.account.id ?? null;
  /** Nothing of another account is acted on: `why` when `jobId` is another account's. */
  const refuseOthers = (jobId: number, why: string): void => {
    const id = account();
    if (id !== null && store.outboxAccount.isOtherAccounts(jobId, id))
      throw new ApiError('invalid-state', why);
  };
  type Scoped = 'jobs' | 'unknownBatches' | 'cancel' | 'job' | 'batches' | 'recipients';
  const readRefused = 'this send was made from another account: sign in to it to see it';
  const outbox: Pick<MessengerApi['outbox'], Scoped> = {
    // As Continue sending and Resend: another account's pending send is left for that account.
    cancel: async (jobId) => {
      refuseOthers(jobId, 'this send belongs to another account: sign in to it to cancel what is left of it');
      return deps.cancel(jobId);
    },
    job: async (jobId) => {
      refuseOthers(jobId, readRefused);
      return deps.outbox.job(jobId);
    },
    batches: async (jobId) => {
      refuseOthers(jobId, readRefused);
      return deps.outbox.batches(jobId);
    },
    recipients: async (jobId) => {
      refuseOthers(jobId, readRefused);
      return deps.outbox.recipients(jobId);
    },
    jobs: async (args) => {
      const id = account();
      if (id === null) return [];
      return store.outboxAccount.jobIds(id, args ?? {}).flatMap((jobId): OutboxJob[] => {
        const job = store.outbox.job(jobId);
        return job ? [job] : [];
      });
    },
    unknownBatches: async () => {
      const id = account();
      if (id === null) return [];
      return store.outbox.unknownBatches().filter((b) => !store.outboxAccount.isOtherAccounts(b.jobId, id));
    },
  };
  const campaigns: MessengerApi['campaigns'] = {
    ...deps.campaigns,
    get: async (jobId) => {
      refuseOthers(jobId, 'this campaign was sent from another account: sign in to it to see it');
      return deps.campaigns.get(jobId);
    },
  };
  return { api: { outbox, campaigns } };
}
