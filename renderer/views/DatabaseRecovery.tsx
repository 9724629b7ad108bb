// Issue 25: the database check at start, before anything else (before sign-in): while the app's
// database is damaged, this screen says so — what SQLite found, which file — and offers the three
// choices (main/services/db-recovery.ts); the app itself is shown only once the database is served.
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import type { DatabaseExport, DatabaseStatus } from '../../preload/api.ts';
import { api, useEvent } from '../api.ts';
import { ErrorText } from '../components/ErrorText.tsx';
import { useDialog } from '../components/Dialog.tsx';
import { BackupBanner } from '../components/BackupBanner.tsx';

function when(ms: number): string {
  return new Date(ms).toLocaleString();
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** Shows `children` (the app) once the database is served; the recovery screen while it is damaged. */
export function DatabaseGate({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<DatabaseStatus | null | 'unknown'>(null);
  useEffect(() => {
    // Unreachable app (or one without the call): the app's own screen says what it can.
    Promise.resolve()
      .then(() => api().database.status())
      .then(setStatus, () => setStatus('unknown'));
  }, []);
  // The thorough check, which runs after start, found damage: the app stopped serving the file.
  useEvent('database:damaged', setStatus);
  // A backup failed, or one was written again after a failure.
  useEvent('database:backup', setStatus);
  if (status === null)
    return (
      <main className="center-page" aria-busy="true">
        <p>Loading…</p>
      </main>
    );
  if (status !== 'unknown' && status.state === 'damaged')
    return <DatabaseRecovery status={status} onServed={setStatus} />;
  return (
    <>
      {status !== 'unknown' && status.keptAs ? <KeptBanner keptAs={status.keptAs} /> : null}
      {status !== 'unknown' ? <BackupBanner status={status} /> : null}
      {children}
    </>
  );
}

function KeptBanner({ keptAs }: { keptAs: string }) {
  const [shown, setShown] = useState(true);
  if (!shown) return null;
  return (
    <div role="status" className="banner warn db-kept" data-testid="database-kept">
      The damaged database was kept as <code>{keptAs}</code>.{' '}
      <button type="button" onClick={() => setShown(false)}>
        OK
      </button>
    </div>
  );
}

export function DatabaseRecovery({
  status,
  onServed,
}: {
  status: DatabaseStatus;
  onServed: (s: DatabaseStatus) => void;
}) {
  const dialog = useDialog();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [exported, setExported] = useState<DatabaseExport | null>(null);
  const latest = status.backups[0];

  async function run<T>(what: string, f: () => Promise<T>): Promise<T | undefined> {
    setBusy(what);
    setError(null);
    try {
      return await f();
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setBusy(null);
    }
  }

  async function restore() {
    if (!latest) return;
    const yes = await dialog.confirm({
      title: 'Restore the latest backup?',
      message: `The database will be the backup of ${when(latest.at)}: what changed since then is not in it. The damaged file is kept beside it.`,
      confirmLabel: 'Restore',
    });
    if (!yes) return;
    const s = await run('Restoring…', () => api().database.restoreLatest());
    if (s) onServed(s);
  }

  async function startNew() {
    const yes = await dialog.confirm({
      title: 'Start a new database?',
      message:
        'Messenger starts with no messages, contacts or history. The damaged file is kept beside the new one; export what can still be read first if you need it.',
      confirmLabel: 'Start a new database',
      danger: true,
    });
    if (!yes) return;
    const s = await run('Starting a new database…', () => api().database.startNew());
    if (s) onServed(s);
  }

  return (
    <main className="center-page">
      <section
        className="card db-recovery"
        aria-labelledby="db-recovery-title"
        data-testid="database-recovery"
      >
        <h1 id="db-recovery-title">The message database is damaged</h1>
        <p>
          Messenger checked its database at start and found it damaged, so it has not opened it: nothing is
          shown or changed until you choose what to do.
        </p>
        <dl className="db-facts">
          <dt>File</dt>
          <dd>
            <code>{status.file}</code>
          </dd>
          <dt>What SQLite found</dt>
          <dd>{status.problem ?? 'the file cannot be read'}</dd>
          <dt>Latest backup</dt>
          <dd>
            {latest ? (
              <>
                {when(latest.at)} ({latest.reason}, {size(latest.bytes)}) — <code>{latest.file}</code>
              </>
            ) : (
              'none'
            )}
          </dd>
        </dl>
        <div className="db-choices">
          <div>
            <button
              type="button"
              className="primary"
              disabled={!latest || busy !== null}
              onClick={() => void restore()}
            >
              Restore the latest backup
            </button>
            <p className="muted">
              {latest
                ? 'The database as it was then; the damaged file is kept beside it.'
                : 'No backup exists in the data folder.'}
            </p>
          </div>
          <div>
            <button
              type="button"
              disabled={busy !== null}
              onClick={() =>
                void run('Exporting…', () => api().database.exportReadable()).then((r) => r && setExported(r))
              }
            >
              Export what can still be read
            </button>
            <p className="muted">
              Messages and contacts as CSV files in a new folder; the database is not changed.
            </p>
          </div>
          <div>
            <button type="button" className="danger" disabled={busy !== null} onClick={() => void startNew()}>
              Start a new database
            </button>
            <p className="muted">An empty database; the damaged file is kept beside it.</p>
          </div>
        </div>
        {busy ? <p role="status">{busy}</p> : null}
        {exported ? (
          <div role="status" className="banner warn" data-testid="database-exported">
            Exported {exported.messages.toLocaleString()} messages and {exported.contacts.toLocaleString()}{' '}
            contacts to <code>{exported.folder}</code>
            {exported.skipped > 0 ? ` (${exported.skipped} damaged stretches could not be read)` : ''}
            {exported.problems.length > 0 ? `. Not read: ${exported.problems.join('; ')}` : ''}.
          </div>
        ) : null}
        <ErrorText error={error} />
      </section>
    </main>
  );
}
