// Money and tariffs. Credit is kept as an integer count of ten-thousandths of GBP (the spec's four
// decimal places, spec 2.1), so sums and comparisons are exact; strings only at the edges.
import type { DatabaseSync } from 'node:sqlite';
import { stmt } from './store/db.ts';
import { DEFAULT_CURRENCY } from '../protocol/limits.ts';
import type { DeliveryOption } from '../protocol/limits.ts';

export const CURRENCY = DEFAULT_CURRENCY;
// The money format is protocol/money.ts's (the app reads prices with the same rules).
export { MONEY_SCALE, formatMoney, parseMoney } from '../protocol/money.ts';

/** Price of one message part per DeliveryServiceOption, in ten-thousandths. */
export type Tariffs = Record<DeliveryOption, number>;

export function loadTariffs(db: DatabaseSync): Tariffs {
  const rows = stmt(db, 'SELECT delivery_option, price FROM tariffs').all() as Array<{
    delivery_option: string;
    price: number;
  }>;
  const t: Tariffs = { Default: 400, Premier: 500, LeastCost: 300, Economy: 250 };
  for (const r of rows) {
    if (r.delivery_option in t) t[r.delivery_option as DeliveryOption] = r.price;
  }
  return t;
}

/** Price of one part in a delivery class (unknown classes cost as Default). */
export function priceOf(tariffs: Tariffs, deliveryOption: string | undefined): number {
  return tariffs[(deliveryOption ?? 'Default') as DeliveryOption] ?? tariffs.Default;
}

/** AvailableMessages: approximate count of premier messages the credit buys (spec 4.3). */
export function availableMessages(credit: number, tariffs: Tariffs): number {
  return Math.floor(credit / tariffs.Premier);
}
