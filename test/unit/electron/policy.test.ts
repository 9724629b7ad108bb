import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import {
  MENU_EVENTS,
  WINDOW_WEB_PREFERENCES,
  buildMenuTemplate,
  changesUnreadCount,
  contentSecurityPolicy,
  hostOf,
  isAllowedExternalUrl,
  isAllowedNavigation,
  isAppSender,
  notificationContent,
  rendererEntryUrl,
  rendererSource,
  trayIconBitmap,
  trayLabel,
  updateNotificationContent,
} from '../../../main/electron/policy.ts';
import type { MenuEvent, MenuItemSpec } from '../../../main/electron/policy.ts';

const rendererDir = join(tmpdir(), 'messenger-app', 'out', 'renderer');
const fileSource = rendererSource({ packaged: true, devUrl: undefined, rendererDir });
const devSource = rendererSource({ packaged: false, devUrl: 'http://localhost:5173/', rendererDir });

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('renderer source', () => {
  it('uses the dev server only for an unpackaged app on loopback http', () => {
    expect(devSource).toEqual({ kind: 'dev', url: 'http://localhost:5173/' });
    expect(fileSource).toEqual({ kind: 'app', dir: rendererDir });
    expect(rendererSource({ packaged: true, devUrl: 'http://localhost:5173/', rendererDir }).kind).toBe(
      'app',
    );
    expect(rendererSource({ packaged: false, devUrl: 'https://evil.example/', rendererDir }).kind).toBe(
      'app',
    );
    expect(rendererSource({ packaged: false, devUrl: 'http://192.168.1.5:5173/', rendererDir }).kind).toBe(
      'app',
    );
    expect(rendererSource({ packaged: false, devUrl: 'not a url', rendererDir }).kind).toBe('app');
    expect(rendererEntryUrl(fileSource)).toBe('app://messenger/index.html');
    expect(rendererEntryUrl(devSource)).toBe('http://localhost:5173/');
  });
});

describe('IPC sender check', () => {
  const index = 'app://messenger/index.html';

  it('accepts the built renderer and the dev server', () => {
    expect(isAppSender(index, fileSource)).toBe(true);
    expect(isAppSender('app://messenger/', fileSource)).toBe(true);
    expect(isAppSender('app://messenger/index.html#/inbox?x=1', fileSource)).toBe(true);
    expect(isAppSender('http://localhost:5173/', devSource)).toBe(true);
    expect(isAppSender('http://localhost:5173/index.html?x=1', devSource)).toBe(true);
  });

  it('refuses other origins, files and opaque URLs', () => {
    for (const url of [
      'https://evil.example/',
      'https://messenger/index.html', // right host, wrong scheme
      'app://evil/index.html',
      'app://messenger:8080/index.html',
      'app://user@messenger/index.html',
      'app://messenger/..%2f..%2fetc/passwd',
      'http://localhost:5173/',
      pathToFileURL(join(rendererDir, 'index.html')).href,
      'file:///etc/passwd',
      'about:blank',
      'data:text/html,<script>1</script>',
      'javascript:alert(1)',
      '',
      'not a url',
    ]) {
      expect(isAppSender(url, fileSource), url).toBe(false);
    }
    expect(isAppSender(undefined, fileSource)).toBe(false);
    expect(isAppSender(null, fileSource)).toBe(false);
    for (const url of [
      index,
      'http://localhost:5174/',
      'http://127.0.0.1:5173/',
      'https://localhost:5173/',
    ]) {
      expect(isAppSender(url, devSource), url).toBe(false);
    }
  });

  it('allows navigation only within the app', () => {
    expect(isAllowedNavigation(index, fileSource)).toBe(true);
    expect(isAllowedNavigation('https://example.com/', fileSource)).toBe(false);
    expect(isAllowedNavigation('file:///etc/passwd', fileSource)).toBe(false);
  });
});

