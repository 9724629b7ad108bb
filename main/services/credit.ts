// Credit: the one balance reader (AvailableCredit + AvailableMessages of any client: the session's
// for the app's credit, a child's for its balance), the signed-in account's last credit with `low`
// from settings.lowCreditThreshold, and 'credit:changed'.
import type { GatewayClient } from '../client/gateway-client.ts';
import type { Emit } from './app-options.ts';
import type { Session } from './session.ts';
import { ApiError } from './validate-args.ts';
import type { MessengerApi } from '../../preload/api.ts';
import type { AccountSummary, Balance, Credit, DeliveryRate, Settings } from '../../domain/index.ts';

export interface CreditDeps {
  sessions: { require(): Session; current(): Session | null };
  settings(): Settings;
  emit: Emit;
  /** Issue 26: the message prices of an account against a balance just read (rates.ts). */
  rates?: (accountId: string, balance: Balance) => DeliveryRate[];
}

/**
 * The balance of the account `client` signs in as. `unavailable` starts the error's message when
 * the gateway gives no credit (refused: gateway-refused, otherwise gateway-unavailable).
 */
export async function readBalance(client: GatewayClient, unavailable: string): Promise<Balance> {
  const [c, m] = await Promise.all([client.availableCredit(), client.availableMessages()]);
  if (c.outcome !== 'ok') {
    throw new ApiError(
      c.outcome === 'rejected' ? 'gateway-refused' : 'gateway-unavailable',
      `${unavailable}: ${c.reason}`,
    );
  }
  return {
    currency: c.value.currency,
    credit: c.value.credit,
    availableMessages: m.outcome === 'ok' ? String(m.value) : null,
  };
}

export function createCredit(deps: CreditDeps) {
  let credit: Credit | null = null;

  /** `onBalance` sees the balance first (issue 26: a price learned from it is in the rates emitted). */
  async function refresh(onBalance?: (balance: Balance) => void): Promise<Credit> {
    const s = deps.sessions.require();
    const balance = await readBalance(s.client, 'credit not available');
    onBalance?.(balance);
    const read: Credit = {
      ...balance,
      fetchedAt: Date.now(),
      low: Number(balance.credit) < deps.settings().lowCreditThreshold,
      ...(deps.rates ? { rates: deps.rates(s.account.id, balance) } : {}),
    };
    // An answer for a session that has ended since is not the credit of the account now signed in.
    if (deps.sessions.current() !== s) return read;
    credit = read;
    deps.emit('credit:changed', credit);
    return credit;
  }

  const api: MessengerApi['credit'] = {
    get: async () => credit,
    refresh: () => refresh(),
  };

  /** Issue 26: the prices again (a price set or learned) on the credit last read. */
  function rerate(): void {
    const s = deps.sessions.current();
    if (!credit || !s || !deps.rates) return;
    credit = { ...credit, rates: deps.rates(s.account.id, credit) };
    deps.emit('credit:changed', credit);
  }

  return {
    api,
    refresh,
    rerate,
    /** Signed out: no credit to show (a sign-in to another account keeps it until its own arrives). */
    sessionEnded(_session: Session, next?: AccountSummary): void {
      if (next === undefined) credit = null;
    },
    /** A new low-credit threshold re-marks the credit shown. */
    settingsChanged(before: Settings, after: Settings): void {
      if (credit && after.lowCreditThreshold !== before.lowCreditThreshold) {
        credit = { ...credit, low: Number(credit.credit) < after.lowCreditThreshold };
        deps.emit('credit:changed', credit);
      }
      if (JSON.stringify(after.deliveryRates) !== JSON.stringify(before.deliveryRates)) rerate();
    },
    close(): void {},
  };
}
