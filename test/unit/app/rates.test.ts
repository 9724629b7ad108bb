// Message prices (issue 26): the policy's price wins over the setting's, the setting's over the
// learned one, the learned over AvailableMessages; each says its basis and what the credit buys.
import { describe, expect, it } from 'vitest';
import { ratesFor } from '../../../main/services/rates.ts';

const balance = { currency: 'GBP', credit: '10.0000', availableMessages: '200' };
const none = { Default: '', Premier: '', LeastCost: '', Economy: '' };

describe('message prices', () => {
  it('counts from AvailableMessages when nothing else is known (the Premier price)', () => {
    expect(ratesFor(balance, { policy: {}, setting: none, learned: [] })).toEqual(
      ['Default', 'Premier', 'LeastCost', 'Economy'].map((option) => ({
        option,
        price: '0.0500',
        currency: 'GBP',
        basis: 'availableMessages',
        messages: 200,
      })),
    );
    // A price that does not divide the credit is rounded up: never more messages than it says.
    const odd = ratesFor({ ...balance, availableMessages: '3' }, { policy: {}, setting: none, learned: [] });
    expect(odd[0]).toMatchObject({ price: '3.3334', messages: 3 });
  });

  it('takes the policy, then the setting, then the learned price, each with what the credit buys', () => {
    const rates = ratesFor(balance, {
      policy: { Default: '0.0400' },
      setting: { ...none, Default: '0.09', LeastCost: '0.03' },
      learned: [
        { option: 'LeastCost', priceUnits: 100, currency: 'GBP', learnedAt: 5 },
        { option: 'Economy', priceUnits: 250, currency: 'GBP', learnedAt: 7 },
        // learned in another currency: not this balance's price
        { option: 'Premier', priceUnits: 450, currency: 'EUR', learnedAt: 9 },
      ],
    });
    expect(rates.map((r) => [r.option, r.basis, r.price, r.messages, r.learnedAt])).toEqual([
      ['Default', 'policy', '0.0400', 250, undefined],
      ['Premier', 'availableMessages', '0.0500', 200, undefined],
      ['LeastCost', 'setting', '0.0300', 333, undefined],
      ['Economy', 'learned', '0.0250', 400, 7],
    ]);
  });

  it('leaves out an option with no price and no AvailableMessages', () => {
    expect(
      ratesFor({ ...balance, availableMessages: null }, { policy: {}, setting: none, learned: [] }),
    ).toEqual([]);
  });
});
