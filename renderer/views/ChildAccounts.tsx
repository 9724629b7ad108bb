// The "Accounts" view: child accounts of the signed-in account (manageaccount, spec 4.4). Shown
// only when the gateway grants the restricted-service permission (children.permitted()). Create a
// TRANSFER or SHARED child (fields checked with protocol/ as the user submits), its Username and
// PIN shown once with Copy buttons, transfers by GBP amount or by messages in either direction
// (from the child with its PIN, never stored), delete after a confirmation dialog.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { AccountSummary, ChildAccount, ChildCreated, ChildCreateRequest } from '../../domain/index.ts';
import { CHILD_ACCOUNT_TYPES, type ChildAccountType } from '../../protocol/limits.ts';
import { childAccountFields, tidyChildAccount } from '../../protocol/child-account.ts';
import { validateRequest } from '../../protocol/validate.ts';
import { api } from '../api.ts';
import { Dialog } from '../components/Dialog.tsx';
import { TransferForm } from './ChildTransfer.tsx';
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
    // Issue 26: the problem in the field's own words ("E-mail is required"), not the spec's name.
    const problem = problems.get(name)?.replaceAll(name, label.replace(/ \(.*\)$/, ''));
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
