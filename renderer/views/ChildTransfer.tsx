// Transfer funds between the account and a TRANSFER child (spec manageaccount TransferFunds), by
// GBP amount or by messages, in either direction; asked first through the Dialog with the amount as
// money (issue 26). Moved out of ./ChildAccounts.tsx, which holds the list and the create form.
import { useState, type FormEvent } from 'react';
import type { AccountSummary, Balance, ChildAccount, Credit, TransferDirection } from '../../preload/api.ts';
import { LIMITS, TRANSFER_CURRENCY } from '../../protocol/limits.ts';
import { api } from '../api.ts';
import { useDialog } from '../components/Dialog.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import { useAction } from '../hooks/useAction.ts';

/**
 * An amount as money: at least two decimals, the zeros a gateway pads beyond them dropped ("30.2" →
 * "30.20", "2.0000" → "2.00", "0.0425" stays). Digits only, never through a float. As given when
 * it is not a decimal.
 */
export function moneyText(amount: string): string {
  const m = /^(\d+)(?:\.(\d*))?$/.exec(amount.trim());
  if (!m) return amount.trim();
  const whole = m[1]!.replace(/^0+(?=\d)/, '');
  const fraction = (m[2] ?? '').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction}`;
}

/** "10 messages (≈ 0.50 GBP at your credit's rate)": what a transfer by messages costs, when the credit says. */
function messagesText(n: number, credit: Credit | null): string {
  const words = `${n.toLocaleString()} message${n === 1 ? '' : 's'}`;
  const per =
    credit && credit.availableMessages ? Number(credit.credit) / Number(credit.availableMessages) : NaN;
  return Number.isFinite(per) && per > 0
    ? `${words} (≈ ${(n * per).toFixed(2)} ${credit!.currency} at your credit's rate)`
    : words;
}

function balanceText(b: Balance): string {
  return `${moneyText(b.credit)} ${b.currency}${b.availableMessages !== null ? ` (≈ ${b.availableMessages} messages)` : ''}`;
}

