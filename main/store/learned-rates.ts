// Message prices learned from what the gateway charged (issue 26; migration 024): one row per
// account and delivery option, the latest send's price. services/rates.ts learns and reads them.
import type { AppDb } from './db.ts';
import { rowsAs } from './rows.ts';

export interface LearnedRate {
  option: string;
  /** Ten-thousandths of `currency` per message part (protocol/money.ts). */
  priceUnits: number;
  currency: string;
  /** The parts the price was learned over. */
  parts: number;
  learnedAt: number;
}

interface Row {
  delivery_option: string;
  price_units: number;
  currency: string;
  parts: number;
  learned_at: number;
}

export class LearnedRatesRepo {
  readonly #app: AppDb;

  constructor(app: AppDb) {
    this.#app = app;
  }

  list(accountId: string): LearnedRate[] {
    return rowsAs<Row>(
      this.#app.db
        .prepare('SELECT * FROM learned_rates WHERE account_id = ? ORDER BY delivery_option')
        .all(accountId),
    ).map((r) => ({
      option: r.delivery_option,
      priceUnits: r.price_units,
      currency: r.currency,
      parts: r.parts,
      learnedAt: r.learned_at,
    }));
  }

  put(accountId: string, rate: LearnedRate): void {
    this.#app.db
      .prepare(
        `INSERT INTO learned_rates (account_id, delivery_option, price_units, currency, parts, learned_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, delivery_option) DO UPDATE SET price_units = excluded.price_units,
           currency = excluded.currency, parts = excluded.parts, learned_at = excluded.learned_at`,
      )
      .run(accountId, rate.option, rate.priceUnits, rate.currency, rate.parts, rate.learnedAt);
  }
}
