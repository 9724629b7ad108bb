// The release the gateway serves through MobileMessengerVersion (spec 9.3): configured with
// `serve --release-version …` flags (startGateway({ release })) or stored in table app_release by
// `release set` (the stored row wins, so a running gateway serves a new release at once).
import type { DatabaseSync } from 'node:sqlite';
import type { ReleaseInfo } from './context.ts';

export class ReleaseError extends Error {}

/** The release fields given as CLI flags, checked; only the given ones (merged over a default). */
export function releaseFromFlags(values: {
  'release-version'?: string | boolean | undefined;
  'release-notice'?: string | boolean | undefined;
  'release-url'?: string | boolean | undefined;
  'release-date'?: string | boolean | undefined;
}): Partial<ReleaseInfo> {
  const out: Partial<ReleaseInfo> = {};
  const v = values['release-version'];
  if (typeof v === 'string') {
    if (!/^v?\d+(\.\d+)*(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(v.trim()))
      throw new ReleaseError(
        `--release-version must be dotted numbers like 2.0.0 or 2.0.0-beta.1, not ${JSON.stringify(v)}`,
      );
    out.version = v.trim();
  }
  const n = values['release-notice'];
  if (typeof n === 'string') out.releaseNotice = n;
  const u = values['release-url'];
  if (typeof u === 'string') {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      throw new ReleaseError(`--release-url must be an absolute URL, not ${JSON.stringify(u)}`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new ReleaseError(`--release-url must be an http(s) URL, not ${url.protocol}`);
    out.downloadUrl = url.href;
  }
  const d = values['release-date'];
  if (typeof d === 'string') {
    const t = Date.parse(d);
    if (!Number.isFinite(t))
      throw new ReleaseError(
        `--release-date must be an ISO 8601 date-time like 2026-11-20T09:00:00Z, not ${JSON.stringify(d)}`,
      );
    out.releaseDate = new Date(t).toISOString().replace(/\.000Z$/, 'Z');
  }
  return out;
}

/** The stored release (table app_release), null when none. */
export function storedRelease(db: DatabaseSync): ReleaseInfo | null {
  const row = db.prepare('SELECT * FROM app_release WHERE id = 1').get() as
    { version: string; release_notice: string; download_url: string; release_date: string } | undefined;
  return row
    ? {
        version: row.version,
        releaseNotice: row.release_notice,
        downloadUrl: row.download_url,
        releaseDate: row.release_date,
      }
    : null;
}

/** Stores the release served from now on (it wins over the serve flags). */
export function setStoredRelease(db: DatabaseSync, r: ReleaseInfo): void {
  db.prepare(
    `INSERT INTO app_release (id, version, release_notice, download_url, release_date) VALUES (1, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET version = excluded.version, release_notice = excluded.release_notice,
       download_url = excluded.download_url, release_date = excluded.release_date`,
  ).run(r.version, r.releaseNotice, r.downloadUrl, r.releaseDate);
}
