// Child accounts (spec 4.4): whether Accounts is offered (setting or policy; Report 7 of a real
// operation turns it off for the session; the gateway is never probed), create,
// delete, transfer funds either way, a child's balance; the children created here are listed from
// the app database (main/store/children.ts), the spec having no operation that lists them.
import { TRANSFER_CURRENCY } from '../../protocol/limits.ts';
import { tidyChildAccount } from '../../protocol/child-account.ts';
import { REPORT } from '../../protocol/reports.ts';
import type { AppStore } from '../store/app-store.ts';
import { message } from './app-options.ts';
import type { Log } from './app-options.ts';
import { readBalance } from './credit.ts';
import type { Session, Sessions } from './session.ts';
import { ApiError } from './validate-args.ts';
import type { MessengerApi } from '../../preload/api.ts';
import type {
  Balance,
  ChildAccount,
  ChildCreated,
  ChildCreateRequest,
  ChildPermission,
  ChildTransferRequest,
  ChildTransferResult,
  Credit,
} from '../../domain/index.ts';

export interface ChildrenDeps {
  store: AppStore;
  sessions: Pick<Sessions, 'current' | 'require' | 'clientFor'>;
  refreshCredit(): Promise<Credit>;
  country(): string | undefined;
  /** Accounts turned on by the user (setting childAccounts) or the deploy policy. */
  enabled(): boolean;
  log: Log;
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

export function createChildren(deps: ChildrenDeps) {
  const { store, sessions, log } = deps;
  /** Per session: a real operation answered "not permitted" (Report 7); kept for the session. */
  const refused = new WeakMap<Session, string>();

  /**
   * Whether Accounts is offered. The gateway is never asked with a request the spec calls invalid:
   * the user (setting childAccounts) or the deploy policy turns it on, and a real manageaccount
   * operation answered with Report 7 ("not permitted") turns it off for the session. Nothing is
   * asked again automatically after an error report (spec 7.3.1).
   */
  async function permitted(): Promise<ChildPermission> {
    const s = sessions.require();
    const no = refused.get(s);
    if (no !== undefined) return { permitted: false, reason: no, definite: true };
    if (!deps.enabled())
      return {
        permitted: false,
        reason: 'Child accounts are off: turn them on in the Account settings',
        definite: true,
      };
    return { permitted: true, reason: null, definite: true };
  }

  /**
   * A refused, unknown or unsent answer of CreateChildAccount as an API error; its Report 7 marks the
   * session not permitted. (The same code of a delete or a transfer concerns that child or that
   * transfer, such as a SHARED child's, not the account: those stay plain refusals.)
   */
  function createError(
    s: Session,
    what: string,
    r: { outcome: string; reason: string; code?: string },
  ): ApiError {
    if (r.outcome === 'rejected' && r.code === REPORT.notPermitted) {
      const reason = `${s.account.username} may not manage child accounts: ${r.reason}`;
      if (sessions.current() === s) refused.set(s, reason);
      return new ApiError('not-permitted', `${what}: ${reason}`);
    }
    return manageError(what, r);
  }

  async function requirePermission(): Promise<Session> {
    const p = await permitted();
    if (!p.permitted)
      throw new ApiError(
        p.definite ? 'not-permitted' : 'permission-unknown',
        p.reason ?? 'account management is not permitted',
      );
    return sessions.require();
  }

  async function create(req: ChildCreateRequest): Promise<ChildCreated> {
    const s = await requirePermission();
    const { request } = tidyChildAccount(req, deps.country());
    const r = await s.client.createChildAccount(request);
    if (r.outcome !== 'ok') throw createError(s, 'the child account was not created', r);
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
    store.children.add(s.account.id, child);
    return { child, pin: r.value.pin };
  }

  async function remove(username: string): Promise<void> {
    const s = await requirePermission();
    const r = await s.client.deleteChildAccount(username);
    if (r.outcome !== 'ok') throw manageError(`${username} was not deleted`, r);
    store.children.remove(s.account.id, username);
    // A TRANSFER child's remaining credit goes back to the parent.
    await deps.refreshCredit().catch((err: unknown) => log(`credit not refreshed: ${message(err)}`));
  }

  /** The balance of `username` signed in with its own PIN; the client closed after. */
  async function balanceOf(username: string, pin: string): Promise<Balance> {
    const c = sessions.clientFor(username, pin);
    try {
      return await readBalance(c, `the balance of ${username} is not available`);
    } finally {
      await c.close();
    }
  }

  async function transfer(req: ChildTransferRequest): Promise<ChildTransferResult> {
    const s = await requirePermission();
    if ((req.amount === undefined) === (req.messages === undefined)) {
      throw new ApiError(
        'bad-argument',
        `give either an amount in ${TRANSFER_CURRENCY} or a number of messages, not both`,
      );
    }
    if (req.amount !== undefined && !(Number(req.amount) > 0)) {
      throw new ApiError(
        'bad-argument',
        `the amount must be more than 0 ${TRANSFER_CURRENCY} (${JSON.stringify(req.amount)})`,
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
      const child = sessions.clientFor(username, pin);
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
    const parent = await deps.refreshCredit();
    let childBalance: Balance | null = null;
    if (pin !== null) {
      try {
        childBalance = await balanceOf(username, pin);
      } catch (err) {
        log(`balance of ${username} not read: ${message(err)}`);
      }
    }
    return { parent, child: childBalance };
  }

  const api: MessengerApi['children'] = {
    permitted,
    list: async () => {
      const current = sessions.current()?.account ?? store.accounts.current();
      return current ? store.children.list(current.id) : [];
    },
    create,
    delete: remove,
    transfer,
    balance: async ({ username, pin }) => balanceOf(username.trim(), pin),
  };

  return { api, close(): void {} };
}
