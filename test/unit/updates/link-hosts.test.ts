// Issue 17, item 13: a DownloadURL's host joins the external-link allow-list only when the download
// check itself allows it (https, the policy's hosts or the gateway's), so a gateway cannot add any
// host it likes.
import { describe, expect, it } from 'vitest';
import { linkableDownloadHost } from '../../../main/services/updates.ts';

describe('linkableDownloadHost', () => {
  it('takes the gateway host without a policy list', () => {
    expect(linkableDownloadHost('https://GW.example.com/Setup.exe', {}, ['gw.example.com'])).toBe(
      'gw.example.com',
    );
    expect(linkableDownloadHost('https://evil.example/x', {}, ['gw.example.com'])).toBeNull();
    expect(linkableDownloadHost('http://gw.example.com/x', {}, ['gw.example.com'])).toBeNull();
  });

  it('takes only the policy list when there is one', () => {
    const policy = { allowedDownloadHosts: ['downloads.example.com'] };
    expect(linkableDownloadHost('https://downloads.example.com/a', policy, ['gw.example.com'])).toBe(
      'downloads.example.com',
    );
    expect(linkableDownloadHost('https://gw.example.com/a', policy, ['gw.example.com'])).toBeNull();
    expect(linkableDownloadHost('not a url', policy, [])).toBeNull();
    expect(linkableDownloadHost(undefined, policy, [])).toBeNull();
  });
});
