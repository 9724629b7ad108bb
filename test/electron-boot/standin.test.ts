// The electron stand-in of the boot test (test/support/electron-standin.ts) refuses what Electron
// refuses, so the boot test fails when the app does it: each refusal throws and is recorded.
import { describe, expect, it } from 'vitest';
import { createElectronStandin } from '../support/electron-standin.ts';

const standin = () =>
  createElectronStandin({
    userData: '/tmp/u',
    downloads: '/tmp/d',
    appVersion: '1.0.0',
    gotLock: true,
    isPackaged: true,
  });

describe('the electron stand-in', () => {
  it('refuses windows, tray, session, screen, safeStorage and protocol.handle before ready', async () => {
    const s = standin();
    const { BrowserWindow, Tray, nativeImage, session, screen, protocol, safeStorage } = s.electron;
    expect(() => new BrowserWindow({})).toThrow(/before the app is ready/);
    const image = nativeImage.createFromBitmap(Buffer.alloc(4), { width: 1, height: 1 });
    expect(() => new Tray(image)).toThrow(/before the app is ready/);
    expect(() => session.defaultSession).toThrow(/before the app is ready/);
    expect(() => screen.getAllDisplays()).toThrow(/before the app is ready/);
    await expect(safeStorage.isAsyncEncryptionAvailable()).rejects.toThrow(/before the app is ready/);
    protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true } }]);
    expect(() => protocol.handle('app', () => new Response(''))).toThrow(/before the app is ready/);
    expect(s.record.refused).toHaveLength(6);
  });

  it('refuses a late scheme registration, an unregistered or doubly handled scheme, a second IPC handler', () => {
    const s = standin();
    const { protocol, ipcMain } = s.electron;
    protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true } }]);
    s.becomeReady();
    expect(() => protocol.registerSchemesAsPrivileged([{ scheme: 'late' }])).toThrow(
      /before the app is ready/,
    );
    expect(() => protocol.handle('other', () => new Response(''))).toThrow(/not registered/);
    protocol.handle('app', () => new Response('ok'));
    expect(() => protocol.handle('app', () => new Response(''))).toThrow(/already handled/);
    ipcMain.handle('x', () => 1);
    expect(() => ipcMain.handle('x', () => 2)).toThrow(/second handler/);
    expect(s.record.refused).toHaveLength(4);
    expect(s.record.handledSchemes).toEqual(['app']);
  });

  it('refuses a relative preload, a wrong bitmap size, and a page no scheme serves', async () => {
    const s = standin();
    s.becomeReady();
    const { BrowserWindow, nativeImage } = s.electron;
    expect(() => new BrowserWindow({ webPreferences: { preload: 'preload/index.cjs' } })).toThrow(
      /not absolute/,
    );
    expect(() => nativeImage.createFromBitmap(Buffer.alloc(8), { width: 2, height: 2 })).toThrow(
      /width × height × 4/,
    );
    await expect(new BrowserWindow({}).loadURL('app://messenger/')).rejects.toThrow(/ERR_UNKNOWN_URL_SCHEME/);
  });

  it('quits as Electron does: before-quit (preventable), windows closed, will-quit, quit', async () => {
    const s = standin();
    s.becomeReady();
    const { app, BrowserWindow } = s.electron;
    const win = new BrowserWindow({});
    let held = true;
    app.on('before-quit', (e: { preventDefault(): void }) => {
      if (held) e.preventDefault();
    });
    app.quit();
    await new Promise((r) => setImmediate(r));
    expect(win.isDestroyed()).toBe(false);
    held = false;
    app.quit();
    await new Promise((r) => setImmediate(r));
    expect(win.isDestroyed()).toBe(true);
    expect(s.record.appEvents.slice(-4)).toEqual(['before-quit', 'before-quit', 'will-quit', 'quit']);
    expect(s.record.quitDone).toBe(true);
  });
});
