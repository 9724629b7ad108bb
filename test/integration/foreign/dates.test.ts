// Issue 24, item 4: dates as servers write them. A raw server answers MobileMessengerVersion with
// ReleaseDate in the forms other toolkits write (space or T, with or without zone and fraction);
// `version` reads each, and the app's release date is the instant, a time without a zone read as UTC.
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../../main/client/gateway-client.ts';
import { runCli } from '../../support/cli-run.ts';
import { releaseFrom } from '../../../main/services/updates.ts';
import { dateTimeMs, readDateTime } from '../../../protocol/soap/values.ts';
import { foreignEnvelope, foreignServer, FOREIGN_TYPES_NS } from '../../support/foreign-server.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function versionServer(releaseDate: string): Promise<string> {
  const server = await foreignServer((r) =>
    r.method === 'POST'
      ? {
          body: foreignEnvelope(
            `<m:MobileMessengerVersionResponse xmlns:m="${FOREIGN_TYPES_NS}"><Version>5.7.1</Version>` +
              '<ReleaseNotice>Fixes</ReleaseNotice><DownloadURL>https://example.com/mm.exe</DownloadURL>' +
              `<ReleaseDate>${releaseDate}</ReleaseDate></m:MobileMessengerVersionResponse>`,
          ),
        }
      : { status: 404, contentType: 'text/plain', body: '' },
  );
  cleanups.push(() => server.close());
  return server.url;
}

const version = (url: string) => runCli(['version', '--url', url], {});

const FORMS: Array<[string, string]> = [
  ['2026-10-01 12:00:00', '2026-10-01T12:00:00.000Z'],
  ['2026-10-01T12:00:00', '2026-10-01T12:00:00.000Z'],
  ['2026-10-01T12:00:00.123456', '2026-10-01T12:00:00.123Z'],
  ['2026-10-01 12:00', '2026-10-01T12:00:00.000Z'],
  ['2026-10-01T13:00:00+01:00', '2026-10-01T12:00:00.000Z'],
  ['2026-10-01 13:00:00+0100', '2026-10-01T12:00:00.000Z'],
  ['2026-10-01 12:00:00 UTC', '2026-10-01T12:00:00.000Z'],
  ['2026-10-01T12:00:00.5Z', '2026-10-01T12:00:00.500Z'],
];

describe('ReleaseDate in the forms servers write', () => {
  it.each(FORMS)('%s is read (the instant %s)', async (written, instant) => {
    const url = await versionServer(written);
    const r = await version(url);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^5\.7\.1 \(2026-10-01T1[23]:00/);
    const client = new GatewayClient({ primaryUrl: url, username: 'a', pin: 'b', defaultCountry: 'GB' });
    cleanups.push(() => client.close());
    const { releaseDate } = await releaseFrom(client);
    expect(new Date(releaseDate).toISOString()).toBe(instant); // what the renderer shows
    expect(releaseDate).toMatch(/(Z|[+-]\d\d:\d\d)$/);
  });

  it('no zone is UTC; a date that is none is still refused', () => {
    expect(dateTimeMs('2026-10-01 12:00:00')).toBe(Date.UTC(2026, 9, 1, 12));
    expect(readDateTime('2026-10-01 12:00:00')).toBe('2026-10-01T12:00:00');
    expect(readDateTime('01/10/2026 12:00')).toBeUndefined();
    expect(readDateTime('2026-13-01 12:00:00')).toBeUndefined();
    expect(readDateTime('2026-10-01 25:00:00')).toBeUndefined();
  });
});
