import { describe, expect, it } from 'vitest';
import {
  checkDownloadUrl,
  DownloadError,
  safeFileName,
  suggestedName,
} from '../../../main/services/update-download.ts';
import { downloadHosts } from '../../../main/services/updates.ts';

const code = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(DownloadError);
    return (e as DownloadError).code;
  }
  return 'accepted';
};

describe('download host allow-list', () => {
  const hosts = ['downloads.example.com', 'GW.Example.net'];

  it('accepts https to an allowed host, any port, case-insensitive', () => {
    expect(checkDownloadUrl('https://downloads.example.com/m.exe', hosts).hostname).toBe(
      'downloads.example.com',
    );
    expect(code(() => checkDownloadUrl('https://gw.example.NET:8443/m.dmg', hosts))).toBe('accepted');
  });

  it('refuses http and other schemes, naming the scheme', () => {
    expect(code(() => checkDownloadUrl('http://downloads.example.com/m.exe', hosts))).toBe(
      'download-url-insecure',
    );
    expect(code(() => checkDownloadUrl('ftp://downloads.example.com/m.exe', hosts))).toBe(
      'download-url-insecure',
    );
    expect(() => checkDownloadUrl('http://downloads.example.com/m.exe', hosts)).toThrow(/not http$/);
  });

  it('matches the host exactly: no sub-domains, look-alikes or userinfo tricks', () => {
    for (const url of [
      'https://evil.downloads.example.com/m.exe',
      'https://downloads.example.com.evil.net/m.exe',
      'https://example.com/m.exe',
      'https://downloads.example.com@evil.net/m.exe',
    ]) {
      expect(
        code(() => checkDownloadUrl(url, hosts)),
        url,
      ).toBe('download-host-not-allowed');
    }
    expect(() => checkDownloadUrl('https://evil.net/x', hosts)).toThrow(
      /evil\.net is not allowed \(allowed: downloads\.example\.com, gw\.example\.net\)/,
    );
    expect(() => checkDownloadUrl('https://evil.net/x', [])).toThrow(/allowed: none/);
  });

  it("allows exactly the policy's hosts when it lists them, else the signed-in gateway's", () => {
    const gateway = ['gw1.example.net', 'gw2.example.net'];
    const listed = downloadHosts({ allowedDownloadHosts: ['downloads.example.com'] }, gateway);
    expect(listed).toEqual(['downloads.example.com']);
    expect(code(() => checkDownloadUrl('https://gw1.example.net/m.exe', listed))).toBe(
      'download-host-not-allowed',
    );
    expect(code(() => checkDownloadUrl('https://downloads.example.com/m.exe', listed))).toBe('accepted');
    expect(downloadHosts({ allowedDownloadHosts: [] }, gateway)).toEqual([]);
    const unlisted = downloadHosts({ enabled: true }, gateway);
    expect(unlisted).toEqual(gateway);
    expect(code(() => checkDownloadUrl('https://gw2.example.net/m.exe', unlisted))).toBe('accepted');
    expect(downloadHosts({}, [])).toEqual([]);
  });

  it('refuses what is not a URL', () => {
    expect(code(() => checkDownloadUrl('not a url', hosts))).toBe('download-url-invalid');
  });
});

describe('download file names', () => {
  it('strips folders, reserved characters and leading dots', () => {
    expect(safeFileName('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(safeFileName('a:b*c?.exe')).toBe('a_b_c_.exe');
    expect(safeFileName('...')).toBe('');
    expect(safeFileName('x'.repeat(300) + '.AppImage')).toHaveLength(120);
    expect(safeFileName('x'.repeat(300) + '.AppImage').endsWith('.AppImage')).toBe(true);
  });

  it('strips bidi controls, which would disguise the extension', () => {
    // "Setup<RLO>gpj.exe" shows as "Setupexe.jpg".
    expect(safeFileName('Setup\u202Egpj.exe')).toBe('Setupgpj.exe');
    const all = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069';
    expect(safeFileName(`a${all}b.dmg`)).toBe('ab.dmg');
    expect(safeFileName(all)).toBe('');
    const u = new URL('https://h/x.bin');
    expect(suggestedName(u, "attachment; filename*=UTF-8''M%E2%80%AEgpj.exe", 'f')).toBe('Mgpj.exe');
  });

  it('puts "_" in front of Windows device names, with any extension', () => {
    for (const name of ['CON', 'prn', 'Aux', 'NUL.txt', 'com1', 'COM9.tar.gz', 'lpt1.exe', 'LPT9', 'COM¹.x'])
      expect(safeFileName(name), name).toBe(`_${name}`);
    for (const name of ['CONSOLE.exe', 'COM0', 'COM10', 'LPT', 'nul-setup.exe', 'Aux (1).exe', 'xCON'])
      expect(safeFileName(name), name).toBe(name);
    expect(safeFileName('NUL .txt')).toBe('_NUL .txt');
    expect(safeFileName('..CON.exe')).toBe('_CON.exe');
    expect(suggestedName(new URL('https://h/aux.AppImage'), undefined, 'f')).toBe('_aux.AppImage');
  });

  it('prefers Content-Disposition, then the URL, then the fallback', () => {
    const u = new URL('https://h/releases/Messenger%20Setup%202.0.exe');
    expect(suggestedName(u, "attachment; filename*=UTF-8''M%C3%BCnster.dmg", 'f')).toBe('Münster.dmg');
    expect(suggestedName(u, 'attachment; filename="Setup.exe"', 'f')).toBe('Setup.exe');
    expect(suggestedName(u, undefined, 'f')).toBe('Messenger Setup 2.0.exe');
    expect(suggestedName(new URL('https://h/'), undefined, 'Messenger-2.0')).toBe('Messenger-2.0');
  });
});
