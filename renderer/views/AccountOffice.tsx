import { useEffect, useState, type FormEvent } from 'react';
import type { OfficeSetting, OfficeStatus } from '../../preload/api.ts';
import { api, useEvent } from '../api.ts';
import { ErrorText } from '../components/ErrorText.tsx';

const SOURCE: Record<NonNullable<OfficeSetting['source']>, string> = {
  'command-line': 'given on the command line (--office)',
  policy: 'set by the deploy policy of this computer',
  account: 'set here',
};

/**
 * Issue 28: the Account view's "Office database" card. Office mode shares the account's replies and
 * opt-out list with the office's other desks through a PostgreSQL database (docs/OFFICE.md). The
 * URL never carries the password: that is kept by the OS keyring (Electron) or comes from
 * MESSENGER_OFFICE_PASSWORD. A change applies when Messenger starts again.
 */
export function AccountOffice() {
  const [setting, setSetting] = useState<OfficeSetting | null>(null);
  const [status, setStatus] = useState<OfficeStatus | null>(null);
  const [url, setUrl] = useState('');
  const [password, setPassword] = useState('');
  const [deskName, setDeskName] = useState('');
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    api()
      .office.setting()
      .then((s) => {
        setSetting(s);
        setUrl(s.url ?? '');
        setDeskName(s.deskName);
      }, setError);
    api().office.status().then(setStatus, setError);
  }, []);
  useEvent('office:status', setStatus);

  if (!setting) return <ErrorText error={error} />;
  const locked = setting.source === 'command-line' || setting.source === 'policy';

  const save = (e: FormEvent, clear = false): void => {
    e.preventDefault();
    setError(null);
    api()
      .office.configure(
        clear
          ? { url: null }
          : { url: url.trim() === '' ? null : url.trim(), ...(password ? { password } : {}) },
      )
      .then((s) => {
        setSetting(s);
        setUrl(s.url ?? '');
        setPassword('');
      }, setError);
  };

  // Issue 28: the name the other desks show beside this desk's sends (empty: the computer's name).
  const rename = (): void => {
    setError(null);
    api()
      .office.rename({ name: deskName })
      .then((s) => {
        setSetting(s);
        setDeskName(s.deskName);
      }, setError);
  };

  return (
    <form className="card settings" onSubmit={save} aria-label="Office database">
      <h2>Office database</h2>
      <p className="muted">
        Several desks on one account share its replies, opt-out list and sends through a PostgreSQL database.
        Read/unread stays each desk&apos;s own.
      </p>
      <p role="status" data-testid="office-state">
        {status === null
          ? 'This desk works on its own.'
          : status.connected
            ? `Connected to ${status.url}; this desk ${status.collector ? 'collects the replies' : 'receives the replies another desk collects'}.`
            : `Not connected to ${status.url}${status.error ? ` (${status.error})` : ''}.`}
      </p>
      <label>
        URL (postgres://USER@HOST:PORT/DATABASE)
        <input
          value={url}
          readOnly={locked}
          onChange={(e) => setUrl(e.target.value)}
          spellCheck={false}
          autoComplete="off"
          placeholder="postgres://messenger@db.office.example:5432/messenger"
        />
      </label>
      {locked ? (
        <p className="muted">{SOURCE[setting.source!]}</p>
      ) : (
        <>
          <label>
            Password {setting.passwordStored ? '(one is kept in the OS keyring; type to replace it)' : ''}
            <input
              type="password"
              value={password}
              disabled={!setting.keyring}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="new-password"
            />
          </label>
          {!setting.keyring ? (
            <p className="muted">No OS keyring here: give the password as MESSENGER_OFFICE_PASSWORD.</p>
          ) : null}
        </>
      )}
      {setting.restartNeeded ? <p role="status">Applies when Messenger starts again.</p> : null}
      <div className="row">
        <label>
          This desk&apos;s name (beside its sends in the other desks&apos; History)
          <input
            value={deskName}
            maxLength={60}
            onChange={(e) => setDeskName(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                rename();
              }
            }}
            autoComplete="off"
          />
        </label>
        <button type="button" onClick={rename} disabled={deskName.trim() === setting.deskName}>
          Save name
        </button>
      </div>
      <ErrorText error={error} />
      {locked ? null : (
        <div className="row">
          <button type="submit" className="primary">
            Save office database
          </button>
          {setting.url !== null ? (
            <button type="button" onClick={(e) => save(e, true)}>
              Work on this desk alone
            </button>
          ) : null}
        </div>
      )}
    </form>
  );
}
