// The Electron shell's security and UI decisions as small pure functions: which frame may call the
// API, the Content-Security-Policy, which external links may open, the app menu, the tray label and
// the desktop notification of a new message. No 'electron' import here, so the unit tests
// (test/unit/electron/policy.test.ts) check every rule under plain Node; main/electron/index.ts
// only wires them to Electron's objects.
import { resolve } from 'node:path';
import { APP_INDEX_URL, APP_SCHEME, resolveAppFile } from './app-protocol.ts';
import type { MessageRecord, UpdateInfo } from '../../domain/index.ts';
import { MENU_EVENTS } from '../../preload/ipc-contract.ts';
import type { MenuEvent } from '../../preload/ipc-contract.ts';

// ---------------------------------------------------------------------------------------------
// Where the renderer comes from

/**
 * The renderer's origin: the built files served as app://messenger/ (production, see
 * ./app-protocol.ts) or electron-vite's dev server (npm start).
 */
export type RendererSource = { kind: 'app'; dir: string } | { kind: 'dev'; url: string };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The renderer source for this run: electron-vite sets ELECTRON_RENDERER_URL in dev; it is
 * honoured only for an unpackaged app and only when it is an http URL on loopback (a packaged app
 * never loads a URL from its environment).
 */
export function rendererSource(opts: {
  packaged: boolean;
  devUrl: string | undefined;
  rendererDir: string;
}): RendererSource {
  if (!opts.packaged && opts.devUrl !== undefined) {
    const u = parseUrl(opts.devUrl);
    if (u && u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname)) return { kind: 'dev', url: u.href };
  }
  return { kind: 'app', dir: resolve(opts.rendererDir) };
}

/** The first page the window loads. */
export function rendererEntryUrl(source: RendererSource): string {
  return source.kind === 'dev' ? source.url : APP_INDEX_URL;
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * Is `senderUrl` (event.senderFrame.url of an IPC call) a page of our renderer? In production it
 * must be on app://messenger (a file that app-protocol.ts would serve); in dev the origin must be
 * the dev server's. Anything else (another origin, file:, about:blank, data:, javascript:) is
 * refused.
 */
export function isAppSender(senderUrl: string | undefined | null, source: RendererSource): boolean {
  if (!senderUrl) return false;
  const u = parseUrl(senderUrl);
  if (!u) return false;
  if (source.kind === 'dev') {
    const dev = parseUrl(source.url);
    return dev !== null && u.origin === dev.origin && u.protocol === 'http:';
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.username !== '' || u.password !== '' || u.port !== '')
    return false;
  return resolveAppFile(u.href, source.dir) !== null;
}

/** May the window navigate to `url`? Only reloads of our own renderer (anything else is blocked). */
export function isAllowedNavigation(url: string, source: RendererSource): boolean {
  return isAppSender(url, source);
}

// ---------------------------------------------------------------------------------------------
// Window

/**
 * The window's webPreferences besides the preload path (Electron's security checklist): an
 * isolated, sandboxed renderer without Node, with web security, no <webview>, no insecure content.
 */
export const WINDOW_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  safeDialogs: true,
  spellcheck: true,
} as const;

/** Channels after which the unread count may have changed without an 'inbox:received' event. */
export function changesUnreadCount(channel: string): boolean {
  return (
    channel === 'inbox.markRead' ||
    channel === 'inbox.markUnread' ||
    channel === 'inbox.delete' ||
    channel === 'inbox.markAllRead' ||
    channel === 'accounts.signIn' ||
    channel === 'accounts.signOut'
  );
}

// ---------------------------------------------------------------------------------------------
// Content-Security-Policy

/**
 * The CSP header of every response the window loads. Production: only the app's own files, no
 * inline or remote script, no eval, no plugins, no frames, no network except 'self' (the renderer
 * talks to main over IPC, never to the gateway). Dev (npm start on an unpackaged app): the vite
 * dev server on loopback, its HMR WebSocket and the inline React Refresh preamble it injects.
 */