describe('window', () => {
  it('is isolated, sandboxed and without Node', () => {
    expect(WINDOW_WEB_PREFERENCES).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(WINDOW_WEB_PREFERENCES).not.toHaveProperty('preload'); // set by index.ts to out/preload/index.cjs
  });

  it('knows which calls change the unread count', () => {
    expect(
      ['inbox.markRead', 'inbox.markUnread', 'inbox.delete', 'accounts.signOut'].every(changesUnreadCount),
    ).toBe(true);
    expect(['inbox.thread', 'contacts.add', 'send.submit'].some(changesUnreadCount)).toBe(false);
  });
});

describe('Content-Security-Policy', () => {
  it('forbids remote and inline script, eval, plugins and frames in production', () => {
    const csp = contentSecurityPolicy(fileSource);
    const d = directives(csp);
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('frame-src')).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.get('form-action')).toEqual(["'none'"]);
    expect(d.get('connect-src')).toEqual(["'self'"]);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
  });

  it('in dev adds only the loopback dev server (and its HMR socket)', () => {
    const d = directives(contentSecurityPolicy(devSource));
    expect(d.get('script-src')).toEqual(["'self'", 'http://localhost:5173', "'unsafe-inline'"]);
    expect(d.get('connect-src')).toEqual(["'self'", 'http://localhost:5173', 'ws://localhost:5173']);
    expect(d.get('script-src')).not.toContain("'unsafe-eval'");
    expect(d.get('object-src')).toEqual(["'none'"]);
  });
});

describe('external link allow-list', () => {
  const hosts = ['gateway.example.com', 'downloads.example.org'];

  it('opens https links to allowed hosts and their subdomains', () => {
    expect(isAllowedExternalUrl('https://gateway.example.com/help', hosts)).toBe(true);
    expect(isAllowedExternalUrl('https://eu.gateway.example.com/', hosts)).toBe(true);
    expect(isAllowedExternalUrl('https://DOWNLOADS.example.org:443/m.exe', hosts)).toBe(true);
  });

  it('refuses http:, file:, javascript:, data: and other schemes, hosts and tricks', () => {
    for (const url of [
      'http://gateway.example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,hi',
      'smb://gateway.example.com/share',
      'ms-msdt:/id PCWDiagnostic',
      'https://evil.example/',
      'https://gateway.example.com.evil.example/',
      'https://notgateway.example.com/',
      'https://user:pw@gateway.example.com/',
      'https://gateway.example.com:8443/',
      'not a url',
      '',
    ]) {
      expect(isAllowedExternalUrl(url, hosts), url).toBe(false);
    }
    expect(isAllowedExternalUrl('https://gateway.example.com/', [])).toBe(false);
    expect(isAllowedExternalUrl('https://gateway.example.com/', [''])).toBe(false);
  });

  it('takes hosts from gateway and download URLs', () => {
    expect(hostOf('https://Gateway.Example.com:8443/sendsms')).toBe('gateway.example.com');
    expect(hostOf('http://127.0.0.1:4000/')).toBe('127.0.0.1');
    expect(hostOf('javascript:alert(1)')).toBeNull();
    expect(hostOf(null)).toBeNull();
  });
});

function flatten(items: MenuItemSpec[]): MenuItemSpec[] {
  return items.flatMap((i) => [i, ...flatten(i.submenu ?? [])]);
}

