import { useEffect, useState, type FormEvent } from 'react';
import type { AccountSummary, EffectivePolicy, Settings, UpdateInfo } from '../../preload/api.ts';
import { api } from '../api.ts';
import { ErrorText } from '../components/ErrorText.tsx';

export function Account({ account, onSignedOut }: { account: AccountSummary; onSignedOut: () => void }) {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [draft, setDraft] = useState<Settings | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [update, setUpdate] = useState<UpdateInfo | null>(null);
  // The deploy policy's bounds of the poll interval (docs/ADMIN.md); 5–3600 s without a policy.
  const [poll, setPoll] = useState<EffectivePolicy['pollIntervalSeconds']>({ min: 5, max: 3600 });

  useEffect(() => {
    api()
      .policy.get()
      .then(
        (p) => setPoll(p.pollIntervalSeconds),
        () => undefined,
      );
    api()
      .settings.get()
      .then(
        (s) => {
          setSettings(s);
          setDraft(s);
        },
        (e: unknown) => setError(e),
      );
  }, []);

  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    setError(null);
    api()
      .settings.update(draft)
      .then(
        (s) => {
          setSettings(s);
          setDraft(s);
          setNotice('Settings saved.');
        },
        (err: unknown) => setError(err),
      );
  };
  const set = <K extends keyof Settings>(k: K, v: Settings[K]) => setDraft((d) => (d ? { ...d, [k]: v } : d));

  return (
    <section className="view account" aria-labelledby="account-title">
      <h1 id="account-title">Account</h1>
      {account.insecure ? (
        <p role="alert" className="banner error" data-testid="insecure-gateway">
          This account signs in over plain http: the PIN and every message travel unencrypted and can be read
          on the network. Ask for the gateway&apos;s https address and sign in again with it.
        </p>
      ) : null}
      <div className="card">
        <dl className="facts">
          <dt>Account</dt>
          <dd>{account.sandbox ? 'Local sandbox (demo account)' : account.label || account.username}</dd>
          <dt>Username</dt>
          <dd>{account.username}</dd>
          <dt>Gateway</dt>
          <dd>
            {account.primaryUrl}
            {account.secondaryUrl ? `, ${account.secondaryUrl}` : ''}
          </dd>
          <dt>PIN</dt>
          <dd>{account.pinStored ? 'stored in the OS keyring' : 'not stored'}</dd>
        </dl>
        <div className="row">
          <button
            type="button"
            className="danger"
            onClick={() =>
              void api()
                .accounts.signOut()
                .then(onSignedOut, (e: unknown) => setError(e))
            }
          >
            Sign out
          </button>
          <button
            type="button"
            onClick={() =>
              void api()
                .updates.check()
                .then(setUpdate, (e: unknown) => setError(e))
            }
          >
            Check for updates
          </button>
          {update ? (
            <span className="muted">
              {update.newer ? `Version ${update.version} is available.` : `Up to date (${update.version}).`}
            </span>
          ) : null}
        </div>
      </div>
      {draft && settings ? (
        <form className="card settings" onSubmit={save} aria-label="Settings">
          <h2>Settings</h2>
          <label>
            Check for messages every (seconds)
            <input
              type="number"
              min={poll.min}
              max={poll.max}
              aria-describedby="poll-bounds"
              value={draft.pollIntervalSeconds}
              onChange={(e) => set('pollIntervalSeconds', Number(e.target.value))}
            />
            <span id="poll-bounds" className="muted small">
              {poll.min} to {poll.max} seconds
              {poll.min !== 5 || poll.max !== 3600
                ? ' (set by your administrator; other values are clamped)'
                : ''}
            </span>
          </label>
          <label>
            Low-credit warning below
            <input
              type="number"
              min={0}
              step="any"
              value={draft.lowCreditThreshold}
              onChange={(e) => set('lowCreditThreshold', Number(e.target.value))}
            />
          </label>
          <label>
            Default country for national numbers
            <input
              value={draft.defaultCountry}
              maxLength={2}
              placeholder="GB"
              onChange={(e) => set('defaultCountry', e.target.value.toUpperCase())}
            />
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={draft.pushReceiver.enabled}
              onChange={(e) => set('pushReceiver', { ...draft.pushReceiver, enabled: e.target.checked })}
            />{' '}
            Receive pushed messages (push receiver)
          </label>
          {draft.pushReceiver.enabled ? (
            <label>
              Push receiver port (empty = any)
              <input
                type="number"
                min={1}
                max={65535}
                value={draft.pushReceiver.port ?? ''}
                onChange={(e) =>
                  set('pushReceiver', {
                    ...draft.pushReceiver,
                    port: e.target.value ? Number(e.target.value) : null,
                  })
                }
              />
            </label>
          ) : null}
          <label className="check">
            <input
              type="checkbox"
              checked={draft.notifications}
              onChange={(e) => set('notifications', e.target.checked)}
            />{' '}
            Desktop notifications
          </label>
          <label>
            Theme
            <select value={draft.theme} onChange={(e) => set('theme', e.target.value as Settings['theme'])}>
              <option value="system">Follow the system</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          </label>
          <ErrorText error={error} />
          {notice ? <p role="status">{notice}</p> : null}
          <button type="submit" className="primary">
            Save settings
          </button>
        </form>
      ) : (
        <ErrorText error={error} />
      )}
    </section>
  );
}
