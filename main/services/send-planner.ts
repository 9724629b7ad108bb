// What a send request comes to (issue 27: planned once per send), for the sender's estimate and
// submit alike: its recipients planned, opted-out numbers left out (nothing is ever sent to one),
// its books and Cc/Bcc read and checked. The plan an estimate made serves the submit of the same
// request that follows it; moved out of sender.ts by size (the review of the issues 23-27 merge).
import type { AppStore } from '../store/app-store.ts';
import { checkContent } from './send-content.ts';
import { planExtras } from './send-books.ts';
import { planRecipients, sameList } from './send-plan.ts';
import type { Session } from './session.ts';
import type { SendRequest } from '../../domain/index.ts';

export interface SendPlannerDeps {
  store: AppStore;
  sessions: { require(): Session };
  country(): string | undefined;
  /** Issue 28: office mode: the office database's opt-out list pulled in before a send is planned. */
  optOutsFresh?: (() => Promise<void>) | undefined;
}

/** How long an estimate's plan may serve the submit that follows it. */
export const PLAN_REUSE_MS = 60_000;

export function createSendPlanner(deps: SendPlannerDeps) {
  const { store, sessions } = deps;

  /**
   * The plan of `req`: recipients planned, opted-out numbers left out, books and Cc/Bcc read and
   * checked (a typed number a book also reaches is refused).
   */
  async function planSend(req: SendRequest) {
    const s = sessions.require();
    await deps.optOutsFresh?.(); // issue 28
    checkContent(req.content);
    const country = deps.country();
    const plan = planRecipients(store, req, country);
    const { kept, skipped } = store.optOuts.filter(s.account.id, plan.numbers);
    const optedOut = (n: string[]) => store.optOuts.filter(s.account.id, n).skipped;
    const planned = await planExtras(s, req, country, optedOut, kept);
    return { s, country, plan, kept, skipped, planned };
  }
  type Planned = Awaited<ReturnType<typeof planSend>>;

  /**
   * The plan an estimate made, kept for the submit of the same request that follows it (same
   * account and country, within PLAN_REUSE_MS, once): books sized once per send. The opt-out list is
   * applied again at submit (a number may have opted out meanwhile); a book member who did is caught
   * when its batch is read again before it goes (recheckExtras).
   */
  let estimated: { key: string; at: number; plan: Planned } | null = null;
  // The typed recipients are compared as a list (sameList), not written into the key: a 100,000
  // recipient request was stringified twice per send (~8 ms each; issue 27 item 6).
  const planKey = (req: SendRequest, account: string): string =>
    JSON.stringify([account, deps.country() ?? null, { ...req, recipients: undefined, limit: undefined }]);

  return {
    planSend,
    /** Keeps an estimate's plan for the submit that may follow; returns it. */
    remember(req: SendRequest, plan: Planned): Planned {
      estimated = { key: planKey(req, plan.s.account.id), at: Date.now(), plan };
      return plan;
    },
    /** The plan of a submit: the estimate's when it is the same request's, else a new one. */
    async planForSubmit(req: SendRequest): Promise<Planned> {
      const last = estimated;
      estimated = null;
      const s = sessions.require();
      if (
        last &&
        Date.now() - last.at <= PLAN_REUSE_MS &&
        last.plan.s === s &&
        last.key === planKey(req, s.account.id) &&
        sameList(last.plan.plan.typed.inputs, req.recipients)
      ) {
        checkContent(req.content);
        // The request names contacts and groups by id: their numbers are read again (local, cheap),
        // and the estimate's books are reused only for the same numbers (a member removed from a
        // group or a contact's number changed since is never sent to from the estimate's list).
        // Issue 27 item 6: its typed numbers (the same inputs, the same country) are not
        // normalised a second time.
        const plan = planRecipients(store, req, last.plan.country, last.plan.plan.typed);
        if (sameList(plan.numbers, last.plan.plan.numbers)) {
          await deps.optOutsFresh?.(); // issue 28: every desk's opt-outs, for a reused plan too
          const { kept, skipped } = store.optOuts.filter(s.account.id, plan.numbers);
          return { ...last.plan, plan, kept, skipped };
        }
      }
      return planSend(req);
    },
  };
}