export function TransferForm({
  account,
  childAccounts,
}: {
  account: AccountSummary;
  childAccounts: ChildAccount[];
}) {
  const transferable = childAccounts.filter((c) => c.type === 'TRANSFER');
  const [username, setUsername] = useState('');
  const [direction, setDirection] = useState<TransferDirection>('toChild');
  const [by, setBy] = useState<'amount' | 'messages'>('amount');
  const [value, setValue] = useState('');
  const [pin, setPin] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const target = username || transferable[0]?.username || '';
  // The transfer's busy state; its error slot also shows the form's own checks and the balance's.
  const transfer = useAction(async () => {
    const r = await api().children.transfer({
      username: target,
      direction,
      ...(by === 'amount' ? { amount: value.trim() } : { messages: Number(value.trim()) }),
      ...(pin !== '' ? { childPin: pin } : {}),
    });
    const moved = by === 'amount' ? `${moneyText(value)} ${TRANSFER_CURRENCY}` : `${value.trim()} messages`;
    setResult(
      `Moved ${moved} ${direction === 'toChild' ? `to ${target}` : `from ${target} to ${account.username}`}. ` +
        `Your credit: ${moneyText(r.parent.credit)} ${r.parent.currency}` +
        (r.child ? `; ${target}: ${balanceText(r.child)}.` : '.'),
    );
    setValue('');
    setPin('');
  });
  const { busy, error, setError } = transfer;

  const problem = (): string | null => {
    if (target === '') return 'Choose a TRANSFER child account.';
    if (by === 'amount' && !/^\d{1,7}(\.\d{1,2})?$/.test(value.trim()))
      return `Enter the amount in ${TRANSFER_CURRENCY}, such as 2.50.`;
    if (by === 'amount' && !(Number(value) > 0))
      return `The amount must be more than 0 ${TRANSFER_CURRENCY}.`;
    if (by === 'messages' && !/^[1-9]\d{0,8}$/.test(value.trim()))
      return 'Enter a whole number of messages, 1 or more.';
    if (direction === 'toParent' && pin === '')
      return `The PIN of ${target} is needed: the paying account signs the transfer.`;
    return null;
  };

  const dialog = useDialog();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const p = problem();
    setResult(null);
    setError(p);
    if (p) return;
    // Issue 26: money moves only once the person has seen how much, as money, and where to.
    const what =
      by === 'amount'
        ? `${moneyText(value)} ${TRANSFER_CURRENCY}`
        : messagesText(
            Number(value.trim()),
            await api()
              .credit.get()
              .catch(() => null),
          );
    const yes = await dialog.confirm({
      title: 'Transfer funds?',
      message:
        direction === 'toChild'
          ? `Move ${what} from ${account.username} to ${target}?`
          : `Move ${what} from ${target} to ${account.username}?`,
      confirmLabel: 'Transfer',
      cancelLabel: 'Go back',
    });
    if (yes) void transfer.run();
  };

  const showBalance = () => {
    if (target === '' || pin === '') {
      setError(`Enter the PIN of ${target || 'the child'} to read its balance.`);
      return;
    }
    setError(null);
    api()
      .children.balance({ username: target, pin })
      .then(
        (b) => setResult(`${target}: ${balanceText(b)}.`),
        (err: unknown) => setError(err),
      );
  };

  return (
    <form className="card child-form" onSubmit={(e) => void submit(e)} aria-label="Transfer funds" noValidate>
      <h2>Transfer funds</h2>
      {transferable.length === 0 ? (
        <p className="muted">Transfers go between you and a TRANSFER child; create one first.</p>
      ) : null}
      <div className="grid2">
        <label>
          Child account
          <select value={target} onChange={(e) => setUsername(e.target.value)}>
            {transferable.map((c) => (
              <option key={c.username} value={c.username}>
                {c.username}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="choice">
          <legend>Direction</legend>
          <label className="check">
            <input
              type="radio"
              name="direction"
              checked={direction === 'toChild'}
              onChange={() => setDirection('toChild')}
            />{' '}
            From {account.username} to the child
          </label>
          <label className="check">
            <input
              type="radio"
              name="direction"
              checked={direction === 'toParent'}
              onChange={() => setDirection('toParent')}
            />{' '}
            From the child to {account.username}
          </label>
        </fieldset>
        <fieldset className="choice">
          <legend>Transfer by</legend>
          <label className="check">
            <input type="radio" name="by" checked={by === 'amount'} onChange={() => setBy('amount')} /> Amount
            in {TRANSFER_CURRENCY}
          </label>
          <label className="check">
            <input type="radio" name="by" checked={by === 'messages'} onChange={() => setBy('messages')} />{' '}
            Number of messages
          </label>
        </fieldset>
        <label>
          {by === 'amount' ? `Amount (${TRANSFER_CURRENCY})` : 'Messages'}
          <input
            value={value}
            inputMode={by === 'amount' ? 'decimal' : 'numeric'}
            placeholder={by === 'amount' ? '2.50' : '10'}
            onChange={(e) => setValue(e.target.value)}
          />
        </label>
        <label>
          {direction === 'toParent' ? "Child's PIN (required)" : "Child's PIN (optional, to see its balance)"}
          <input
            type="password"
            value={pin}
            maxLength={LIMITS.pinMax}
            autoComplete="off"
            onChange={(e) => setPin(e.target.value)}
          />
        </label>
      </div>
      <p className="muted small">The child&apos;s PIN is used for this request only and never stored.</p>
      <ErrorText error={error} />
      {result ? (
        <p role="status" className="notice" data-testid="transfer-result">
          {result}
        </p>
      ) : null}
      <div className="row">
        <button type="submit" className="primary" disabled={busy || transferable.length === 0}>
          {busy ? 'Transferring…' : 'Transfer'}
        </button>
        <button type="button" onClick={showBalance} disabled={transferable.length === 0}>
          Show child&apos;s balance
        </button>
      </div>
    </form>
  );
}
