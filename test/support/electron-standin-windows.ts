// Windows, web contents, screen, menus, tray, notifications and images of the electron stand-in
// (./electron-standin.ts, which explains the whole). Each class implements the Pick of electron.d.ts
// it stands for; what Electron refuses before ready is refused here too.
import { EventEmitter } from 'node:events';
import { isAbsolute } from 'node:path';
import type {
  BrowserWindow,
  BrowserWindowConstructorOptions,
  MenuItemConstructorOptions,
  NativeImage,
  Notification,
  NotificationConstructorOptions,
  Screen,
  Tray,
  WebContents,
} from 'electron';
import type { StandinRecord } from './electron-standin.ts';

/** What the window parts need of the stand-in's core. */
export interface StandinCore {
  record: StandinRecord;
  called(api: string): void;
  refuse(api: string, why: string): never;
  needReady(api: string): void;
  emitApp(name: string, ...args: unknown[]): void;
  request(url: string): Promise<Response>;
}

export function createWindowParts(core: StandinCore) {
  const { record, called, refuse, needReady, emitApp, request } = core;
  const windows: StandinWindow[] = [];

  // --- windows -------------------------------------------------------------------------------
  class StandinWebContents
    extends EventEmitter
    implements Pick<WebContents, 'isLoading' | 'send' | 'setWindowOpenHandler'>
  {
    loading = true;
    private readonly rec: StandinRecord['windows'][number];
    constructor(rec: StandinRecord['windows'][number]) {
      super();
      this.rec = rec;
    }
    isLoading(): boolean {
      return this.loading;
    }
    send(channel: string, ...args: unknown[]): void {
      this.rec.sent.push({ channel, args: structuredClone(args) });
    }
    /** The app's handler of window.open (Chromium asks it for every new window). */
    openHandler: Parameters<WebContents['setWindowOpenHandler']>[0] | null = null;
    setWindowOpenHandler(handler: Parameters<WebContents['setWindowOpenHandler']>[0]): void {
      this.rec.openHandler = true;
      this.openHandler = handler;
    }
    /** Emit a preventable event as Chromium does (will-navigate, will-redirect): whether it was prevented. */
    preventable(name: string, ...args: unknown[]): boolean {
      let prevented = false;
      this.emit(name, { preventDefault: () => (prevented = true) }, ...args);
      return prevented;
    }
  }

  class StandinWindow
    extends EventEmitter
    implements
      Pick<
        BrowserWindow,
        | 'loadURL'
        | 'show'
        | 'focus'
        | 'blur'
        | 'isFocused'
        | 'isDestroyed'
        | 'isMinimized'
        | 'minimize'
        | 'restore'
        | 'maximize'
        | 'isMaximized'
        | 'getNormalBounds'
        | 'close'
      >
  {
    readonly webContents: StandinWebContents;
    private readonly rec: StandinRecord['windows'][number];
    private destroyed = false;
    private minimized = false;
    private focused = false;
    constructor(options: BrowserWindowConstructorOptions = {}) {
      super();
      needReady('new BrowserWindow');
      const preload = options.webPreferences?.preload;
      if (preload !== undefined && !isAbsolute(preload))
        refuse('new BrowserWindow', `the preload path ${preload} is not absolute`);
      this.rec = {
        options: structuredClone(options),
        loaded: [],
        sent: [],
        shown: 0,
        focused: 0,
        restored: 0,
        destroyed: false,
        openHandler: false,
        contentsListeners: [],
      };
      record.windows.push(this.rec);
      windows.push(this);
      this.webContents = new StandinWebContents(this.rec);
      const rec = this.rec;
      this.webContents.on('newListener', (name: string) => rec.contentsListeners.push(name));
      emitApp('browser-window-created', {}, this);
      emitApp('web-contents-created', {}, this.webContents);
    }
    async loadURL(url: string): Promise<void> {
      this.rec.loaded.push(url);
      const res = await request(url);
      if (!res.ok) throw new Error(`ERR_HTTP_RESPONSE_CODE_FAILURE (${res.status}) loading '${url}'`);
      this.webContents.loading = false;
      this.webContents.emit('did-finish-load');
      this.emit('ready-to-show');
    }
    show(): void {
      this.rec.shown++;
    }
    focus(): void {
      this.rec.focused++;
      if (this.focused) return;
      this.focused = true;
      this.emit('focus');
    }
    blur(): void {
      if (!this.focused) return;
      this.focused = false;
      this.emit('blur');
    }
    isFocused(): boolean {
      return this.focused;
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
    isMinimized(): boolean {
      return this.minimized;
    }
    minimize(): void {
      this.minimized = true;
      this.focused = false;
    }
    restore(): void {
      this.rec.restored++;
      this.minimized = false;
    }
    maximize(): void {}
    isMaximized(): boolean {
      return false;
    }
    getNormalBounds() {
      return { x: 10, y: 10, width: 1200, height: 800 };
    }
    close(): void {
      if (this.destroyed) return;
      let prevented = false;
      this.emit('close', { preventDefault: () => (prevented = true) });
      if (prevented) return;
      this.destroyed = true;
      this.rec.destroyed = true;
      this.emit('closed');
    }
  }

  const screen = {
    getAllDisplays: () => {
      needReady('screen.getAllDisplays');
      return [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] as ReturnType<
        Screen['getAllDisplays']
      >;
    },
  } satisfies Pick<Screen, 'getAllDisplays'>;

  // --- menu, tray, notification, image ---------------------------------------------------------
  class StandinMenu {
    readonly items: MenuItemConstructorOptions[];
    constructor(items: MenuItemConstructorOptions[]) {
      this.items = items;
    }
    static buildFromTemplate(template: MenuItemConstructorOptions[]): StandinMenu {
      called('Menu.buildFromTemplate');
      for (const item of template)
        if (!item.role && !item.label && item.type !== 'separator' && !item.submenu)
          refuse('Menu.buildFromTemplate', 'an item without a role, label, type or submenu');
      return new StandinMenu(template);
    }
    static setApplicationMenu(menu: StandinMenu | null): void {
      called('Menu.setApplicationMenu');
      record.applicationMenu = menu ? labels(menu.items) : null;
    }
  }
  let trayMenu: StandinMenu | null = null;

  class StandinTray extends EventEmitter implements Pick<Tray, 'setToolTip' | 'setTitle' | 'destroy'> {
    constructor(_image: StandinImage | string) {
      super();
      needReady('new Tray');
      record.tray.created = true;
    }
    setContextMenu(menu: StandinMenu | null): void {
      trayMenu = menu;
      record.tray.menu = menu ? labels(menu.items) : [];
    }
    setToolTip(toolTip: string): void {
      record.tray.tooltip = toolTip;
    }
    setTitle(_title: string): void {}
    destroy(): void {
      record.tray.destroyed = true;
    }
  }

  class StandinNotification extends EventEmitter implements Pick<Notification, 'show'> {
    static isSupported(): boolean {
      return true;
    }
    private readonly options: NotificationConstructorOptions;
    constructor(options: NotificationConstructorOptions = {}) {
      super();
      this.options = options;
      needReady('new Notification');
    }
    show(): void {
      record.notifications.push({ title: this.options.title ?? '', body: this.options.body ?? '' });
    }
  }

  class StandinImage implements Pick<NativeImage, 'isEmpty'> {
    readonly width: number;
    constructor(width: number) {
      this.width = width;
    }
    isEmpty(): boolean {
      return this.width === 0;
    }
  }
  const nativeImage = {
    createFromBitmap: (buffer: Buffer, options: { width: number; height: number }) => {
      called('nativeImage.createFromBitmap');
      if (buffer.length !== options.width * options.height * 4)
        refuse('nativeImage.createFromBitmap', 'the buffer is not width × height × 4 bytes');
      return new StandinImage(options.width);
    },
  };

  return {
    BrowserWindow: StandinWindow,
    screen,
    Menu: StandinMenu,
    Tray: StandinTray,
    Notification: StandinNotification,
    nativeImage,
    windows: windows as readonly StandinWindow[],
    /** Click the tray's context-menu item with this label. */
    clickTray(label: string): void {
      const item = trayMenu?.items.find((i) => i.label === label);
      if (!item?.click) throw new Error(`the tray has no item '${label}'`);
      (item.click as () => void)();
    },
  };
}

function labels(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((i) => [
    ...(i.label ? [i.label] : i.role ? [`role:${i.role}`] : []),
    ...(Array.isArray(i.submenu) ? labels(i.submenu).map((l) => `${i.label ?? i.role} > ${l}`) : []),
  ]);
}
