// Issue 25: a backup that failed is said, not only logged ('database:backup', the database status's
// `backupFailed`, main/services/database.ts): which backup, what went wrong in words, the data
// folder, when the last good backup was, and "Back up now", which says its outcome. Shown above
// the app (and before sign-in) by DatabaseGate; Settings shows the backups too (views/AccountBackups.tsx).
import { useState } from 'react';
import type { DatabaseBackup, DatabaseStatus } from '../../preload/api.ts';
import { api } from '../api.ts';
import { ErrorText } from './ErrorText.tsx';

export function when(ms: number): string {
  return new Date(ms).toLocaleString();
}

export function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** "daily" → "The daily backup", "before-migration-46" → "The backup before updating the database", … */
export function backupName(reason: string): string {
  if (reason === 'daily') return 'The daily backup';
  if (reason === 'manual') return 'The backup asked for';
  if (reason.startsWith('before-migration')) return 'The backup before updating the database';
  if (reason === 'before-restore') return 'The backup before restoring';
  return `The backup (${reason})`;
}

/** "Back up now": runs a checked backup and keeps its outcome (the backup written, or the error). */
export function useBackupNow() {
  const [busy, setBusy] = useState(false);
  const [written, setWritten] = useState<DatabaseBackup | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    setWritten(null);
    try {
      setWritten(await api().database.backupNow());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, written, error, run, clear: () => setWritten(null) };
}

/** The data folder: the backups folder's parent. */
export function dataFolder(status: DatabaseStatus): string {
  return status.backupsFolder.replace(/[\\/][^\\/]*$/, '');
}

export function BackupBanner({ status }: { status: DatabaseStatus }) {
  const backup = useBackupNow();
  const failed = status.backupFailed;
  if (!failed) {
    if (!backup.written) return null;
    return (
      <div role="status" className="banner backup-written" data-testid="backup-written">
        Backup written and checked: <code>{backup.written.file}</code>.{' '}
        <button type="button" onClick={backup.clear}>
          OK
        </button>
      </div>
    );
  }
  const last = status.backups[0];
  return (
    <div role="alert" className="banner error backup-failed" data-testid="backup-failed">
      <strong>
        {backupName(failed.reason)} failed at {when(failed.at)}: {failed.problem}.
      </strong>{' '}
      Your messages are still in the database; only the copy of it is missing. Data folder:{' '}
      <code>{dataFolder(status)}</code> (backups in <code>{status.backupsFolder}</code>).{' '}
      {last ? `Last good backup: ${when(last.at)}.` : 'No backup has been written yet.'}{' '}
      {failed.problem !== failed.detail ? <span className="muted">({failed.detail})</span> : null}{' '}
      <button type="button" disabled={backup.busy} onClick={() => void backup.run()}>
        {backup.busy ? 'Backing up…' : 'Back up now'}
      </button>
      <ErrorText error={backup.error} prefix="Back up now: " testId="backup-now-error" />
    </div>
  );
}
