// The "Accounts" view: child accounts of the signed-in account (manageaccount, spec 4.4). Shown
// only when the gateway grants the restricted-service permission (children.permitted()). Create a
// TRANSFER or SHARED child (fields checked with protocol/ as the user submits), its Username and
// PIN shown once with Copy buttons, transfers by GBP amount or by messages in either direction
// (from the child with its PIN, never stored), delete after a confirmation dialog.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type {
  AccountSummary,
  Balance,
  ChildAccount,
  ChildCreated,
  ChildCreateRequest,
  TransferDirection,
} from '../../domain/index.ts';
import {
  CHILD_ACCOUNT_TYPES,
  LIMITS,
  TRANSFER_CURRENCY,
  type ChildAccountType,
} from '../../protocol/limits.ts';
import { childAccountFields, tidyChildAccount } from '../../protocol/child-account.ts';
import { validateRequest } from '../../protocol/validate.ts';
import { api } from '../api.ts';
import { Dialog } from '../components/Dialog.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import { useAction } from '../hooks/useAction.ts';

const TYPE_TEXT: Record<ChildAccountType, string> = {
  TRANSFER: 'TRANSFER — gets credit by transfer from you',
  SHARED: 'SHARED — spends your credit',
};

/** Problems of a create request by spec field name (protocol/ rules, Username/PIN are the session's). */
function createProblems(form: ChildCreateRequest, defaultCountry: string): Map<string, string> {
  const { request, mobileProblem } = tidyChildAccount(form, defaultCountry);
  const fields = childAccountFields(request);
  const out = new Map<string, string>();
  for (const p of validateRequest('manageaccount', fields, 'content')) {
    if (!out.has(p.field)) out.set(p.field, p.message);
  }
  if (mobileProblem !== null && !out.has('CreateChildAccountMobileNumber')) {
    out.set('CreateChildAccountMobileNumber', mobileProblem);
  }
  return out;
}

function CopyField({ label, value }: { label: string; value: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const ref = useRef<HTMLInputElement>(null);
  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => setState('copied'),
      () => {
        // No clipboard permission: select it so Ctrl/Cmd+C copies it.
        ref.current?.select();
        setState('failed');
      },
    );
  };
  return (
    <div className="copy-field">
      <label>
        {label}
        <input ref={ref} readOnly value={value} className="mono" onFocus={(e) => e.target.select()} />
      </label>
      <button type="button" onClick={copy} aria-label={`Copy ${label}`}>
        Copy
      </button>
      <span role="status" className={state === 'failed' ? 'warn-text small' : 'notice small'}>
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Selected: press Ctrl+C (⌘C) to copy' : ''}
      </span>
    </div>
  );
}

function balanceText(b: Balance): string {
  return `${b.credit} ${b.currency}${b.availableMessages !== null ? ` (≈ ${b.availableMessages} messages)` : ''}`;
}

const EMPTY: ChildCreateRequest = {
  type: 'TRANSFER',
  email: '',
  telephoneCountryCode: '44',
  mobileNumber: '',
  givenName: '',
  familyName: '',
  companyName: '',
};

