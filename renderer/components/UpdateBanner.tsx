import { useEffect, useState } from 'react';
import type { UpdateDownload, UpdateInfo } from '../../domain/index.ts';
import { api, errorText, useEvent } from '../api.ts';
import { useDialog } from './Dialog.tsx';
import { ErrorText } from './ErrorText.tsx';

/** The release date in the user's local time ("20 Nov 2026, 10:30"); the text as given when unreadable. */
export function releaseDateText(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The update banner: what the last check found (at start, every 24 h, or "Check for updates" in
 * the menu), Download with a progress bar and Cancel, the saved path at the end (Open / Show in
 * folder where the shell can), and each failure in words.
 */
export function UpdateBanner() {
  const [available, setAvailable] = useState<UpdateInfo | null>(null);
  const [download, setDownload] = useState<UpdateDownload | null>(null);
  const [progress, setProgress] = useState<{ received: number; total: number | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const dialog = useDialog();

  useEffect(() => {
    api()
      .updates.status()
      .then(
        (s) => {
          setAvailable(s.available);
          setDownload(s.download);
          if (s.download) setProgress({ received: s.download.received, total: s.download.total });
        },
        () => undefined,
      );
  }, []);

  useEvent('updates:available', (u) => {
    setAvailable(u.newer ? u : null);
    setNote(null);
  });
  // After every check and when the session ends: an offer no longer made (a later check found
  // nothing newer, or another account signed in) leaves the banner.
  useEvent('updates:status', (s) => {
    setAvailable(s.available);
    setDownload(s.download);
    setProgress(s.download ? { received: s.download.received, total: s.download.total } : null);
    if (s.lastCheckedAt === null) {
      // The session ended: what was said about the last account's gateway no longer holds.
      setNote(null);
      setError(null);
    }
  });
  useEvent('updates:progress', (p) => setProgress(p));
  useEvent('updates:download', (d) => {
    setDownload(d);
    setProgress({ received: d.received, total: d.total });
  });
  useEvent('menu:checkUpdates', () => {
    setNote(null);
    setError(null);
    setDismissed(null);
    api()
      .updates.check()
      .then(
        (u) => {
          setAvailable(u.newer ? u : null);
          if (!u.newer) setNote(`You have the latest version (the gateway offers ${u.version}).`);
        },
        (e: unknown) => setNote(`Checking for updates failed: ${errorText(e)}`),
      );
  });

  const start = () => {
    setError(null);
    setProgress({ received: 0, total: null });
    api()
      .updates.download()
      .then(setDownload, (e: unknown) => {
        // A failure or cancel of the download itself is in its state ('updates:download'); an
        // error before it began (no update known, one under way, turned off) is shown as is.
        const message = errorText(e);
        api()
          .updates.status()
          .then(
            (s) => {
              setDownload(s.download);
              const ended = s.download?.state === 'failed' || s.download?.state === 'cancelled';
              if (!ended || s.download?.version !== available?.version) setError(message);
            },
            () => setError(message),
          );
      });
  };
  const cancel = () => {
    api()
      .updates.cancelDownload()
      .catch((e: unknown) => setError(errorText(e)));
  };
  const open = async (reveal: boolean) => {
    // An unverified file (unsigned, kept because the deploy policy allows it) is opened only when
    // the user says so.
    if (!reveal && download && !download.verified) {
      const yes = await dialog.confirm({
        title: 'Open an unverified update?',
        message:
          'This update has no signature (the deploy policy allows unsigned updates), so it could not be checked against the publisher. Open it only if you trust where it came from.',
        confirmLabel: 'Open anyway',
        danger: true,
      });
      if (!yes) return;
    }
    api()
      .updates.openDownload({ reveal })
      .catch((e: unknown) => setError(errorText(e)));
  };

  if (note && !available) {
    return (
      <div role="status" className="banner update-banner">
        {note}{' '}
        <button type="button" className="link" onClick={() => setNote(null)}>
          Dismiss
        </button>
      </div>
    );
  }
  if (!available || dismissed === available.version) return null;

  const mine = download?.version === available.version ? download : null;
  const downloading = mine?.state === 'downloading';
  const cancelled = mine?.state === 'cancelled';
  const shownError = error ?? (mine?.state === 'failed' ? mine.error : null);
  const done = mine?.state === 'done';
  const received = progress?.received ?? 0;
  const total = progress?.total ?? null;
  const percent = total ? Math.min(100, Math.floor((received / total) * 100)) : null;

  return (
    <section className="banner warn update-banner" aria-label="Update available">
      <p className="update-title">
        <strong>
          Version {available.version} {done ? 'downloaded' : 'is available'}
        </strong>
        <span className="muted">
          {' '}
          · released <time dateTime={available.releaseDate}>{releaseDateText(available.releaseDate)}</time>
        </span>
      </p>
      {available.releaseNotice ? <p className="update-notice">{available.releaseNotice}</p> : null}
      {downloading ? (
        <div className="update-progress">
          <progress
            aria-label="Download progress"
            max={total ?? undefined}
            value={total ? received : undefined}
          />
          {/* Not a live region: the bar carries the value; the end is announced by the status below. */}
          <span data-testid="download-percent">
            {percent !== null
              ? `${percent} % (${sizeText(received)} of ${sizeText(total ?? 0)})`
              : `${sizeText(received)}`}
          </span>
          {/* Download was pressed and is gone: keyboard focus moves to Cancel. */}
          <button type="button" onClick={cancel} autoFocus>
            Cancel download
          </button>
        </div>
      ) : null}
      {done && mine ? (
        <div className="update-done" role="status">
          Saved to <code data-testid="download-path">{mine.path}</code>
          {mine.verified ? (
            <span className="muted"> · signature verified</span>
          ) : (
            <strong data-testid="download-unverified">
              {' '}
              · not verified (unsigned; allowed by the deploy policy)
            </strong>
          )}
          {mine.canOpen ? (
            <>
              {' '}
              <button type="button" onClick={() => void open(false)}>
                Open
              </button>{' '}
              <button type="button" onClick={() => void open(true)}>
                Show in folder
              </button>
            </>
          ) : null}
        </div>
      ) : null}
      {cancelled ? <p role="status">Download cancelled; nothing was kept.</p> : null}
      <ErrorText error={shownError} prefix="Download failed: " />
      {!downloading ? (
        <div className="update-actions">
          {!done ? (
            <button type="button" className="primary" onClick={start}>
              {shownError || cancelled ? 'Try again' : 'Download'}
            </button>
          ) : null}
          <button type="button" className="link" onClick={() => setDismissed(available.version)}>
            Dismiss
          </button>
        </div>
      ) : null}
    </section>
  );
}
