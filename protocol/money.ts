// Money as the spec writes it (AvailableCredit's NN.NNNN, spec 4.3): kept as an integer count of
// ten-thousandths of the currency unit, so sums, differences and comparisons are exact; strings
// only at the edges. The gateway's tariffs and the app's message prices (issue 26) both use it.

/** Ten-thousandths per unit of the currency. */
export const MONEY_SCALE = 10_000;

/** "10", "10.5", "10.1234" → 101234 ten-thousandths; null for anything else (no sign, ≤ 4 decimals). */
export function parseMoney(text: string): number | null {
  const m = /^(\d{1,12})(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!m) return null;
  const whole = Number(m[1]);
  const frac = Number((m[2] ?? '').padEnd(4, '0'));
  return whole * MONEY_SCALE + frac;
}

/** 101234 → "10.1234" (always four decimals, spec 4.3 NN.NNNN). */
export function formatMoney(units: number): string {
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  return `${sign}${Math.floor(abs / MONEY_SCALE)}.${String(abs % MONEY_SCALE).padStart(4, '0')}`;
}

/** 400 → "0.04", 12345 → "1.2345": at least two decimals, no trailing zeros past them (for people). */
export function showMoney(units: number): string {
  return formatMoney(units)
    .replace(/(\.\d\d\d?)0+$/, '$1')
    .replace(/(\.\d\d)0$/, '$1');
}
