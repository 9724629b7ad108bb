import { useEffect, useState } from 'react';
import type { OfficeStatus } from '../../preload/api.ts';
import { api, useEvent } from '../api.ts';

/**
 * Issue 28: office mode's banner. Shown while the office database cannot be reached: the desk keeps
 * working on what it has, says what waits to be written, and that other desks' replies come back
 * with the database; or while it is reached but refuses this desk's writes (what it says why).
 * Nothing is shown on a desk of its own or while all is well.
 */
export function OfficeBanner() {
  const [status, setStatus] = useState<OfficeStatus | null>(null);
  useEffect(() => {
    api()
      .office.status()
      .then(setStatus, () => undefined);
  }, []);
  useEvent('office:status', setStatus);
  if (status === null || status.error === null) return null;
  const waiting =
    status.pending > 0
      ? ` ${status.pending} change${status.pending === 1 ? '' : 's'} made here wait${status.pending === 1 ? 's' : ''} to be shared.`
      : '';
  // reachable, but it refuses a write (a permission or constraint error, a table missing): kept
  // here and tried again less and less often; an administrator must mend the database
  if (status.connected)
    return (
      <div role="alert" className="banner warn office-banner" data-testid="office-refused">
        <strong>The office database refuses this desk&apos;s changes</strong> ({status.url}: {status.error}).
        Nothing is lost: they are kept here and tried again, less and less often.{waiting} Ask whoever runs
        the office database to look at this error.
      </div>
    );
  return (
    <div role="alert" className="banner warn office-banner" data-testid="office-offline">
      <strong>The office database cannot be reached</strong> ({status.url}: {status.error}). This desk keeps
      working on what it has; other desks&apos; replies and opt-outs appear when it is back.
      {waiting} Meanwhile a desk that reaches it collects replies (or they wait at the gateway). Retrying…
    </div>
  );
}
