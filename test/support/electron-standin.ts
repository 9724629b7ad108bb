// A recording stand-in for the `electron` module of the main process, for booting the BUILT main
// bundle (out/main/index.js) in Node where the Electron binary cannot run (test/electron-boot/).
// It is the subset of Electron 45's main-process API the app and electron-store use, each piece
// typed against electron's own electron.d.ts (`satisfies Pick<…>` / `implements Pick<…>`), so a
// signature that changes upstream breaks the typecheck instead of drifting. A name the bundle
// imports that is missing here fails the ES module link ("does not provide an export named"), so
// a new Electron API used by the app cannot slip past either.
//
// It refuses what Electron refuses (and records the refusal, so a caught one still fails the
// test): window, tray, notification, session, screen, safeStorage and protocol.handle before
// `ready`; protocol.registerSchemesAsPrivileged after it; protocol.handle for a scheme that was
// not registered or is handled already; a second ipcMain.handle for one channel; a relative
// preload path; a bitmap whose size is not width × height × 4; loadURL of a scheme nothing serves.
// Windows, menus, tray, notifications and images are in ./electron-standin-windows.ts.
import { EventEmitter } from 'node:events';
import { createWindowParts } from './electron-standin-windows.ts';
import type {
  App,
  BrowserWindowConstructorOptions,
  CustomScheme,
  IpcMain,
  IpcMainInvokeEvent,
  Protocol,
  SafeStorage,
  Session,
  Shell,
  WebRequest,
} from 'electron';
import type * as ElectronModule from 'electron';

export interface StandinOptions {
  userData: string;
  downloads: string;
  appVersion: string;
  /** What requestSingleInstanceLock answers (false: another instance runs). */
  gotLock: boolean;
  isPackaged: boolean;
}

/** Everything the app did to Electron, as plain data (the boot driver writes it as JSON). */
export interface StandinRecord {
  /** Every call, in order, with whether the app was ready then. */
  calls: Array<{ api: string; ready: boolean }>;
  /** Calls Electron would have refused (each also threw at the caller). */
  refused: string[];
  privilegedSchemes: Array<{ scheme: string; privileges: CustomScheme['privileges']; ready: boolean }>;
  handledSchemes: string[];
  ipcHandled: string[];
  ipcListened: string[];
  windows: Array<{
    options: BrowserWindowConstructorOptions;
    loaded: string[];
    sent: Array<{ channel: string; args: unknown[] }>;
    shown: number;
    focused: number;
    restored: number;
    destroyed: boolean;
    openHandler: boolean;
    contentsListeners: string[];
  }>;
  session: {
    headersHandler: boolean;
    permissionRequest: boolean;
    permissionCheck: boolean;
    devicePermission: boolean;
  };
  tray: { created: boolean; tooltip: string | null; menu: string[]; destroyed: boolean };
  applicationMenu: string[] | null;
  notifications: Array<{ title: string; body: string }>;
  appEvents: string[];
  badge: number[];
  exitCode: number | null;
  quitDone: boolean;
}

type Listener = (...args: never[]) => unknown;

