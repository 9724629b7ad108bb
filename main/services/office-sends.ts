// Issue 28, office mode: History and the campaign view show every desk's sends, each with the desk
// that sent it (docs/OFFICE.md "Sends"). Another desk's send is a job without batches here
// (main/office/sends-local.ts): its counts and recipients are read from what that desk shared, and
// it is read-only — Continue sending, Cancel pending and Resend refuse it, because only the desk that
// journaled a send may send any of it (this desk cannot know what that desk has requested meanwhile).
// "Resend to failed" of it is not offered: the renderer offers "Send to failed from this desk",
// Compose with its failed numbers, a new send of this desk (its opt-out list applied as to any send).
import { ApiError } from './validate-args.ts';
import type { SendsLocal } from '../office/sends-local.ts';
import type { MessengerApi, OutboxJob } from '../../preload/api.ts';

type OtherDeskSends = Pick<
  SendsLocal,
  'otherDesk' | 'withCounts' | 'recipients' | 'campaign' | 'batches' | 'thread'
>;
type Outbox = MessengerApi['outbox'];
type Inbox = MessengerApi['inbox'];
type Campaigns = MessengerApi['campaigns'];

export interface OfficeSendsDeps {
  sends: OtherDeskSends;
  /** This desk's name in office mode; null on a desk of its own (its sends are not labelled). */
  deskName(): string | null;
  /** The signed-in account's opt-out list, to mark a campaign's rows (none signed out). */
  optedOut(): ((numbers: readonly string[]) => { skipped: string[] }) | undefined;
  /** The signed-in account's id (null: none) and a conversation's number (its thread shows other desks' too). */
  account(): string | null;
  peerOf(conversationId: number): string | null;
}

export function withOfficeSends(deps: OfficeSendsDeps) {
  const { sends } = deps;
  const decorate = (job: OutboxJob): OutboxJob => {
    const other = sends.otherDesk(job.id);
    if (other !== null) return { ...sends.withCounts(job), sentBy: { desk: other, here: false } };
    const here = deps.deskName();
    return here === null ? job : { ...job, sentBy: { desk: here, here: true } };
  };
  const refuse = (jobId: number, what: string): void => {
    const other = sends.otherDesk(jobId);
    if (other !== null)
      throw new ApiError(
        'invalid-state',
        `this send is desk "${other}"'s: only the desk that sent it can ${what} (it alone knows what it has requested)`,
      );
  };
  return {
    // A conversation's thread shows what other desks sent to its number on this account (sends-thread.ts).
    inbox: (i: Inbox): Inbox => ({
      ...i,
      thread: async (args) => {
        const local = await i.thread(args); // (the account scope's refusal of another account's)
        const accountId = deps.account();
        const peer = deps.peerOf(args.conversationId);
        return accountId === null || peer === null
          ? local
          : sends.thread(local, { ...args, accountId, peer });
      },
    }),
    outbox: (o: Outbox): Outbox => ({
      ...o,
      jobs: async (args) => (await o.jobs(args)).map(decorate),
      job: async (id) => {
        const job = await o.job(id);
        return job === null ? null : decorate(job);
      },
      // another desk's send: o.job first, for the account scope's refusal of another account's (issue 25)
      recipients: async (id) => {
        if (sends.otherDesk(id) === null) return o.recipients(id);
        await o.job(id);
        return sends.recipients(id);
      },
      batches: async (id) => {
        if (sends.otherDesk(id) === null) return o.batches(id);
        await o.job(id);
        return sends.batches(id); // its server books and Cc/Bcc as that desk shared them (no others)
      },
      continue: async (id) => {
        refuse(id, 'continue it');
        return o.continue(id);
      },
      cancel: async (id) => {
        refuse(id, 'cancel what is left of it');
        return o.cancel(id);
      },
      resend: async (args) => {
        refuse(args.jobId, 'resend it; send to its numbers from this desk as a new send instead');
        return o.resend(args);
      },
    }),
    campaigns: (c: Campaigns): Campaigns => ({
      ...c,
      get: async (id) => {
        const local = await c.get(id); // (the account scope's refusal of another account's)
        if (sends.otherDesk(local.job.id) === null && sends.otherDesk(id) === null)
          return { ...local, job: decorate(local.job) };
        return sends.campaign(
          id,
          (jobId) => {
            const j = local.job.id === jobId ? local.job : null;
            return j === null ? null : decorate(j);
          },
          deps.optedOut(),
        );
      },
      resendFailed: async (id) => {
        refuse(id, 'resend it; send to its failed numbers from this desk as a new send instead');
        return c.resendFailed(id);
      },
    }),
  };
}