export function contentSecurityPolicy(source: RendererSource): string {
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'none'"]],
    ['script-src', ["'self'"]],
    ['style-src', ["'self'"]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'"]],
    ['media-src', ["'self'", 'blob:']],
    ['worker-src', ["'self'"]],
    ['manifest-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['frame-src', ["'none'"]],
    ['child-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  if (source.kind === 'dev') {
    const dev = new URL(source.url);
    const ws = `ws://${dev.host}`;
    for (const d of directives) {
      if (d[0] === 'script-src') d[1].push(dev.origin, "'unsafe-inline'");
      if (d[0] === 'style-src') d[1].push(dev.origin, "'unsafe-inline'");
      if (d[0] === 'connect-src') d[1].push(dev.origin, ws);
      if (d[0] === 'img-src' || d[0] === 'font-src') d[1].push(dev.origin);
    }
  }
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

// ---------------------------------------------------------------------------------------------
// External links

/**
 * May `url` be handed to shell.openExternal? Only https, no credentials in the URL, standard port,
 * and a host on the allow-list (exact match or a subdomain of an entry). http:, file:,
 * javascript:, data:, custom schemes and anything unparsable are refused.
 */
export function isAllowedExternalUrl(url: string, allowedHosts: Iterable<string>): boolean {
  const u = parseUrl(url);
  if (!u || u.protocol !== 'https:') return false;
  if (u.username !== '' || u.password !== '') return false;
  if (u.port !== '' && u.port !== '443') return false;
  const host = u.hostname.toLowerCase();
  if (host === '') return false;
  for (const entry of allowedHosts) {
    const allowed = entry.toLowerCase();
    if (allowed === '') continue;
    if (host === allowed || host.endsWith(`.${allowed}`)) return true;
  }
  return false;
}

/** The host of an http(s) URL (a gateway URL, an update's download URL) for the allow-list. */
export function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  const u = parseUrl(url);
  return u && (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname
    ? u.hostname.toLowerCase()
    : null;
}

// ---------------------------------------------------------------------------------------------
// Menu

/** What the menu asks the renderer to do (sent as the 'menu:…' events of window.messengerEvents). */
export { MENU_EVENTS };
export type { MenuEvent };

/** A structural subset of Electron's MenuItemConstructorOptions (no 'electron' import here). */
export interface MenuItemSpec {
  label?: string;
  role?:
    | 'appMenu'
    | 'about'
    | 'hide'
    | 'hideOthers'
    | 'unhide'
    | 'quit'
    | 'undo'
    | 'redo'
    | 'cut'
    | 'copy'
    | 'paste'
    | 'selectAll'
    | 'reload'
    | 'toggleDevTools'
    | 'resetZoom'
    | 'zoomIn'
    | 'zoomOut'
    | 'togglefullscreen'
    | 'minimize'
    | 'close'
    | 'editMenu'
    | 'windowMenu';
  type?: 'normal' | 'separator' | 'submenu';
  accelerator?: string;
  click?: () => void;
  submenu?: MenuItemSpec[];
}

/**
 * The app menu: File (Compose Ctrl/Cmd+N, Send Ctrl/Cmd+Enter, Search Ctrl/Cmd+F, Check for
 * updates, Quit), Edit, View and Window. `send(event)` forwards a menu action to the renderer;
 * dev tools appear only in an unpackaged app.
 */
export function buildMenuTemplate(opts: {
  platform: NodeJS.Platform | string;
  packaged: boolean;
  appName: string;
  send: (event: MenuEvent) => void;
  quit: () => void;
}): MenuItemSpec[] {
  const mac = opts.platform === 'darwin';
  const file: MenuItemSpec = {
    label: '&File',
    submenu: [
      { label: 'New Message', accelerator: 'CmdOrCtrl+N', click: () => opts.send('menu:compose') },
      { label: 'Send', accelerator: 'CmdOrCtrl+Enter', click: () => opts.send('menu:send') },
      { label: 'Search', accelerator: 'CmdOrCtrl+F', click: () => opts.send('menu:search') },
      { type: 'separator' },
      { label: 'Check for Updates…', click: () => opts.send('menu:checkUpdates') },
      ...(mac
        ? []
        : [{ type: 'separator' as const }, { label: 'Quit', accelerator: 'CmdOrCtrl+Q', click: opts.quit }]),
    ],
  };
  const view: MenuItemSpec = {
    label: '&View',
    submenu: [
      ...(opts.packaged
        ? []
        : [{ role: 'reload' as const }, { role: 'toggleDevTools' as const }, { type: 'separator' as const }]),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const appMenu: MenuItemSpec[] = mac
    ? [
        {
          label: opts.appName,
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { label: `Quit ${opts.appName}`, accelerator: 'Cmd+Q', click: opts.quit },
          ],
        },
      ]
    : [];
  return [...appMenu, file, { role: 'editMenu' }, view, { role: 'windowMenu' }];
}

// ---------------------------------------------------------------------------------------------
// Tray and notifications

/** Tray tooltip and (macOS) title for an unread count. */
export function trayLabel(appName: string, unread: number): { tooltip: string; title: string } {
  const n = Number.isFinite(unread) && unread > 0 ? Math.floor(unread) : 0;
  if (n === 0) return { tooltip: `${appName} — no unread messages`, title: '' };
  return {
    tooltip: `${appName} — ${n} unread message${n === 1 ? '' : 's'}`,
    title: n > 99 ? '99+' : String(n),
  };
}

/**
 * The tray icon as a raw BGRA bitmap (nativeImage.createFromBitmap): a rounded speech bubble,
 * drawn in code because the repository ships no image assets yet. `size` pixels square.
 */
export function trayIconBitmap(size = 16): Uint8Array {
  const px = new Uint8Array(size * size * 4);
  const r = size / 5;
  const bodyBottom = Math.round(size * 0.75);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      // rounded rectangle [1, size-1) x [1, bodyBottom) plus a tail at the bottom left
      const inBody =
        x >= 1 &&
        x < size - 1 &&
        y >= 1 &&
        y < bodyBottom &&
        cornerOk(x, y, 1, 1, size - 2, bodyBottom - 1, r);
      const inTail = y >= bodyBottom && y < size - 1 && x >= 3 && x < 3 + (size - 1 - y);
      if (inBody || inTail) {
        const i = (y * size + x) * 4;
        px[i] = 0xd6; // B
        px[i + 1] = 0x7a; // G
        px[i + 2] = 0x1f; // R
        px[i + 3] = 0xff; // A
      }
    }
  }
  return px;
}

function cornerOk(x: number, y: number, x0: number, y0: number, x1: number, y1: number, r: number): boolean {
  const cx = x < x0 + r ? x0 + r : x > x1 - r ? x1 - r : x;
  const cy = y < y0 + r ? y0 + r : y > y1 - r ? y1 - r : y;
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r + 0.5;
}

const NOTIFICATION_BODY_MAX = 120;

/**
 * The desktop notification for newly received messages, or null when there is nothing to show.
 * One message: its sender (contact name when known) and text; several: how many and from whom.
 */
export function notificationContent(
  messages: ReadonlyArray<Pick<MessageRecord, 'peer' | 'text' | 'direction'>>,
  nameOf: (peer: string) => string | null = () => null,
): { title: string; body: string } | null {
  const inbound = messages.filter((m) => m.direction === 'in');
  const first = inbound[0];
  if (!first) return null;
  const who = (peer: string): string => nameOf(peer) ?? (/^\d+$/.test(peer) ? `+${peer}` : peer);
  if (inbound.length === 1) {
    return {
      title: `New message from ${who(first.peer)}`,
      body: truncate(first.text, NOTIFICATION_BODY_MAX),
    };
  }
  const senders = [...new Set(inbound.map((m) => who(m.peer)))];
  const shown =
    senders.slice(0, 3).join(', ') + (senders.length > 3 ? ` and ${senders.length - 3} more` : '');
  return { title: `${inbound.length} new messages`, body: `From ${shown}` };
}

/** The desktop notification of a newer version (null when it is not newer). */
export function updateNotificationContent(
  appName: string,
  info: Pick<UpdateInfo, 'version' | 'releaseNotice' | 'newer'>,
): { title: string; body: string } | null {
  if (!info.newer) return null;
  const notice = info.releaseNotice.trim();
  return {
    title: `${appName} ${info.version} is available`,
    body: notice ? truncate(notice, NOTIFICATION_BODY_MAX) : 'Click to download it.',
  };
}

function truncate(text: string, max: number): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}
