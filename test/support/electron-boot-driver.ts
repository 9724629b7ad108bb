// Runs the BUILT Electron main bundle in plain Node, as a user's first start would run it in
// Electron, with the recording stand-in of test/support/electron-standin.ts as the `electron`
// module (resolved for the bundle and for electron-store alike by a module hook). Run as a child
// process by test/electron-boot/built-app.test.ts:
//
//   node test/support/electron-boot-driver.ts '{"bundle":…,"dir":…,"report":…,"gotLock":true}'
//
// It plays the start (ready), waits for the window to load the renderer over the app:// handler,
// fetches the page's files through that handler, calls the bound IPC handlers as the page would
// (sign in to the local sandbox, send), fires a second start, and quits from the tray. Nothing
// calls process.exit at the end: the process must end by itself once the app has closed its
// services (a server, socket, timer or database left open keeps it alive, and the watchdog then
// reports what is left). The report (JSON) is written on exit.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEMO_NUMBER } from '../../gateway/demo.ts';
import { createElectronStandin } from './electron-standin.ts';
import type { StandinRecord } from './electron-standin.ts';

export interface BootConfig {
  /** out/main/index.js of the build under test. */
  bundle: string;
  /** A fresh folder: userData and downloads go below it. */
  dir: string;
  /** Where the report is written. */
  report: string;
  gotLock: boolean;
  /** Sign in to the local sandbox and send (first run) or only start and quit. */
  signIn: boolean;
}

export interface Probe {
  url: string;
  status: number;
  type: string | null;
  csp: string | null;
  bytes: number;
}

export interface BootReport {
  record: StandinRecord;
  /** console.error / console.warn lines of the app. */
  errors: string[];
  unhandled: string[];
  /** What the app:// handler answered for the page and each file it names. */
  probes: Probe[];
  /** What the session's and the window's handlers answered, asked as Chromium asks them. */
  hardening: Record<string, unknown>;
  /** The envelopes the bound IPC handlers answered, by step. */
  ipc: Record<string, unknown>;
  /** Events the main process sent to the window, by name (messenger:event's first argument). */
  eventsSent: string[];
  secondInstance: { restored: number; shown: number; focused: number; windows: number } | null;
  /** Resources still open when the watchdog fired (only when the process did not end by itself). */
  leftover: string[] | null;
  phase: string;
}

const KEY = '__messengerElectronStandin';
const config = JSON.parse(process.argv[2] ?? '{}') as BootConfig;
mkdirSync(join(config.dir, 'userData'), { recursive: true });
mkdirSync(join(config.dir, 'downloads'), { recursive: true });

const standin = createElectronStandin({
  userData: join(config.dir, 'userData'),
  downloads: join(config.dir, 'downloads'),
  // Electron: the version of the app's package.json (app.asar/package.json)
  appVersion: (
    JSON.parse(readFileSync(join(dirname(config.bundle), '../../package.json'), 'utf8')) as {
      version: string;
    }
  ).version,
  gotLock: config.gotLock,
  isPackaged: true,
});
const report: BootReport = {
  record: standin.record,
  errors: [],
  unhandled: [],
  probes: [],
  hardening: {},
  ipc: {},
  eventsSent: [],
  secondInstance: null,
  leftover: null,
  phase: 'import',
};

// Electron's main process
Object.defineProperty(process, 'type', { value: 'browser' });
delete process.env['ELECTRON_RENDERER_URL'];
(globalThis as Record<string, unknown>)[KEY] = standin.electron;
const names = Object.keys(standin.electron);
const SOURCE =
  `const e = globalThis[${JSON.stringify(KEY)}];\nexport default e;\n` +
  `export const { ${names.join(', ')} } = e;\n`;
registerHooks({
  resolve: (specifier, context, next) =>
    specifier === 'electron' ? { url: 'standin:electron', shortCircuit: true } : next(specifier, context),
  load: (url, context, next) =>
    url === 'standin:electron'
      ? { format: 'module', source: SOURCE, shortCircuit: true }
      : next(url, context),
});

for (const level of ['error', 'warn'] as const) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    report.errors.push(args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(' '));
    original(...args);
  };
}
process.on('unhandledRejection', (e) =>
  report.unhandled.push(e instanceof Error ? (e.stack ?? e.message) : String(e)),
);
process.on('uncaughtException', (e) => {
  report.unhandled.push(e.stack ?? e.message);
  process.exitCode = 1;
});
process.on('exit', () => {
  report.eventsSent = standin.record.windows.flatMap((w) =>
    w.sent.filter((s) => s.channel === 'messenger:event').map((s) => String(s.args[0])),
  );
  writeFileSync(config.report, JSON.stringify(report, null, 2));
});

