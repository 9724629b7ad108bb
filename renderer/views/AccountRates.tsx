// Message prices in the Account settings (issue 26): the price of one message part per delivery
// option, in the account's currency. Empty: learned from what the gateway charges for a send, else
// counted from AvailableMessages. A price the deploy policy sets is shown, and not editable here.
import { useEffect, useState } from 'react';
import type { Credit, DeliveryOption, DeliveryRate, Settings } from '../../preload/api.ts';
import { DELIVERY_OPTIONS } from '../../protocol/limits.ts';
import { api } from '../api.ts';
import { money } from './compose/rates.ts';

/** The price in use when the field is empty, and where it came from (in the placeholder). */
const SHORT: Record<DeliveryRate['basis'], string> = {
  policy: 'administrator',
  setting: 'set here',
  learned: 'learned',
  availableMessages: 'AvailableMessages',
};

export function AccountRates({
  value,
  byPolicy,
  onChange,
}: {
  value: Settings['deliveryRates'];
  byPolicy: Partial<Record<DeliveryOption, string>>;
  onChange: (rates: Settings['deliveryRates']) => void;
}) {
  const [credit, setCredit] = useState<Credit | null>(null);
  useEffect(() => {
    api()
      .credit.get()
      .then(setCredit, () => undefined);
  }, []);
  return (
    <fieldset className="account-rates">
      <legend>Message prices{credit ? ` (${credit.currency} per message)` : ''}</legend>
      <p className="muted small" id="rates-note">
        Set the account&rsquo;s prices if you know them. Left empty, a price is learned from what the gateway
        charges for a send, else counted from AvailableMessages (the Premier price).
      </p>
      <div className="rates-grid">
        {DELIVERY_OPTIONS.map((option) => {
          const pinned = byPolicy[option];
          const now = credit?.rates?.find((r) => r.option === option);
          return (
            <label key={option}>
              {option}
              <input
                inputMode="decimal"
                aria-describedby="rates-note"
                value={pinned ?? value[option]}
                disabled={pinned !== undefined}
                placeholder={now ? `${money(now.price, now.currency)} (${SHORT[now.basis]})` : 'not set'}
                onChange={(e) => onChange({ ...value, [option]: e.target.value.trim() })}
              />
              {pinned !== undefined ? <span className="muted small">set by your administrator</span> : null}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
