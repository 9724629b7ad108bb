// The thin Electron shell (electron-vite's main entry, bundled to out/main/index.js). It binds the
// service facade of main/services/app.ts to one window, exactly as main/web.ts binds it to a
// loopback WebSocket, and adds what only a desktop app has: single instance, tray with the unread
// count, desktop notifications, the app menu with its shortcuts, and the OS-backed PIN store.
// Every decision (sender check, CSP, link allow-list, menu, tray label, notification text) is a
// pure function of ./policy.ts, tested under Node; this file only wires them to Electron.
//
// Security checklist (docs/ARCHITECTURE.md): contextIsolation, sandbox, no
// nodeIntegration, webSecurity, strict CSP header, no remote content, navigation / new windows /
// <webview> blocked, permission requests denied, every IPC call checked (sender frame + argument),
// secrets only here, external links only https to allow-listed hosts via shell.openExternal.
import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  Tray,
} from 'electron';
import type { Session, WebContents } from 'electron';
import { gatewayHostOf, linkableDownloadHost } from '../services/updates.ts';
import type { UpdatePolicy } from '../services/updates.ts';
import ElectronStore from 'electron-store';
import { createMessengerApp } from '../services/app.ts';
import type { MessengerApi, MessengerEvents } from '../../preload/api.ts';
import type { Settings } from '../../domain/index.ts';
import { APP_SCHEME, serveAppFile } from './app-protocol.ts';
import { bindApi, forwardEvents } from './ipc.ts';
import { IPC_EVENT_CHANNEL, IPC_MENU_CHANNEL } from '../../preload/ipc-contract.ts';
import type { MenuEvent } from '../../preload/ipc-contract.ts';
import {
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
  WINDOW_WEB_PREFERENCES,
} from './policy.ts';
import type { RendererSource } from './policy.ts';
import { createSafeStorageSecretStore } from './secrets.ts';
import { openPreferences } from '../store/preferences.ts';
import type { Preferences, PreferencesStore, WindowState } from '../store/preferences.ts';

const APP_NAME = 'Messenger';
const here = import.meta.dirname; // out/main when bundled
const PRELOAD = join(here, '../preload/index.cjs');
const RENDERER_DIR = join(here, '../renderer');
/** A focus poll at most this often (a user alt-tabbing should not hammer the gateway). */
const FOCUS_POLL_MIN_INTERVAL_MS = 5_000;
const DEFAULT_WINDOW_SIZE = { width: 1200, height: 800 };

type Messenger = Awaited<ReturnType<typeof createMessengerApp>>;

const source: RendererSource = rendererSource({
  packaged: app.isPackaged,
  devUrl: process.env['ELECTRON_RENDERER_URL'],
  rendererDir: RENDERER_DIR,
});
const csp = contentSecurityPolicy(source);

let mainWindow: BrowserWindow | null = null;
let tray: Tray | null = null;
let messenger: Messenger | null = null;
let settings: Settings | null = null;
/** The preferences file (main/store/preferences.ts) over electron-store: settings and window state. */
let preferences: PreferencesStore | null = null;
let lastFocusPoll = 0;
let quitting = false;
/** Hosts links may open in the browser: the current account's gateway and the update's download host. */
const linkHosts = new Set<string>();

function log(message: string, e?: unknown): void {
  console.error(`[messenger] ${message}`, ...(e === undefined ? [] : [e]));
}

// ---------------------------------------------------------------------------------------------
// Hardening of every web contents and of the session

function hardenSession(ses: Session): void {
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [csp],
        'X-Content-Type-Options': ['nosniff'],
      },
    });
  });
  // No camera, microphone, geolocation, notifications-from-the-page, clipboard-read, …: the app
  // needs none of them (desktop notifications come from the main process).
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
}

function openExternally(url: string): void {
  if (isAllowedExternalUrl(url, linkHosts)) {
    shell.openExternal(url).catch((e: unknown) => log(`could not open ${url}`, e));
  } else {
    log(`blocked a link to ${url} (not https to an allowed host)`);
  }
}

function hardenContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url, source)) {
      event.preventDefault();
      openExternally(url);
    }
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedNavigation(url, source)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: 'deny' };
  });
}

// ---------------------------------------------------------------------------------------------
// Window, tray, menu, notifications

function sendMenu(event: MenuEvent): void {
  const win = showWindow();
  // A window just (re)created gets the action once its page has loaded and subscribed.
  if (win.webContents.isLoading()) {
    win.webContents.once('did-finish-load', () => win.webContents.send(IPC_MENU_CHANNEL, event));
  } else {
    win.webContents.send(IPC_MENU_CHANNEL, event);
  }
}

/** Where the window was when it last closed: its place only while a display still shows it. */
function savedWindowState(): WindowState | null {
  const saved = preferences?.get('window');
  if (!saved) return null;
  const { x, y, width, height } = saved;
  const shown =
    x !== undefined &&
    y !== undefined &&
    screen
      .getAllDisplays()
      .some(
        ({ workArea: a }) => x < a.x + a.width && x + width > a.x && y < a.y + a.height && y + height > a.y,
      );
  return shown ? saved : { width, height, maximized: saved.maximized };
}

