// Message prices per delivery option (issue 26). AvailableMessages is "approximate; premier messages
// only" (spec 4.3): it counts the credit at the Premier price, while a Default send may cost less
// (the reference gateway: Premier 0.05, Default 0.04, LeastCost 0.03, Economy 0.025 GBP a part), so
// 10.00 GBP showed "200 available" where the gateway took 250 Default messages. A price comes from,
// in order: the deploy policy (the administrator), the Account settings, what the gateway charged
// for the account's last send with that option (the credit before and after, over the parts it
// accepted), else the credit over AvailableMessages (an upper bound for options other than Premier).
import { DELIVERY_OPTIONS, type DeliveryOption } from '../../protocol/limits.ts';
import { formatMoney, parseMoney } from '../../protocol/money.ts';
import type { AppStore } from '../store/app-store.ts';
import { isMailMerge } from './mail-merge.ts';
import { partsPerRecipient } from './send-plan.ts';
import type { Balance, DeliveryRate, EffectivePolicy, OutboxJob, Settings } from '../../preload/api.ts';

const isOption = (o: string): o is DeliveryOption => (DELIVERY_OPTIONS as readonly string[]).includes(o);

/** What one price comes to against a balance: the parts the credit buys at it. */
function rateOf(
  option: DeliveryOption,
  units: number,
  balance: Balance,
  basis: DeliveryRate['basis'],
  learnedAt?: number,
): DeliveryRate {
  const credit = parseMoney(balance.credit);
  return {
    option,
    price: formatMoney(units),
    currency: balance.currency,
    basis,
    ...(learnedAt !== undefined ? { learnedAt } : {}),
    messages: credit === null ? null : Math.floor(credit / units),
  };
}

/**
 * The price of every delivery option against `balance`, each with its basis; an option with no
 * price known is left out (no AvailableMessages either).
 */
export function ratesFor(
  balance: Balance,
  sources: {
    policy: Partial<Record<DeliveryOption, string>>;
    setting: Record<DeliveryOption, string>;
    learned: ReadonlyArray<{ option: string; priceUnits: number; currency: string; learnedAt: number }>;
  },
): DeliveryRate[] {
  const out: DeliveryRate[] = [];
  const available =
    balance.availableMessages !== null && /^\d+$/.test(balance.availableMessages)
      ? Number(balance.availableMessages)
      : null;
  const credit = parseMoney(balance.credit);
  for (const option of DELIVERY_OPTIONS) {
    const set = (text: string | undefined) => (text ? parseMoney(text) : null);
    const byPolicy = set(sources.policy[option]);
    const bySetting = set(sources.setting[option]);
    const learned = sources.learned.find((l) => l.option === option && l.currency === balance.currency);
    if (byPolicy) out.push(rateOf(option, byPolicy, balance, 'policy'));
    else if (bySetting) out.push(rateOf(option, bySetting, balance, 'setting'));
    else if (learned) out.push(rateOf(option, learned.priceUnits, balance, 'learned', learned.learnedAt));
    else if (available !== null && available > 0 && credit !== null)
      out.push({
        option,
        // The Premier price AvailableMessages implies (rounded up: never more messages than it says).
        price: formatMoney(Math.ceil(credit / available)),
        currency: balance.currency,
        basis: 'availableMessages',
        messages: available,
      });
  }
  return out;
}

export interface RatesDeps {
  store: AppStore;
  policy: EffectivePolicy;
  settings(): Settings;
}

/** A send being watched for its price: the credit before it, and the job. */
export interface RateWatch {
  accountId: string;
  option: DeliveryOption;
  before: Balance;
  parts: number;
  /** Recipients the job had charged before `before` was read (a continued send's earlier batches). */
  chargedBefore: number;
}

export function createRates(deps: RatesDeps) {
  const learned = deps.store.learnedRates;
  const setting = (): Record<DeliveryOption, string> => deps.settings().deliveryRates;

  /** Whether the account's price for `option` is set (policy or setting): nothing to learn then. */
  const isSet = (option: DeliveryOption): boolean =>
    Boolean(deps.policy.deliveryRates[option]) || Boolean(setting()[option]);

  return {
    /** The rates of `accountId` against a balance just read. */
    forBalance(accountId: string, balance: Balance): DeliveryRate[] {
      return ratesFor(balance, {
        policy: deps.policy.deliveryRates,
        setting: setting(),
        learned: learned.list(accountId),
      });
    },
    /**
     * Whether a job's price can be learned: a text or flash send (its parts are known) to numbers
     * only (no address book whose reach may be unknown), one text for all (no mail merge), with an
     * option whose price is not set.
     */
    learnable(job: OutboxJob): DeliveryOption | null {
      const c = job.content;
      if (c.kind !== 'text' && c.kind !== 'flash') return null;
      if (isMailMerge(c) || job.extraReach !== undefined || job.accountId === null) return null;
      const option = c.deliveryOption ?? 'Default';
      return isOption(option) && !isSet(option) ? option : null;
    },
    /**
     * The price the gateway charged: the credit's drop over the parts it accepted (accepted or
     * queued, delivered or failed later: each was charged when accepted). Stored when it is a
     * price (the drop above 0 and the currency the same); returns it in units, else null.
     */
    learn(watch: RateWatch, after: Balance, acceptedRecipients: number, now = Date.now()): number | null {
      const a = parseMoney(watch.before.credit);
      const b = parseMoney(after.credit);
      const parts = (acceptedRecipients - watch.chargedBefore) * watch.parts;
      if (a === null || b === null || parts <= 0 || after.currency !== watch.before.currency) return null;
      const units = Math.round((a - b) / parts);
      if (units <= 0) return null;
      learned.put(watch.accountId, {
        option: watch.option,
        priceUnits: units,
        currency: after.currency,
        parts,
        learnedAt: now,
      });
      return units;
    },
  };
}

export type Rates = ReturnType<typeof createRates>;

/**
 * The sender's side of learning (sender.ts): `begin` reads the balance before a learnable job's
 * first request, `end` reads it after the job and learns the price from the two. Both are no-ops
 * for a job whose price is set or cannot be learned.
 */
export function rateWatcher(rates: Rates, readCredit: () => Promise<Balance>) {
  return {
    async begin(job: OutboxJob): Promise<RateWatch | null> {
      const option = rates.learnable(job);
      if (option === null || job.accountId === null) return null;
      // Read without 'credit:changed': nothing has changed yet for anyone showing the credit.
      const before = await readCredit().catch(() => null);
      return before
        ? {
            accountId: job.accountId,
            option,
            before,
            parts: partsOfJob(job),
            chargedBefore: chargedRecipients(job),
          }
        : null;
    },
    end(watch: RateWatch | null, after: Balance | null, job: OutboxJob | null): number | null {
      if (!watch || !after || !job) return null;
      return rates.learn(watch, after, chargedRecipients(job));
    },
  };
}

/** The parts each recipient of a job costs (the same for all: learnable jobs are not merged). */
export function partsOfJob(job: OutboxJob): number {
  return partsPerRecipient(job.content);
}

/** Accepted by the gateway (and so charged): every answered status but rejected and unknown. */
export function chargedRecipients(job: OutboxJob): number {
  const c = job.counts;
  return c.accepted + c.queued + c.delivered + c.failed;
}