async function waitFor(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function probe(url: string): Promise<{ probe: Probe; text: string }> {
  const res = await standin.request(url);
  const body = new Uint8Array(await res.arrayBuffer());
  return {
    probe: {
      url,
      status: res.status,
      type: res.headers.get('content-type'),
      csp: res.headers.get('content-security-policy'),
      bytes: body.length,
    },
    text: new TextDecoder().decode(body),
  };
}

async function run(): Promise<void> {
  await import(pathToFileURL(config.bundle).href);
  report.phase = 'ready';
  standin.becomeReady();
  if (!config.gotLock) return; // the app must quit by itself

  report.phase = 'window';
  await waitFor('the window to load the renderer', () =>
    standin.windows().some((w) => !w.webContents.isLoading()),
  );
  const win = standin.windows()[0]!;
  const pageUrl = standin.record.windows[0]!.loaded[0]!;

  report.phase = 'probe';
  const page = await probe(pageUrl);
  report.probes.push(page.probe);
  for (const m of page.text.matchAll(/(?:src|href)="([^"]+)"/g)) {
    const url = new URL(m[1]!, pageUrl);
    if (url.protocol === new URL(pageUrl).protocol) report.probes.push((await probe(url.href)).probe);
  }
  report.probes.push((await probe(new URL('/../../package.json', pageUrl).href)).probe);

  report.phase = 'hardening';
  const h = standin.sessionHandlers;
  const headers = await new Promise((resolve) =>
    h.headers?.({ responseHeaders: { 'Content-Type': ['text/html'] } }, resolve),
  );
  const permission = await new Promise((resolve) =>
    h.permissionRequest?.(win.webContents as never, 'media', resolve, {} as never),
  );
  const open = win.webContents.openHandler?.({ url: 'https://example.com/' } as never);
  report.hardening = {
    headers,
    permissionRequest: permission,
    permissionCheck: h.permissionCheck?.(null, 'notifications', pageUrl, {} as never),
    devicePermission: h.devicePermission?.({ deviceType: 'usb', origin: pageUrl } as never),
    windowOpen: open ?? null,
    navigateAway: win.webContents.preventable('will-navigate', 'https://example.com/'),
    navigateInside: win.webContents.preventable('will-navigate', new URL('/index.html', pageUrl).href),
    attachWebview: win.webContents.preventable('will-attach-webview', {}, {}),
  };

  report.phase = 'ipc';
  const call = (channel: string, sender: string, arg?: unknown) =>
    standin.invoke(`messenger:call:${channel}`, sender, ...(arg === undefined ? [] : [arg]));
  report.ipc['foreign'] = await call('settings.get', 'https://example.com/');
  report.ipc['settings.get'] = await call('settings.get', pageUrl);
  if (config.signIn) {
    report.ipc['accounts.signIn'] = await call('accounts.signIn', pageUrl, { sandbox: true });
    report.ipc['send.submit'] = await call('send.submit', pageUrl, {
      recipients: ['+44 7700 900123'],
      content: { kind: 'text', text: 'Hello from the built bundle' },
    });
    await waitFor('the send to be answered', () =>
      standin.record.windows[0]!.sent.some((s) => s.args[0] === 'outbox:progress'),
    );
    report.ipc['outbox.jobs'] = await call('outbox.jobs', pageUrl);

    // the window in the background, a phone answers: a desktop notification and the badge
    win.blur();
    const signedIn = report.ipc['accounts.signIn'] as { result?: { primaryUrl?: string } };
    const inbound = await fetch(new URL('/sandbox/inbound', signedIn.result?.primaryUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: new URLSearchParams({ SendTo: DEMO_NUMBER, ReplyTo: '447700900123', Message: 'A reply' }),
    });
    if (inbound.status !== 200) throw new Error(`sandbox inbound: ${inbound.status} ${await inbound.text()}`);
    report.ipc['inbox.pollNow'] = await call('inbox.pollNow', pageUrl);
    await waitFor('a notification', () => standin.record.notifications.length > 0);
  }

  report.phase = 'second-instance';
  win.minimize();
  const rec = standin.record.windows[0]!;
  const before = { restored: rec.restored, shown: rec.shown, focused: rec.focused };
  standin.secondInstance(['messenger']);
  report.secondInstance = {
    restored: rec.restored - before.restored,
    shown: rec.shown - before.shown,
    focused: rec.focused - before.focused,
    windows: standin.record.windows.length,
  };

  report.phase = 'quit';
  standin.clickTray('Quit');
  // what keeps the process alive after the app closed, if anything does
  setTimeout(() => {
    report.leftover = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');
    process.exit(3);
  }, 20_000).unref();
}

run().catch((e: unknown) => {
  report.unhandled.push(`${report.phase}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exit(2);
});