function saveWindowState(win: BrowserWindow): void {
  const b = win.getNormalBounds();
  const state: WindowState = {
    x: Math.round(b.x),
    y: Math.round(b.y),
    width: Math.max(1, Math.round(b.width)),
    height: Math.max(1, Math.round(b.height)),
    maximized: win.isMaximized(),
  };
  try {
    preferences?.set('window', state);
  } catch (e) {
    log('the window state was not saved', e);
  }
}

function createWindow(): BrowserWindow {
  const state = savedWindowState();
  const win = new BrowserWindow({
    width: state?.width ?? DEFAULT_WINDOW_SIZE.width,
    height: state?.height ?? DEFAULT_WINDOW_SIZE.height,
    ...(state?.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    minWidth: 720,
    minHeight: 480,
    title: APP_NAME,
    show: false,
    webPreferences: { ...WINDOW_WEB_PREFERENCES, preload: PRELOAD },
  });
  win.once('ready-to-show', () => {
    if (state?.maximized) win.maximize();
    win.show();
  });
  win.on('focus', () => pollOnFocus());
  win.on('close', () => saveWindowState(win));
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  win
    .loadURL(rendererEntryUrl(source))
    .catch((e: unknown) => log('the window could not load the renderer', e));
  return win;
}

function showWindow(): BrowserWindow {
  if (!mainWindow || mainWindow.isDestroyed()) mainWindow = createWindow();
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
  return mainWindow;
}

function windowFocused(): boolean {
  return mainWindow !== null && !mainWindow.isDestroyed() && mainWindow.isFocused();
}

function pollOnFocus(): void {
  const now = Date.now();
  if (!messenger || now - lastFocusPoll < FOCUS_POLL_MIN_INTERVAL_MS) return;
  lastFocusPoll = now;
  // Not signed in, or the gateway is down: the poller reports that itself ('inbox:pollFailed').
  messenger.api.inbox.pollNow().catch(() => undefined);
}

function setUnread(count: number): void {
  const label = trayLabel(APP_NAME, count);
  tray?.setToolTip(label.tooltip);
  if (process.platform === 'darwin') tray?.setTitle(label.title);
  app.setBadgeCount(Math.max(0, Math.floor(count)) || 0);
}

async function refreshUnread(api: MessengerApi): Promise<void> {
  try {
    setUnread(await api.inbox.unreadTotal());
  } catch {
    // signed out: nothing unread to show
    setUnread(0);
  }
}

function createTray(): Tray {
  const size = process.platform === 'darwin' ? 16 : 22;
  const icon = nativeImage.createFromBitmap(Buffer.from(trayIconBitmap(size)), { width: size, height: size });
  const t = new Tray(icon);
  t.setContextMenu(
    Menu.buildFromTemplate([
      { label: `Open ${APP_NAME}`, click: () => showWindow() },
      { label: 'New Message', click: () => sendMenu('menu:compose') },
      { type: 'separator' },
      { label: 'Quit', click: () => app.quit() },
    ]),
  );
  t.on('click', () => showWindow());
  setUnread(0);
  return t;
}

async function notifyReceived(api: MessengerApi, payload: MessengerEvents['inbox:received']): Promise<void> {
  setUnread(payload.unreadTotal);
  if (!settings?.notifications || !Notification.isSupported()) return;
  if (windowFocused()) return; // the user sees it already
  const names = new Map<string, string | null>();
  for (const peer of new Set(payload.messages.filter((m) => m.direction === 'in').map((m) => m.peer))) {
    if (names.size >= 3) break;
    try {
      names.set(peer, (await api.contacts.findDuplicates(peer))[0]?.name ?? null);
    } catch {
      names.set(peer, null);
    }
  }
  const content = notificationContent(payload.messages, (peer) => names.get(peer) ?? null);
  if (!content) return;
  const n = new Notification({ title: content.title, body: content.body });
  const peer = payload.messages.find((m) => m.direction === 'in')?.peer;
  // The click opens the (first) sender's conversation, once the window's page is there to hear it.
  n.on('click', () => {
    const win = showWindow();
    if (peer === undefined) return;
    const open = () => win.webContents.send(IPC_EVENT_CHANNEL, 'inbox:open', { peer });
    if (win.webContents.isLoading()) win.webContents.once('did-finish-load', open);
    else open();
  });
  n.show();
}

/** Issue 17: the download check's inputs, so that only a DownloadURL it allows becomes linkable. */
let linkPolicy: UpdatePolicy = {};
let gatewayUrls: Array<string | null | undefined> = [];

function trackDownloadHost(url: string | null | undefined): void {
  const hosts = gatewayUrls.map(gatewayHostOf).filter((h): h is string => h !== null);
  const host = linkableDownloadHost(url, linkPolicy, hosts);
  if (host) linkHosts.add(host);
}

function trackLinkHosts(...urls: Array<string | null | undefined>): void {
  for (const url of urls) {
    const host = hostOf(url);
    if (host) linkHosts.add(host);
  }
}

// ---------------------------------------------------------------------------------------------
// Start

async function start(): Promise<void> {
  if (process.platform === 'win32') app.setAppUserModelId('com.example.messenger'); // notifications need it
  hardenSession(session.defaultSession);
  if (source.kind === 'app') {
    const dir = source.dir;
    protocol.handle(APP_SCHEME, (request) => serveAppFile(request, dir, csp));
  }
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({
        platform: process.platform,
        packaged: app.isPackaged,
        appName: APP_NAME,
        send: sendMenu,
        quit: () => app.quit(),
      }),
    ),
  );

  // electron-store is conf for Electron: the same file and schema the web shell reads with conf.
  preferences = openPreferences(
    app.getPath('userData'),
    (options, name) => new ElectronStore<Preferences>({ ...options, name }),
  );
  messenger = await createMessengerApp({
    dataDir: app.getPath('userData'),
    preferences,
    secrets: await createSafeStorageSecretStore(safeStorage),
    log: (message) => log(message),
    // Update downloads: the user's Downloads folder; Open / Show in folder through the OS shell.
    downloadsDir: app.getPath('downloads'),
    openPath: async (path, how) => {
      if (how === 'reveal') {
        shell.showItemInFolder(path);
        return;
      }
      const failure = await shell.openPath(path);
      if (failure !== '') throw new Error(`${path} could not be opened: ${failure}`);
    },
  });
  const { api, events, call } = messenger;

  bindApi({
    handle: (channel, listener) => ipcMain.handle(channel, listener),
    // The facade's call checks the argument (validate-args.ts) once, as in the web shell.
    call,
    isTrustedSender: (url) => isAppSender(url, source),
    onForbidden: (channel, url) => log(`refused ${channel} from ${url ?? 'an unknown frame'}`),
    afterCall: (channel, result) => {
      // Read / unread / delete / sign-out change the unread count without an event.
      if (changesUnreadCount(channel)) void refreshUnread(api);
      if (channel === 'updates.check')
        trackDownloadHost((result as { downloadUrl?: string } | null)?.downloadUrl);
    },
  });
  forwardEvents(events, (ch, ev, payload) => {
    if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(ch, ev, payload);
  });

  events.on('inbox:received', (payload) => {
    notifyReceived(api, payload).catch((e: unknown) => log('notification failed', e));
  });
  events.on('settings:changed', (s) => {
    settings = s;
  });
  events.on('accounts:changed', ({ current }) => {
    gatewayUrls = [current?.primaryUrl, current?.secondaryUrl];
    trackLinkHosts(current?.primaryUrl, current?.secondaryUrl);
    void refreshUnread(api);
  });
  events.on('updates:available', (info) => {
    trackDownloadHost(info.downloadUrl);
    const content = updateNotificationContent(APP_NAME, info);
    // In front of the user the renderer shows it (it asked); a notification only for the background.
    if (!content || !Notification.isSupported() || windowFocused()) return;
    const n = new Notification(content);
    // The window's banner downloads it (https, allow-listed host, progress, nothing partial kept).
    n.on('click', () => showWindow());
    n.show();
  });

  settings = await api.settings.get().catch(() => null);
  const current = await api.accounts.current().catch(() => null);
  gatewayUrls = [current?.primaryUrl, current?.secondaryUrl];
  const effective = await api.policy.get().catch(() => null);
  if (effective) {
    const u = effective.updates;
    linkPolicy = u.allowedDownloadHosts !== null ? { allowedDownloadHosts: u.allowedDownloadHosts } : {};
  }
  trackLinkHosts(current?.primaryUrl, current?.secondaryUrl);

  tray = createTray();
  await refreshUnread(api);
  mainWindow = createWindow();
}

// app://messenger/ serves out/renderer (./app-protocol.ts): a standard, secure scheme, so the page
// has a real origin for 'self' in the CSP, ES modules and fetch; it must be registered before ready.
protocol.registerSchemesAsPrivileged([
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
  },
]);

if (!app.requestSingleInstanceLock()) {
  // Another instance owns the data folder (one SQLite writer): it shows its window instead.
  app.quit();
} else {
  app.on('second-instance', () => {
    if (messenger) showWindow();
  });
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
  app.on('activate', () => {
    if (messenger) showWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', (event) => {
    if (quitting || !messenger) return;
    // Close the services (journal, poller, sandbox gateway) before the process ends.
    event.preventDefault();
    quitting = true;
    const m = messenger;
    messenger = null;
    m.close()
      .catch((e: unknown) => log('closing the services failed', e))
      .finally(() => {
        tray?.destroy();
        app.quit();
      });
  });
  app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      log('start-up failed', e);
      app.exit(1);
    });
}
