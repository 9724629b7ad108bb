import { useState } from 'react';
import type { Credit } from '../../preload/api.ts';
import { api, errorText } from '../api.ts';

/** Credit, always visible: amount + currency, approximate messages, refresh, low warning. */
export function CreditBadge({
  credit,
  onRefresh,
}: {
  credit: Credit | null;
  onRefresh: (c: Credit) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => {
    setBusy(true);
    setError(null);
    api()
      .credit.refresh()
      .then(onRefresh, (e: unknown) => setError(errorText(e)))
      .finally(() => setBusy(false));
  };
  return (
    <section className={credit?.low ? 'credit low' : 'credit'} aria-label="Credit" data-testid="credit">
      <div className="credit-amount" aria-live="polite">
        {credit ? (
          <>
            <strong data-testid="credit-amount">{credit.credit}</strong> {credit.currency}
          </>
        ) : (
          '—'
        )}
      </div>
      {credit && credit.availableMessages !== null ? (
        <div className="muted">≈ {credit.availableMessages} messages</div>
      ) : null}
      {credit?.low ? (
        <div className="warn-text" role="status">
          Credit is low
        </div>
      ) : null}
      {error ? (
        <div className="error" role="alert">
          {error}
        </div>
      ) : null}
      <button type="button" className="link" onClick={refresh} disabled={busy}>
        {busy ? 'Refreshing…' : 'Refresh credit'}
      </button>
    </section>
  );
}
