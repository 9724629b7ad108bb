// Issue 25: where the backups are and the newest one, in Settings (the Account view), with "Back up
// now" and its outcome; a failed backup is said here too (and in the banner, components/BackupBanner.tsx).
import { useEffect, useState } from 'react';
import type { DatabaseStatus } from '../../preload/api.ts';
import { api, useEvent } from '../api.ts';
import { ErrorText } from '../components/ErrorText.tsx';
import { backupName, dataFolder, size, useBackupNow, when } from '../components/BackupBanner.tsx';

export function AccountBackups() {
  const [status, setStatus] = useState<DatabaseStatus | null>(null);
  const [error, setError] = useState<unknown>(null);
  const backup = useBackupNow();
  useEffect(() => {
    api().database.status().then(setStatus, setError);
  }, [backup.written, backup.error]);
  useEvent('database:backup', setStatus);
  if (!status) return <ErrorText error={error} />;
  const newest = status.backups[0];
  return (
    <section className="card settings" aria-labelledby="backups-title" data-testid="backups-card">
      <h2 id="backups-title">Backups</h2>
      <p className="muted backups-note">
        Messenger copies its database every day while it runs and before each update of it, checks each copy,
        and keeps the newest 7.
      </p>
      <dl className="db-facts db-backups">
        <dt>Data folder</dt>
        <dd>
          <code>{dataFolder(status)}</code>
        </dd>
        <dt>Backups folder</dt>
        <dd>
          <code>{status.backupsFolder}</code>
        </dd>
        <dt>Newest backup</dt>
        <dd data-testid="newest-backup">
          {newest ? (
            <>
              {when(newest.at)} ({newest.reason}, {size(newest.bytes)}) — <code>{newest.file}</code>
            </>
          ) : (
            'none yet'
          )}
        </dd>
        {status.backupFailed ? (
          <>
            <dt>Last failure</dt>
            <dd className="error">
              {backupName(status.backupFailed.reason)} failed at {when(status.backupFailed.at)}:{' '}
              {status.backupFailed.problem}.
            </dd>
          </>
        ) : null}
      </dl>
      <div className="row">
        <button type="button" disabled={backup.busy} onClick={() => void backup.run()}>
          {backup.busy ? 'Backing up…' : 'Back up now'}
        </button>
      </div>
      {backup.written ? (
        <p role="status">
          Backup written and checked: <code>{backup.written.file}</code>.
        </p>
      ) : null}
      <ErrorText error={backup.error} prefix="Back up now: " />
    </section>
  );
}
