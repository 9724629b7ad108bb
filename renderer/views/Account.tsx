import { useEffect, useState, type FormEvent } from 'react';
import type {
  AccountSummary,
  EffectivePolicy,
  Settings,
  SoapNamespaceInfo,
  UpdateInfo,
} from '../../domain/index.ts';
import { api } from '../api.ts';
import { ErrorText } from '../components/ErrorText.tsx';
import { plural } from '../format.ts';
import { CountryPicker, countryLabel } from './AccountCountry.tsx';
import { AccountRates } from './AccountRates.tsx';
import { AccountOffice } from './AccountOffice.tsx';
import { AccountBackups } from './AccountBackups.tsx';

/** What the saved settings now hold, for each one that the save changed (read back from the store). */
function describeChanges(before: Settings | null, after: Settings): string[] {
  const out: string[] = [];
  const onOff = (b: boolean) => (b ? 'on' : 'off');
  if (before?.defaultCountry !== after.defaultCountry)
    out.push(`default country ${countryLabel(after.defaultCountry)}`);
  if (before?.pollIntervalSeconds !== after.pollIntervalSeconds)
    out.push(`check every ${after.pollIntervalSeconds} s`);
  if (before?.lowCreditThreshold !== after.lowCreditThreshold)
    out.push(`low-credit warning below ${after.lowCreditThreshold}`);
  if (
    before?.pushReceiver.enabled !== after.pushReceiver.enabled ||
    before.pushReceiver.port !== after.pushReceiver.port
  )
    out.push(
      `push receiver ${onOff(after.pushReceiver.enabled)}${after.pushReceiver.enabled ? ` (port ${after.pushReceiver.port ?? 'any'})` : ''}`,
    );
  if (before?.notifications !== after.notifications) out.push(`notifications ${onOff(after.notifications)}`);
  if (before?.enterSends !== after.enterSends)
    out.push(after.enterSends ? 'Enter sends a reply' : 'Ctrl+Enter sends a reply');
  if (before?.confirmAboveRecipients !== after.confirmAboveRecipients)
    out.push(`ask before sending to more than ${plural(after.confirmAboveRecipients, 'recipient')}`);
  if (before?.theme !== after.theme) out.push(`theme ${after.theme}`);
  if (JSON.stringify(before?.deliveryRates) !== JSON.stringify(after.deliveryRates)) {
    const set = Object.entries(after.deliveryRates).filter(([, v]) => v !== '');
    out.push(
      set.length ? `message prices ${set.map(([k, v]) => `${k} ${v}`).join(', ')}` : 'message prices not set',
    );
  }
  if (before?.csvBom !== after.csvBom)
    out.push(after.csvBom ? 'CSV exports for spreadsheet programs' : 'CSV exports without a byte-order mark');
  return out;
}

const SOAP_SOURCE: Record<SoapNamespaceInfo['source'], string> = {
  wsdl: "from the gateway's WSDL",
  provider: "the provider's published value: the gateway's WSDL could not be read",
  pinned: 'set in the settings or by the deploy policy',
};

export function Account({ account, onSignedOut }: { account: AccountSummary; onSignedOut: () => void }) {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [draft, setDraft] = useState<Settings | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [update, setUpdate] = useState<UpdateInfo | null>(null);
  // The deploy policy's bounds of the poll interval (docs/ADMIN.md); 5–3600 s without a policy.
  const [poll, setPoll] = useState<EffectivePolicy['pollIntervalSeconds']>({ min: 5, max: 3600 });
  // issue 16: the SOAP types namespace in use and where it came from; a policy pin locks the field
  const [soap, setSoap] = useState<SoapNamespaceInfo | null>(null);
  const [soapPinnedByPolicy, setSoapPinnedByPolicy] = useState<string | null>(null);
  // issue 26: message prices the deploy policy sets (not editable here)
  const [ratesByPolicy, setRatesByPolicy] = useState<EffectivePolicy['deliveryRates']>({});
  useEffect(() => {
    api()
      .soap.namespace()
      .then(setSoap, () => undefined);
  }, [account]);

  useEffect(() => {
    api()
      .policy.get()
      .then(
        (p) => {
          setPoll(p.pollIntervalSeconds);
          setSoapPinnedByPolicy(p.soapTypesNamespace);
          setRatesByPolicy(p.deliveryRates);
        },
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
    if (Number.isNaN(draft.confirmAboveRecipients)) {
      setError(
        new Error('Type how many recipients a send may have before it asks (0: ask before every send).'),
      );
      return;
    }
    api()
      .settings.update(draft)
      .then(
        (s) => {
          const changed = describeChanges(settings, s);
          setSettings(s);
          setDraft(s);
          setNotice(
            changed.length ? `Settings saved: ${changed.join('; ')}.` : 'Settings saved (nothing changed).',
          );
        },
        (err: unknown) => setError(err),
      );
  };
  // A change after a save: the "saved" sentence no longer describes the form.
  const set = <K extends keyof Settings>(k: K, v: Settings[K]) => {
    setNotice(null);
    setDraft((d) => (d ? { ...d, [k]: v } : d));
  };

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
          <dt>SOAP namespace</dt>
          <dd data-testid="soap-namespace">
            {soap ? (
              <>
                <code>{soap.typesNamespace}</code> ({SOAP_SOURCE[soap.source]})
              </>
            ) : (
              'not known yet'
            )}
          </dd>
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
            Ask before sending to more than (recipients)
            {/* No min/step here: the settings' own rule says what it takes (a whole number, 0 or more). */}
            <input
              type="number"
              inputMode="numeric"
              aria-describedby="confirm-above-note"
              value={Number.isNaN(draft.confirmAboveRecipients) ? '' : draft.confirmAboveRecipients}
              onChange={(e) => set('confirmAboveRecipients', e.target.valueAsNumber)}
            />
            <span id="confirm-above-note" className="muted small">
              A larger send, or one the credit does not cover, shows its recipients and cost first (0: every
              send).
            </span>
          </label>
          <CountryPicker value={draft.defaultCountry} onChange={(c) => set('defaultCountry', c)} />
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
          <label className="check">
            <input
              type="checkbox"
              checked={draft.enterSends}
              onChange={(e) => set('enterSends', e.target.checked)}
            />{' '}
            Enter sends a reply (Shift+Enter for a new line); off: Ctrl+Enter sends
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={draft.childAccounts}
              onChange={(e) => set('childAccounts', e.target.checked)}
            />{' '}
            Child accounts (show Accounts; the account needs the gateway's permission)
          </label>
          <label className="check">
            <input type="checkbox" checked={draft.csvBom} onChange={(e) => set('csvBom', e.target.checked)} />{' '}
            CSV exports for spreadsheet programs (UTF-8 with a byte-order mark, so Excel reads accents right)
          </label>
          <label>
            SOAP types namespace (empty: read from the gateway's WSDL)
            <input
              type="url"
              value={soapPinnedByPolicy ?? draft.soapTypesNamespace}
              disabled={soapPinnedByPolicy !== null}
              placeholder="http://www.csoft.co.uk/dtd/sendsms5.xsd"
              onChange={(e) => set('soapTypesNamespace', e.target.value.trim())}
            />
          </label>
          <AccountRates
            value={draft.deliveryRates}
            byPolicy={ratesByPolicy}
            onChange={(r) => set('deliveryRates', r)}
          />
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
      {account.sandbox ? null : <AccountOffice />}
      <AccountBackups />
    </section>
  );
}