describe('app menu', () => {
  it('has the keyboard shortcuts and sends each action to the renderer', () => {
    const sent: MenuEvent[] = [];
    let quit = 0;
    const items = flatten(
      buildMenuTemplate({
        platform: 'linux',
        packaged: true,
        appName: 'Messenger',
        send: (e) => sent.push(e),
        quit: () => quit++,
      }),
    );
    const byAccel = new Map(items.filter((i) => i.accelerator).map((i) => [i.accelerator, i]));
    byAccel.get('CmdOrCtrl+N')?.click?.();
    byAccel.get('CmdOrCtrl+Enter')?.click?.();
    byAccel.get('CmdOrCtrl+F')?.click?.();
    items.find((i) => i.label?.startsWith('Check for Updates'))?.click?.();
    expect(sent).toEqual(['menu:compose', 'menu:send', 'menu:search', 'menu:checkUpdates']);
    expect(new Set(sent)).toEqual(new Set(MENU_EVENTS));
    byAccel.get('CmdOrCtrl+Q')?.click?.();
    expect(quit).toBe(1);
    // a packaged app has no dev tools
    expect(items.some((i) => i.role === 'toggleDevTools')).toBe(false);
  });

  it('on macOS puts Quit in the app menu, and offers dev tools unpackaged', () => {
    const items = buildMenuTemplate({
      platform: 'darwin',
      packaged: false,
      appName: 'Messenger',
      send: () => {},
      quit: () => {},
    });
    expect(items[0]?.label).toBe('Messenger');
    expect(
      flatten(items[0]?.submenu ?? []).some((i) => i.label === 'Quit Messenger' && i.accelerator === 'Cmd+Q'),
    ).toBe(true);
    expect(flatten(items).some((i) => i.role === 'toggleDevTools')).toBe(true);
  });
});

describe('tray and notifications', () => {
  it('labels the tray with the unread count', () => {
    expect(trayLabel('Messenger', 0)).toEqual({ tooltip: 'Messenger — no unread messages', title: '' });
    expect(trayLabel('Messenger', 1)).toEqual({ tooltip: 'Messenger — 1 unread message', title: '1' });
    expect(trayLabel('Messenger', 42).tooltip).toBe('Messenger — 42 unread messages');
    expect(trayLabel('Messenger', 1234).title).toBe('99+');
    expect(trayLabel('Messenger', Number.NaN).title).toBe('');
  });

  it('draws a visible tray icon', () => {
    const px = trayIconBitmap(16);
    expect(px.length).toBe(16 * 16 * 4);
    let opaque = 0;
    for (let i = 3; i < px.length; i += 4) if (px[i] === 0xff) opaque++;
    expect(opaque).toBeGreaterThan(60);
    expect(opaque).toBeLessThan(256);
  });

  it('announces one message with its sender and text, several by count', () => {
    const one = notificationContent([
      { peer: '447700900123', text: 'Running  late,\nsee you at 8', direction: 'in' },
    ]);
    expect(one).toEqual({ title: 'New message from +447700900123', body: 'Running late, see you at 8' });
    const named = notificationContent([{ peer: '447700900123', text: 'hi', direction: 'in' }], () => 'Alice');
    expect(named?.title).toBe('New message from Alice');
    const long = notificationContent([{ peer: 'BANK', text: 'x'.repeat(500), direction: 'in' }]);
    expect(long?.title).toBe('New message from BANK');
    expect([...(long?.body ?? '')].length).toBe(120);
    expect(long?.body.endsWith('…')).toBe(true);
    const many = notificationContent([
      { peer: '1', text: 'a', direction: 'in' },
      { peer: '2', text: 'b', direction: 'in' },
      { peer: '1', text: 'c', direction: 'in' },
      { peer: '9', text: 'mine', direction: 'out' },
    ]);
    expect(many).toEqual({ title: '3 new messages', body: 'From +1, +2' });
    expect(notificationContent([{ peer: '9', text: 'mine', direction: 'out' }])).toBeNull();
    expect(notificationContent([])).toBeNull();
  });

  it('announces a newer version only', () => {
    expect(
      updateNotificationContent('Messenger', {
        version: '2.1.0',
        releaseNotice: ' Faster inbox ',
        newer: true,
      }),
    ).toEqual({
      title: 'Messenger 2.1.0 is available',
      body: 'Faster inbox',
    });
    expect(
      updateNotificationContent('Messenger', { version: '2.1.0', releaseNotice: '', newer: true })?.body,
    ).toBe('Click to download it.');
    expect(
      updateNotificationContent('Messenger', { version: '0.0.1', releaseNotice: 'old', newer: false }),
    ).toBeNull();
  });
});