export function ChildAccounts({ account }: { account: AccountSummary }) {
  const [children, setChildren] = useState<ChildAccount[]>([]);
  const [country, setCountry] = useState('GB');
  const [form, setForm] = useState<ChildCreateRequest>(EMPTY);
  const [problems, setProblems] = useState<Map<string, string>>(new Map());
  const [created, setCreated] = useState<ChildCreated | null>(null);
  const [listError, setListError] = useState<unknown>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);

  const reload = () =>
    void api()
      .children.list()
      .then(setChildren, (e: unknown) => setListError(e));
  const creating = useAction(async (request: ChildCreateRequest) => {
    setCreated(await api().children.create(request));
    setForm(EMPTY);
    reload();
  });
  useEffect(() => {
    reload();
    api()
      .settings.get()
      .then(
        (s) => setCountry(s.defaultCountry),
        () => undefined,
      );
  }, []);

  const set = <K extends keyof ChildCreateRequest>(k: K, v: ChildCreateRequest[K]) => {
    const next = { ...form, [k]: v };
    setForm(next);
    if (problems.size > 0) setProblems(createProblems(next, country));
  };

  const create = (e: FormEvent) => {
    e.preventDefault();
    const found = createProblems(form, country);
    setProblems(found);
    if (found.size > 0) return;
    void creating.run(form);
  };

  const field = (
    name: string,
    label: string,
    key: Exclude<keyof ChildCreateRequest, 'type'>,
    extra: { type?: string; required?: boolean; maxLength?: number; inputMode?: 'numeric' | 'tel' } = {},
  ) => {
    const problem = problems.get(name);
    const id = `child-${key}`;
    return (
      <label>
        {label}
        <input
          id={id}
          type={extra.type ?? 'text'}
          value={form[key] ?? ''}
          required={extra.required}
          maxLength={extra.maxLength}
          inputMode={extra.inputMode}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(e) => set(key, e.target.value)}
        />
        {problem ? (
          <span id={`${id}-problem`} className="error small">
            {problem}
          </span>
        ) : null}
      </label>
    );
  };

  return (
    <section className="view children" aria-labelledby="children-title">
      <h1 id="children-title">Accounts</h1>
      <p className="muted">
        Child accounts of <strong>{account.username}</strong>. A TRANSFER child gets credit only by transfer;
        a SHARED child spends your credit.
      </p>
      <ErrorText error={creating.error !== null ? creating.error : listError} />

      {created ? (
        <div className="card created" role="region" aria-label="New child account">
          <h2>Child account {created.child.username} created</h2>
          <p className="warn-text" data-testid="pin-once">
            The PIN is shown only once. Copy it now and give it to the account&apos;s user: Messenger does not
            keep it, and the gateway cannot show it again.
          </p>
          <CopyField label="Username" value={created.child.username} />
          <CopyField label="PIN" value={created.pin} />
          <div className="row">
            <button type="button" className="primary" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      ) : null}

      <form className="card child-form" onSubmit={create} aria-label="Create a child account" noValidate>
        <h2>Create a child account</h2>
        <fieldset className="choice">
          <legend>Type</legend>
          {CHILD_ACCOUNT_TYPES.map((t) => (
            <label key={t} className="check">
              <input
                type="radio"
                name="child-type"
                value={t}
                checked={form.type === t}
                onChange={() => set('type', t)}
              />{' '}
              {TYPE_TEXT[t]}
            </label>
          ))}
        </fieldset>
        <div className="grid2">
          {field('CreateChildAccountEmail', 'E-mail', 'email', { type: 'email', required: true })}
          {field('CreateChildAccountTelephoneCountryCode', 'Country code (no +)', 'telephoneCountryCode', {
            required: true,
            inputMode: 'numeric',
            maxLength: 4,
          })}
          {field('CreateChildAccountMobileNumber', 'Mobile number', 'mobileNumber', {
            type: 'tel',
            required: true,
            inputMode: 'tel',
          })}
          {field('CreateChildAccountGivenName', 'Given name (optional)', 'givenName')}
          {field('CreateChildAccountFamilyName', 'Family name (optional)', 'familyName')}
          {field('CreateChildAccountCompanyName', 'Company (optional)', 'companyName')}
        </div>
        {problems.size > 0 ? (
          <p role="alert" className="error">
            {problems.size === 1 ? 'One field needs' : `${problems.size} fields need`} attention before the
            account can be created.
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={creating.busy}>
          {creating.busy ? 'Creating…' : 'Create child account'}
        </button>
      </form>

      <div className="card">
        <h2>Child accounts created here</h2>
        {children.length === 0 ? (
          <p className="muted">
            None yet. The gateway has no list of children: this list shows those created in this app.
          </p>
        ) : (
          <table className="table" aria-label="Child accounts">
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Type</th>
                <th scope="col">Contact</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {children.map((c) => (
                <tr key={c.username}>
                  <td className="mono">{c.username}</td>
                  <td>{c.type}</td>
                  <td>
                    {[c.givenName, c.familyName].filter(Boolean).join(' ')}
                    {c.companyName ? ` (${c.companyName})` : ''} {c.email}, +{c.mobileNumber}
                  </td>
                  <td>{new Date(c.createdAt).toLocaleDateString()}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="danger"
                      aria-label={`Delete ${c.username}`}
                      onClick={() => setConfirmDelete(c.username)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>

      <TransferForm account={account} childAccounts={children} />

      {confirmDelete !== null ? (
        <ConfirmDelete
          username={confirmDelete}
          type={children.find((c) => c.username === confirmDelete)?.type ?? null}
          onClose={() => setConfirmDelete(null)}
          onDeleted={() => {
            setConfirmDelete(null);
            reload();
          }}
        />
      ) : null}
    </section>
  );
}

function ConfirmDelete({
  username,
  type,
  onClose,
  onDeleted,
}: {
  username: string;
  type: ChildAccountType | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const removing = useAction(async () => {
    await api().children.delete(username);
    onDeleted();
  });
  return (
    <Dialog title={`Delete ${username}?`} onCancel={onClose}>
      <p>
        The child account is deleted at the gateway and cannot be restored.
        {type === 'TRANSFER' ? ' Its remaining credit returns to your account.' : ''}
      </p>
      <ErrorText error={removing.error} />
      <div className="row dialog-buttons">
        <button type="button" className="danger" onClick={() => void removing.run()} disabled={removing.busy}>
          {removing.busy ? 'Deleting…' : 'Delete child account'}
        </button>
        <button type="button" onClick={onClose} data-autofocus>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}

function TransferForm({
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
    const moved = by === 'amount' ? `${value.trim()} ${TRANSFER_CURRENCY}` : `${value.trim()} messages`;
    setResult(
      `Moved ${moved} ${direction === 'toChild' ? `to ${target}` : `from ${target} to ${account.username}`}. ` +
        `Your credit: ${r.parent.credit} ${r.parent.currency}` +
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

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = problem();
    setResult(null);
    setError(p);
    if (p) return;
    void transfer.run();
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
    <form className="card child-form" onSubmit={submit} aria-label="Transfer funds" noValidate>
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
