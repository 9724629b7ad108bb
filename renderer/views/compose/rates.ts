// Message prices in words (issue 26): "0.04 GBP per message, learned from your last send". The
// prices and their basis come with the credit (main/services/rates.ts).
import type { Credit, DeliveryOption, DeliveryRate } from '../../../preload/api.ts';
import { parseMoney, showMoney } from '../../../protocol/money.ts';

const BASIS: Record<DeliveryRate['basis'], string> = {
  policy: 'set by your administrator',
  setting: 'set in Account settings',
  learned: 'learned from your last send',
  availableMessages: 'from AvailableMessages (the Premier price; this option may cost less)',
};

/** Why the price is what it is. */
export function basisText(r: DeliveryRate): string {
  return r.basis === 'availableMessages' && r.option === 'Premier'
    ? 'from AvailableMessages'
    : BASIS[r.basis];
}

/** "0.04 GBP" (an amount of four decimals shown with at least two). */
export function money(amount: string, currency: string): string {
  const units = parseMoney(amount);
  return `${units === null ? amount : showMoney(units)} ${currency}`;
}

/** "at 0.04 GBP per message, learned from your last send" */
export function rateText(r: DeliveryRate): string {
  return `at ${money(r.price, r.currency)} per message, ${basisText(r)}`;
}

/** The price of `option` on the credit, null when not known. */
export function rateOf(credit: Credit | null, option: DeliveryOption): DeliveryRate | null {
  return credit?.rates?.find((r) => r.option === option) ?? null;
}

/** `messages` parts at `r`'s price, as money. */
export function costText(r: DeliveryRate, messages: number): string {
  const units = parseMoney(r.price);
  return units === null ? '' : `${showMoney(units * messages)} ${r.currency}`;
}