export function createElectronStandin(opts: StandinOptions) {
  const record: StandinRecord = {
    calls: [],
    refused: [],
    privilegedSchemes: [],
    handledSchemes: [],
    ipcHandled: [],
    ipcListened: [],
    windows: [],
    session: {
      headersHandler: false,
      permissionRequest: false,
      permissionCheck: false,
      devicePermission: false,
    },
    tray: { created: false, tooltip: null, menu: [], destroyed: false },
    applicationMenu: null,
    notifications: [],
    appEvents: [],
    badge: [],
    exitCode: null,
    quitDone: false,
  };
  let ready = false;
  let resolveReady: () => void = () => undefined;
  const readyPromise = new Promise<void>((r) => (resolveReady = r));
  const schemeHandlers = new Map<string, (request: Request) => Response | Promise<Response>>();
  const invokeHandlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();

  function called(api: string): void {
    record.calls.push({ api, ready });
  }
  function refuse(api: string, why: string): never {
    record.refused.push(`${api}: ${why}`);
    throw new Error(`${api}: ${why} (as Electron refuses it)`);
  }
  function needReady(api: string): void {
    called(api);
    if (!ready) refuse(api, 'cannot be used before the app is ready');
  }
  const parts = createWindowParts({ record, called, refuse, needReady, emitApp, request });
  const { windows } = parts;

  // --- app -----------------------------------------------------------------------------------
  const appEmitter = new EventEmitter();
  let quitting = false;
  const app = Object.assign(appEmitter, {
    isPackaged: opts.isPackaged,
    name: 'Messenger',
    requestSingleInstanceLock: () => (called('app.requestSingleInstanceLock'), opts.gotLock),
    whenReady: () => (called('app.whenReady'), readyPromise),
    isReady: () => ready,
    getPath: (name: Parameters<App['getPath']>[0]) => {
      called(`app.getPath(${name})`);
      if (name === 'userData') return opts.userData;
      if (name === 'downloads') return opts.downloads;
      return refuse(`app.getPath(${name})`, 'no such path in this stand-in');
    },
    getVersion: () => (called('app.getVersion'), opts.appVersion),
    getName: () => 'Messenger',
    setAppUserModelId: (_id: string) => called('app.setAppUserModelId'),
    setBadgeCount: (count?: number) => {
      called('app.setBadgeCount');
      record.badge.push(count ?? 0);
      return true;
    },
    /** Electron: before-quit (preventable), close the windows, will-quit (preventable), quit. */
    quit: () => {
      called('app.quit');
      if (quitting || record.quitDone) return;
      quitting = true;
      // asynchronous, as in Electron: the caller's code after quit() still runs
      setImmediate(() => {
        quitting = false;
        if (emitPreventable('before-quit')) return;
        for (const w of windows) if (!w.isDestroyed()) w.close();
        if (emitPreventable('will-quit')) return;
        emitApp('quit', {}, 0);
        record.quitDone = true;
      });
    },
    exit: (exitCode?: number) => {
      called('app.exit');
      record.exitCode = exitCode ?? 0;
      process.exit(exitCode ?? 0);
    },
  }) satisfies Pick<
    App,
    | 'isPackaged'
    | 'requestSingleInstanceLock'
    | 'whenReady'
    | 'isReady'
    | 'getPath'
    | 'getVersion'
    | 'getName'
    | 'setAppUserModelId'
    | 'setBadgeCount'
    | 'quit'
    | 'exit'
  > &
    NodeJS.EventEmitter;

  function emitApp(name: string, ...args: unknown[]): void {
    record.appEvents.push(name);
    appEmitter.emit(name, ...args);
  }
  function emitPreventable(name: string): boolean {
    let prevented = false;
    emitApp(name, { preventDefault: () => (prevented = true) });
    return prevented;
  }

  // --- protocol --------------------------------------------------------------------------------
  const protocol = {
    registerSchemesAsPrivileged: (schemes: CustomScheme[]) => {
      called('protocol.registerSchemesAsPrivileged');
      if (ready) refuse('protocol.registerSchemesAsPrivileged', 'must be called before the app is ready');
      for (const s of schemes)
        record.privilegedSchemes.push({ scheme: s.scheme, privileges: s.privileges, ready });
    },
    handle: (
      scheme: string,
      handler: (request: GlobalRequest) => GlobalResponse | Promise<GlobalResponse>,
    ) => {
      needReady('protocol.handle');
      if (!record.privilegedSchemes.some((s) => s.scheme === scheme))
        refuse('protocol.handle', `the scheme ${scheme} was not registered as privileged before ready`);
      if (schemeHandlers.has(scheme)) refuse('protocol.handle', `the scheme ${scheme} is already handled`);
      schemeHandlers.set(scheme, handler);
      record.handledSchemes.push(scheme);
    },
  } satisfies Pick<Protocol, 'registerSchemesAsPrivileged' | 'handle'>;

  /** What the page's fetch of `url` gets (Electron: the scheme's handler, or a failed load). */
  async function request(url: string): Promise<Response> {
    const handler = schemeHandlers.get(new URL(url).protocol.slice(0, -1));
    if (!handler) throw new Error(`ERR_UNKNOWN_URL_SCHEME: nothing serves ${url}`);
    return handler(new Request(url));
  }

  // --- ipcMain -----------------------------------------------------------------------------------
  const ipcMain = Object.assign(new EventEmitter(), {
    handle: (channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown) => {
      called('ipcMain.handle');
      if (invokeHandlers.has(channel)) refuse('ipcMain.handle', `a second handler for '${channel}'`);
      invokeHandlers.set(channel, listener);
      record.ipcHandled.push(channel);
    },
  });
  const ipcOn = ipcMain.on.bind(ipcMain);
  ipcMain.on = (channel: string | symbol, listener: Listener) => {
    called('ipcMain.on');
    record.ipcListened.push(String(channel));
    return ipcOn(channel, listener as (...args: unknown[]) => void);
  };
  ipcMain satisfies Pick<IpcMain, 'handle'> & NodeJS.EventEmitter;

  /** What ipcRenderer.invoke from a frame at `senderUrl` gets (arguments and answer cloned). */
  async function invoke(channel: string, senderUrl: string, ...args: unknown[]): Promise<unknown> {
    const h = invokeHandlers.get(channel);
    if (!h) throw new Error(`Error invoking remote method '${channel}': No handler registered`);
    const event = { senderFrame: { url: senderUrl } } as unknown as IpcMainInvokeEvent;
    return structuredClone(await h(event, ...structuredClone(args)));
  }

  // --- session -------------------------------------------------------------------------------
  /** The handlers the app gave the session, for the driver to ask as Chromium would. */
  const sessionHandlers: {
    headers?: (
      details: { responseHeaders?: Record<string, string[]> },
      callback: (r: unknown) => void,
    ) => void;
    permissionRequest?: Parameters<Session['setPermissionRequestHandler']>[0];
    permissionCheck?: Parameters<Session['setPermissionCheckHandler']>[0];
    devicePermission?: Parameters<Session['setDevicePermissionHandler']>[0];
  } = {};
  const webRequest = {
    onHeadersReceived: (...args: unknown[]) => {
      called('session.webRequest.onHeadersReceived');
      record.session.headersHandler = true;
      // (listener) or (filter, listener)
      sessionHandlers.headers = args.at(-1) as typeof sessionHandlers.headers;
    },
  } satisfies Pick<WebRequest, 'onHeadersReceived'>;
  const defaultSession = {
    webRequest,
    setPermissionRequestHandler: (handler: Parameters<Session['setPermissionRequestHandler']>[0]) => {
      called('session.setPermissionRequestHandler');
      record.session.permissionRequest = handler !== null;
      sessionHandlers.permissionRequest = handler;
    },
    setPermissionCheckHandler: (handler: Parameters<Session['setPermissionCheckHandler']>[0]) => {
      called('session.setPermissionCheckHandler');
      record.session.permissionCheck = handler !== null;
      sessionHandlers.permissionCheck = handler;
    },
    setDevicePermissionHandler: (handler: Parameters<Session['setDevicePermissionHandler']>[0]) => {
      called('session.setDevicePermissionHandler');
      record.session.devicePermission = handler !== null;
      sessionHandlers.devicePermission = handler;
    },
  } satisfies Pick<
    Session,
    'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'
  > & { webRequest: Pick<WebRequest, 'onHeadersReceived'> };
  const session = {
    get defaultSession() {
      needReady('session.defaultSession');
      return defaultSession;
    },
  };

  // --- safeStorage, shell ------------------------------------------------------------------------
  const PREFIX = 'standin-encrypted:';
  const safeStorage = {
    isAsyncEncryptionAvailable: async () => (needReady('safeStorage.isAsyncEncryptionAvailable'), true),
    getSelectedStorageBackend: () => 'gnome_libsecret' as const,
    encryptStringAsync: async (plainText: string) => {
      needReady('safeStorage.encryptStringAsync');
      return Buffer.from(PREFIX + plainText, 'utf8');
    },
    decryptStringAsync: async (encrypted: Buffer) => {
      needReady('safeStorage.decryptStringAsync');
      const text = Buffer.from(encrypted).toString('utf8');
      if (!text.startsWith(PREFIX)) throw new Error('Error while decrypting the ciphertext provided');
      return { result: text.slice(PREFIX.length), shouldReEncrypt: false };
    },
  } satisfies Pick<
    SafeStorage,
    'isAsyncEncryptionAvailable' | 'getSelectedStorageBackend' | 'encryptStringAsync' | 'decryptStringAsync'
  >;
  const shell = {
    openExternal: async (url: string) => void called(`shell.openExternal(${url})`),
    openPath: async (path: string) => (called(`shell.openPath(${path})`), ''),
    showItemInFolder: (path: string) => void called(`shell.showItemInFolder(${path})`),
  } satisfies Pick<Shell, 'openExternal' | 'openPath' | 'showItemInFolder'>;

  const electron = {
    app,
    BrowserWindow: parts.BrowserWindow,
    ipcMain,
    Menu: parts.Menu,
    nativeImage: parts.nativeImage,
    Notification: parts.Notification,
    protocol,
    safeStorage,
    screen: parts.screen,
    session,
    shell,
    Tray: parts.Tray,
  };

  // every name here is one of electron's own exports (a misspelt or invented one does not compile)
  electron satisfies {
    [K in keyof typeof electron]: K extends keyof typeof ElectronModule ? unknown : never;
  };

  return {
    /** The module object `import … from 'electron'` gets (also its default export). */
    electron,
    record,
    /** Electron's start: will-finish-launching, then ready (whenReady resolves). */
    becomeReady(): void {
      emitApp('will-finish-launching');
      ready = true;
      emitApp('ready', {}, {});
      resolveReady();
    },
    /** Another start of the app: Electron emits second-instance in the first one. */
    secondInstance(argv: string[]): void {
      emitApp('second-instance', {}, argv, process.cwd(), {});
    },
    request,
    invoke,
    sessionHandlers,
    windows: () => windows,
    /** Click the tray's context-menu item with this label. */
    clickTray: parts.clickTray,
  };
}

export type ElectronStandin = ReturnType<typeof createElectronStandin>;
