import type { Credit } from '../../domain/index.ts';
import { api } from '../api.ts';
import { useAction } from '../hooks/useAction.ts';
import { ErrorText } from './ErrorText.tsx';
import { rateOf, rateText } from '../views/compose/rates.ts';

/** Credit, always visible: amount + currency, approximate messages, refresh, low warning. */
export function CreditBadge({
  credit,
  onRefresh,
}: {
  credit: Credit | null;
  onRefresh: (c: Credit) => void;
}) {
  const defaultRate = rateOf(credit, 'Default');
  const refresh = useAction(async () => onRefresh(await api().credit.refresh()));
  return (
    <section className={credit?.low ? 'credit low' : 'credit'} aria-label="Credit" data-testid="credit">
      <div className="credit-amount" aria-live="polite">
        {credit ? (
          <>
            {/* Two decimals are enough here; the exact balance is the tooltip. */}
            <strong data-testid="credit-amount" title={`${credit.credit} ${credit.currency}`}>
              {Number.isFinite(Number(credit.credit)) ? Number(credit.credit).toFixed(2) : credit.credit}
            </strong>{' '}
            {credit.currency}
          </>
        ) : (
          '—'
        )}
      </div>
      {defaultRate && defaultRate.messages !== null ? (
        // Issue 26: counted at the Default price when it is known (AvailableMessages counts Premier).
        <div
          className="muted"
          title={`Default delivery ${rateText(defaultRate)}`}
          data-testid="credit-messages"
        >
          ≈ {defaultRate.messages.toLocaleString()} messages
        </div>
      ) : credit && credit.availableMessages !== null ? (
        <div className="muted">≈ {credit.availableMessages} messages</div>
      ) : null}
      {credit?.low ? (
        <div className="warn-text" role="status">
          Credit is low
        </div>
      ) : null}
      <ErrorText error={refresh.error} />
      <button type="button" className="link" onClick={() => void refresh.run()} disabled={refresh.busy}>
        {refresh.busy ? 'Refreshing…' : 'Refresh credit'}
      </button>
    </section>
  );
}
