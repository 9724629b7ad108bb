// The question before money is spent (issue 12): a send above settings.confirmAboveRecipients, or
// one the credit does not cover, shows its recipients, parts, estimated messages and the credit
// available; the user sends anyway, sends to the first K the credit covers, or goes back.
import { useId } from 'react';
import type { SendEstimate } from '../../../domain/index.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { plural } from '../../format.ts';
import { basisText, money, rateText } from './rates.ts';

/** 'all', 'first' (the first affordableRecipients), or null to go back. */
export type SendChoice = 'all' | 'first' | null;

export function SendConfirm({
  estimate,
  onAnswer,
}: {
  estimate: SendEstimate;
  onAnswer: (choice: SendChoice) => void;
}) {
  const id = useId();
  const e = estimate;
  const short = e.wouldFail > 0;
  const k = e.affordableRecipients ?? 0;
  // A mail merge: recipients' texts differ in length, so the parts are the longest text's.
  const varies = e.messages !== e.recipients * e.segments;
  return (
    <Dialog
      title={
        short
          ? 'Not enough credit for this send'
          : e.recipients > e.confirmAbove
            ? 'Send to many recipients?'
            : 'Send a long message?'
      }
      onCancel={() => onAnswer(null)}
      describedBy={id}
      className="send-confirm"
    >
      <dl id={id} className="send-figures" data-testid="send-confirm">
        <dt>Recipients</dt>
        <dd>{e.recipients.toLocaleString()}</dd>
        {e.reached?.length ? (
          <>
            <dt>Through server books and Cc/Bcc</dt>
            <dd data-testid="send-confirm-reached">
              {e.reached
                .map((r) => `${r.label}: ${r.reach === null ? 'size not known' : r.reach.toLocaleString()}`)
                .join(', ')}
            </dd>
          </>
        ) : null}
        <dt>{varies ? 'Parts per message (the longest)' : 'Parts per message'}</dt>
        <dd>{varies ? `up to ${e.segments}` : e.segments}</dd>
        <dt>Estimated messages</dt>
        <dd>{e.messages.toLocaleString()}</dd>
        {e.rate && e.cost ? (
          <>
            <dt>Estimated cost</dt>
            <dd data-testid="send-confirm-cost">
              {money(e.cost, e.rate.currency)} {rateText(e.rate)}
            </dd>
          </>
        ) : null}
        <dt>Credit available</dt>
        <dd>
          {e.availableMessages === null
            ? 'not known'
            : `${plural(e.availableMessages, 'message')}${e.credit ? ` (${money(e.credit.amount, e.credit.currency)})` : ''}`}
        </dd>
      </dl>
      {e.byOption && e.byOption.length > 1 ? <ByOption estimate={e} /> : null}
      {e.longMessage ? (
        <p className="warning" data-testid="long-message">
          {varies
            ? `The longest merged text has ${e.segments} parts: it costs ${e.segments} messages' credit for its recipient.`
            : `Each recipient gets ${e.segments} parts: the message costs ${e.segments} messages' credit per recipient.`}
        </p>
      ) : null}
      {short ? (
        <p className="warning">
          The credit runs out after {plural(k, 'recipient')}: {plural(e.wouldFail, 'recipient')} would fail.
        </p>
      ) : null}
      {e.optedOut > 0 ? (
        <p className="muted small">{plural(e.optedOut, 'opted-out number')} left out: never sent to.</p>
      ) : null}
      {e.duplicates > 0 || e.invalid > 0 ? (
        <p className="muted small">
          {plural(e.duplicates, 'duplicate')} removed, {plural(e.invalid, 'invalid entry', 'invalid entries')}{' '}
          not sent.
        </p>
      ) : null}
      <div className="row dialog-buttons">
        {short && k > 0 ? (
          <button type="button" className="primary" onClick={() => onAnswer('first')}>
            Send to the first {k.toLocaleString()}
          </button>
        ) : null}
        <button type="button" className={short ? undefined : 'primary'} onClick={() => onAnswer('all')}>
          {short ? 'Send to all anyway' : `Send to ${plural(e.recipients, 'recipient')}`}
        </button>
        <button type="button" onClick={() => onAnswer(null)} data-autofocus={short || undefined}>
          Go back
        </button>
      </div>
    </Dialog>
  );
}

/** Issue 26: the same send's cost with each delivery option, and what the credit buys at it. */
function ByOption({ estimate: e }: { estimate: SendEstimate }) {
  return (
    <details className="by-option">
      <summary>Cost with each delivery option</summary>
      <table data-testid="send-confirm-options">
        <thead>
          <tr>
            <th scope="col">Delivery</th>
            <th scope="col">Cost</th>
            <th scope="col">Credit buys</th>
            <th scope="col">Price</th>
          </tr>
        </thead>
        <tbody>
          {e.byOption!.map((r) => (
            <tr key={r.option} aria-current={r.option === e.rate?.option || undefined}>
              <th scope="row">{r.option}</th>
              <td>{money(r.cost, r.currency)}</td>
              <td>{r.messages === null ? 'not known' : plural(r.messages, 'message')}</td>
              <td>
                {money(r.price, r.currency)}, {basisText(r)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
