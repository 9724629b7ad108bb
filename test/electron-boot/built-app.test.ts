// The BUILT Electron app, as electron-builder would pack it (test/support/built-app.ts), started the
// way a user's first start starts it — but in Node, since the Electron binary cannot run here: the
// main bundle (out/main/index.js) runs in a child process with the recording stand-in of
// test/support/electron-standin.ts as its `electron` (test/support/electron-boot-driver.ts plays
// ready, a second start and Quit from the tray). The built preload runs in a sandbox-like V8
// context, and the built renderer in Chromium with that preload wired to the web shell's services
// (test/support/preload-in-page.ts). One build for all of it.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_INDEX_URL, APP_SCHEME } from '../../main/electron/app-protocol.ts';
import { WINDOW_WEB_PREFERENCES } from '../../main/electron/policy.ts';
import { createMessengerApp } from '../../main/services/app.ts';
import { startWebShell } from '../../main/web.ts';
import type { WebShell } from '../../main/web.ts';
import {
  ApiError,
  API_CHANNELS,
  EVENT_CHANNELS,
  IPC_CALL_PREFIX,
  IPC_EVENT_CHANNEL,
  IPC_MENU_CHANNEL,
  MENU_EVENTS,
} from '../../preload/ipc-contract.ts';
import type { ApiEnvelope } from '../../preload/ipc-contract.ts';
import { HAS_CHROMIUM, openBrowser, shoot } from '../e2e/support.ts';
import type { AppBrowser } from '../e2e/support.ts';
import { loadPreload, rendererApi, runPreloadBundle } from '../support/preload-bundle.ts';
import { preloadInitScript } from '../support/preload-in-page.ts';
import { BUNDLED_MIGRATIONS } from '../../scripts/bundle-migrations.ts';
import { bootBuilt, buildApp, ROOT } from '../support/built-app.ts';
import type { Boot, BuiltApp } from '../support/built-app.ts';
import type { BootConfig } from '../support/electron-boot-driver.ts';
import { DEMO_NUMBER } from '../../gateway/demo.ts';
import { checkRecipient } from '../../gateway/recipient-check.ts';
import { checkpointRound, sandboxRound } from '../support/built-workers.ts';
import { CLOSED } from '../../storage/checkpoint-worker-state.ts';

let built: BuiltApp;
const dirs: string[] = [];

beforeAll(() => {
  built = buildApp();
}, 180_000);
afterAll(() => {
  built?.remove();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** One start of the built app in a fresh user-data folder (test/support/built-app.ts bootBuilt). */
const boot = (opts: Pick<BootConfig, 'gotLock' | 'signIn'>) => bootBuilt(built, dirs, opts);

function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

/** The app's log lines the scenario itself causes (a foreign frame's call; the receiver's address). */
const EXPECTED_LOG = [
  /refused settings\.get from https:\/\/example\.com\//,
  /push receiver listening at http:\/\/127\.0\.0\.1:\d+\/push/,
  /blocked a link to https:\/\/example\.com\/ \(not https to an allowed host\)/,
];

// moved from test/unit/packaging/bundle.test.ts (it built the app a second time)
describe('the built main bundle on disk', () => {
  it('has each migrations folder beside it, file for file', () => {
    for (const m of BUNDLED_MIGRATIONS) {
      const sources = readdirSync(join(ROOT, m.from)).filter((f) => f.endsWith('.sql'));
      expect(sources.length, m.from).toBeGreaterThan(0);
      expect(readdirSync(join(built.out, 'main', m.to)).sort()).toEqual(sources.sort());
      for (const f of sources)
        expect(readFileSync(join(built.out, 'main', m.to, f), 'utf8')).toBe(
          readFileSync(join(ROOT, m.from, f), 'utf8'),
        );
    }
  });

  it('reads the app and the gateway migrations from their own folders, never one shared ./migrations/', () => {
    // the app's in index.js, the sandbox gateway's in the code of its thread (sandbox-worker.js)
    const main = join(built.out, 'main');
    const dirs = filesBelow(main)
      .filter((f) => f.endsWith('.js'))
      .flatMap((f) => [
        ...readFileSync(join(main, f), 'utf8').matchAll(
          /new URL\(["']\.\/(migrations\/[^"']*)["'], import\.meta\.url\)/g,
        ),
      ])
      .map((m) => m[1]);
    expect(dirs.sort()).toEqual(BUNDLED_MIGRATIONS.map((m) => `${m.to}/`).sort());
  });

  it('carries no gateway code in index.js: the sandbox gateway runs from sandbox-worker.js, on its thread', () => {
    const main = join(built.out, 'main');
    const index = readFileSync(join(main, 'index.js'), 'utf8');
    expect(index).toMatch(/new URL\(["']\.\/sandbox-worker\.js["'], import\.meta\.url\)/);
    expect(index).not.toMatch(/startGateway|migrations\/gateway/);
    // The sandbox host is a chunk of its own: the thread's entry imports it, and index.js only by
    // dynamic import (the main-thread fallback, when the thread cannot start).
    const worker = readFileSync(join(main, 'sandbox-worker.js'), 'utf8');
    const host = /import \{[^}]*serveSandbox[^}]*\} from ["']\.\/([^"']+)["']/.exec(worker)?.[1];
    expect(host).toBeDefined();
    expect(index).toContain(`import("./${host}")`);
    const hostCode = readFileSync(join(main, host ?? ''), 'utf8');
    for (const nested of ['number-worker', 'adapt-worker'])
      expect(hostCode).toMatch(new RegExp(`new URL\\(["']\\./${nested}\\.js["'], import\\.meta\\.url\\)`));
  });

  it('has every file its code names relative to itself (new URL(…, import.meta.url))', () => {
    const main = join(built.out, 'main');
    const chunks = filesBelow(main).filter((f) => f.endsWith('.js'));
    const named = chunks.flatMap((chunk) =>
      [
        ...readFileSync(join(main, chunk), 'utf8').matchAll(
          /new URL\(\s*["'`](\.{1,2}\/[^"'`]*)["'`],\s*import\.meta\.url\s*\)/g,
        ),
      ].map((m) => ({ chunk, path: m[1]!, file: join(main, chunk, '..', m[1]!) })),
    );
    expect(named.map((n) => n.path)).toEqual(
      expect.arrayContaining(['./migrations/app/', '../../package.json']),
    );
    for (const n of named) expect(existsSync(n.file), `${n.path} named by ${n.chunk}`).toBe(true);
  });

  it("runs the sandbox gateway's number worker from the build, answering as checkRecipient does", async () => {
    const worker = new Worker(join(built.out, 'main/number-worker.js'));
    try {
      const answer = await new Promise<{ id: number; results: unknown[] }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage({ id: 7, numbers: ['+44 7700 900123', 'abc'] });
      });
      expect(answer).toEqual({ id: 7, results: ['+44 7700 900123', 'abc'].map(checkRecipient) });
    } finally {
      await worker.terminate();
    }
  });
  it("runs the sandbox gateway's thread from the build: it starts the gateway, answers HTTP and closes", async () => {
    const round = await sandboxRound(built.out, dirs);
    expect(round.started).toMatchObject({ username: 'demo', pin: expect.any(String) });
    expect(round.status).toBe(200);
    expect(round.items).toBeGreaterThan(0);
    expect(round.closed).toEqual({ type: 'closed' });
  });
  it("runs the app database's checkpoint thread from the build: it copies the WAL, then closes when asked", async () => {
    const round = await checkpointRound(built.out, dirs);
    expect(round.named).toBe(true);
    expect(round.copied.log).toBeGreaterThan(100);
    expect(round.state).toBe(CLOSED);
  });
});

describe('the built main bundle, started in Node with a stand-in electron', { timeout: 120_000 }, () => {
  let first: Boot;
  beforeAll(async () => {
    first = await boot({ gotLock: true, signIn: true });
  }, 120_000);

  it('starts without a throw, an unhandled rejection, an error log or a call Electron refuses', () => {
    const { report } = first;
    expect(report.unhandled).toEqual([]);
    expect(report.record.refused).toEqual([]);
    expect(report.errors.filter((line) => !EXPECTED_LOG.some((re) => re.test(line)))).toEqual([]);
    expect(report.phase).toBe('quit');
  });

  it('takes the single-instance lock and registers app:// as privileged, both before ready', () => {
    const { record } = first.report;
    expect(record.calls.find((c) => c.api === 'app.requestSingleInstanceLock')).toEqual({
      api: 'app.requestSingleInstanceLock',
      ready: false,
    });
    expect(record.privilegedSchemes).toEqual([
      {
        scheme: APP_SCHEME,
        privileges: expect.objectContaining({ standard: true, secure: true, supportFetchAPI: true }),
        ready: false,
      },
    ]);
    expect(record.handledSchemes).toEqual([APP_SCHEME]);
  });

  it('opens one hardened window whose preload exists in the bundle and whose page app:// serves', () => {
    const { record, probes } = first.report;
    expect(record.windows).toHaveLength(1);
    const [win] = record.windows;
    const prefs = win!.options.webPreferences!;
    expect(prefs).toMatchObject(WINDOW_WEB_PREFERENCES);
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(prefs.preload).toBe(join(built.out, 'preload/index.cjs'));
    expect(existsSync(prefs.preload!)).toBe(true);
    expect(win!.loaded).toEqual([APP_INDEX_URL]);
    expect(win!.shown).toBeGreaterThan(0);
    // the page and every file it names, with the strict CSP; nothing outside out/renderer
    const [page, ...rest] = probes;
    expect(page).toMatchObject({
      url: APP_INDEX_URL,
      status: 200,
      type: expect.stringMatching(/^text\/html/),
    });
    expect(page!.csp).toMatch(/script-src 'self'/);
    const files = rest.filter((p) => !p.url.endsWith('/package.json'));
    expect(files.map((p) => p.url).some((u) => u.endsWith('.js'))).toBe(true);
    for (const p of files) expect(p, p.url).toMatchObject({ status: 200, csp: page!.csp });
    expect(probes.find((p) => p.url.endsWith('/package.json'))?.status).toBe(404);
  });

  it('handles every API channel over IPC, and electron-store its one channel', () => {
    const { record } = first.report;
    expect([...record.ipcHandled].sort()).toEqual(API_CHANNELS.map((c) => IPC_CALL_PREFIX + c).sort());
    expect(record.ipcListened).toEqual(['electron-store-get-data']);
  });

  it('sets the session handlers (CSP headers, permissions denied) and hardens the window contents', () => {
    const { record } = first.report;
    expect(record.session).toEqual({
      headersHandler: true,
      permissionRequest: true,
      permissionCheck: true,
      devicePermission: true,
    });
    const [win] = record.windows;
    expect(win!.openHandler).toBe(true);
    expect(win!.contentsListeners).toEqual(
      expect.arrayContaining(['will-navigate', 'will-redirect', 'will-attach-webview']),
    );
    // asked as Chromium asks them: CSP on every response, every permission denied, no new window,
    // no navigation away from the app, no <webview>
    const { hardening, probes } = first.report;
    expect(hardening['headers']).toEqual({
      responseHeaders: {
        'Content-Type': ['text/html'],
        'Content-Security-Policy': [probes[0]!.csp],
        'X-Content-Type-Options': ['nosniff'],
      },
    });
    expect(hardening).toMatchObject({
      permissionRequest: false,
      permissionCheck: false,
      devicePermission: false,
      windowOpen: { action: 'deny' },
      navigateAway: true,
      navigateInside: false,
      attachWebview: true,
    });
  });

  it('builds the tray and the application menu', () => {
    const { record } = first.report;
    expect(record.tray.created).toBe(true);
    expect(record.tray.menu).toEqual(['Open Messenger', 'New Message', 'Quit']);
    expect(record.tray.tooltip).toMatch(/Messenger/);
    expect(record.applicationMenu?.length).toBeGreaterThan(0);
    expect(record.applicationMenu!.join('\n')).toMatch(/Check for Updates/);
  });

  it('answers the page over IPC: a foreign frame refused, sign-in to the sandbox, a send accepted', () => {
    const { ipc, eventsSent } = first.report;
    expect(ipc['foreign']).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(ipc['settings.get']).toMatchObject({ ok: true, result: { notifications: true } });
    expect(ipc['accounts.signIn']).toMatchObject({
      ok: true,
      result: { sandbox: true, username: expect.any(String) },
    });
    expect(ipc['send.submit']).toMatchObject({
      ok: true,
      result: { invalid: [], job: { recipientCount: 1 } },
    });
    expect(ipc['outbox.jobs']).toMatchObject({ ok: true, result: [{ counts: { accepted: 1 } }] });
    expect(eventsSent).toEqual(expect.arrayContaining(['accounts:changed', 'outbox:progress']));
    // what the app reads at run time was there: the migrations (both databases) and the preferences
    expect(filesBelow(join(first.dir, 'userData')).sort()).toEqual(
      expect.arrayContaining([
        'messenger.sqlite',
        'preferences.json',
        join('sandbox-gateway', 'gateway.sqlite'),
      ]),
    );
  });

  it('notifies of a reply while the window is in the background, with the unread count on tray and badge', () => {
    const { record, ipc } = first.report;
    expect(ipc['inbox.pollNow']).toMatchObject({ ok: true });
    expect(record.notifications).toEqual([
      { title: expect.stringContaining('+447700900123'), body: 'A reply' },
    ]);
    expect(record.badge.at(-1)).toBe(1);
    expect(record.tray.tooltip).toMatch(/1 unread/);
    expect(first.report.eventsSent).toContain('inbox:received');
  });

  it('shows the minimised window on a second start, and Quit closes every service', () => {
    const { report, code } = first;
    expect(report.secondInstance).toEqual({ restored: 1, shown: 1, focused: 1, windows: 1 });
    expect(report.record.appEvents.slice(-4)).toEqual(['before-quit', 'before-quit', 'will-quit', 'quit']);
    expect(report.record.quitDone).toBe(true);
    expect(report.record.tray.destroyed).toBe(true);
    expect(report.record.windows[0]!.destroyed).toBe(true);
    // the process ended by itself: no server (sandbox gateway, push receiver), socket or timer left
    expect(report.leftover).toBeNull();
    expect(code).toBe(0);
    // the window's place was kept in the preferences (electron-store) when it closed
    const prefs = JSON.parse(readFileSync(join(first.dir, 'userData/preferences.json'), 'utf8')) as {
      window?: unknown;
    };
    expect(prefs.window).toEqual({ x: 10, y: 10, width: 1200, height: 800, maximized: false });
    // both databases closed (SQLite removes the WAL file with the last connection)
    expect(filesBelow(join(first.dir, 'userData')).filter((f) => /-(wal|shm)$/.test(f))).toEqual([]);
  });

  it('quits at once when another instance holds the lock: no window, no services, no files', async () => {
    const { report, code, dir } = await boot({ gotLock: false, signIn: false });
    expect(code).toBe(0);
    expect(report.unhandled).toEqual([]);
    expect(report.record.calls.map((c) => c.api)).toContain('app.quit');
    expect(report.record.appEvents).toContain('quit');
    expect(report.record.windows).toEqual([]);
    expect(report.record.ipcHandled).toEqual([]);
    expect(report.record.tray.created).toBe(false);
    expect(filesBelow(join(dir, 'userData'))).toEqual([]);
  });
});

describe('the built preload bundle, in a sandbox-like context', () => {
  const APP_PAGE = 'app://messenger/index.html';
  let bundle: string;
  beforeAll(() => {
    bundle = readFileSync(join(built.out, 'preload/index.cjs'), 'utf8');
  });

  it('requires electron only, and exposes exactly messengerBridge.invoke and messengerEvents.on', () => {
    // no Node built-in or package a sandboxed preload cannot load, not even on a path not taken
    expect([...new Set([...bundle.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]/g)].map((m) => m[1]))]).toEqual(
      ['electron'],
    );
    const { exposed, required } = runPreloadBundle(bundle, {
      invoke: async () => ({ ok: true, result: null }),
    });
    expect(required).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['messengerBridge', 'messengerEvents']);
    expect(Object.keys(exposed.get('messengerBridge') as object)).toEqual(['invoke']);
    expect(Object.keys(exposed.get('messengerEvents') as object)).toEqual(['on']);
  });

  it('invokes each API channel of the contract over IPC, and nothing else', async () => {
    const { exposed, invoked } = runPreloadBundle(bundle, { invoke: async () => ({ ok: true, result: 1 }) });
    const bridge = exposed.get('messengerBridge') as {
      invoke(channel: unknown, arg?: unknown): Promise<ApiEnvelope>;
    };
    for (const channel of API_CHANNELS)
      expect(await bridge.invoke(channel, {})).toEqual({ ok: true, result: 1 });
    for (const channel of ['ipc:anything', 'constructor', 7])
      expect(await bridge.invoke(channel)).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    expect(invoked).toEqual(API_CHANNELS.map((c) => IPC_CALL_PREFIX + c));
  });

  it('delivers the whitelisted events and menu actions only', () => {
    const { exposed, emit } = runPreloadBundle(bundle, { invoke: async () => null });
    const events = exposed.get('messengerEvents') as { on(e: string, l: (p: unknown) => void): () => void };
    const got: unknown[] = [];
    for (const name of [...EVENT_CHANNELS, ...MENU_EVENTS]) events.on(name, (p) => got.push([name, p]));
    for (const name of EVENT_CHANNELS) emit(IPC_EVENT_CHANNEL, name, { n: name });
    for (const name of MENU_EVENTS) emit(IPC_MENU_CHANNEL, name);
    emit(IPC_EVENT_CHANNEL, 'not:allowed', {});
    expect(got).toEqual([
      ...EVENT_CHANNELS.map((n) => [n, { n }]),
      ...MENU_EVENTS.map((n) => [n, undefined]),
    ]);
    expect(() => events.on('not:allowed', () => undefined)).toThrow();
  });

  it('carries a call to the real services and an ApiError back, as the renderer sees it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'messenger-preload-'));
    dirs.push(dataDir);
    const app = await createMessengerApp({ dataDir, env: {}, log: () => undefined });
    try {
      const { api } = loadPreload(bundle, APP_PAGE, app.call, (url) => url === APP_PAGE);
      const added = await api.contacts.add({ name: 'Alice', number: '+44 7700 900123' });
      expect(await api.contacts.list()).toEqual([
        expect.objectContaining({ id: added.id, number: '447700900123' }),
      ]);
      const err = await api.credit.refresh().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe('not-signed-in');
      const foreign = loadPreload(bundle, 'https://example.com/', app.call, (url) => url === APP_PAGE);
      expect(
        await rendererApi(foreign.exposed)
          .contacts.list()
          .catch((e: ApiError) => e.code),
      ).toBe('forbidden');
    } finally {
      await app.close();
    }
  });
});

describe.skipIf(!HAS_CHROMIUM)(
  'the built renderer in Chromium, over the built preload',
  { timeout: 90_000 },
  () => {
    let shell: WebShell;
    let browser: AppBrowser;

    beforeAll(async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'messenger-renderer-'));
      dirs.push(tmp);
      shell = await startWebShell({
        dataDir: join(tmp, 'data'),
        staticDir: join(built.out, 'renderer'),
        build: false,
        log: () => undefined,
      });
      browser = await openBrowser(join(tmp, 'profile'), { viewport: { width: 1280, height: 860 } });
      const bundle = readFileSync(join(built.out, 'preload/index.cjs'), 'utf8');
      await browser.context.addInitScript({
        content: preloadInitScript(bundle, { callPrefix: IPC_CALL_PREFIX, eventChannel: IPC_EVENT_CHANNEL }),
      });
      await browser.page.goto(shell.url);
    }, 120_000);
    afterAll(async () => {
      await browser?.context.close();
      await shell?.close();
    });

    it('signs in to the sandbox, sends, and shows the reply, every call through the preload', async () => {
      const { page, pageErrors } = browser;
      await page.getByRole('button', { name: 'Use local sandbox' }).click();
      await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });

      await page.getByRole('button', { name: 'Compose' }).click();
      const entry = page.getByRole('combobox', { name: 'To', exact: true });
      await entry.fill('447700900101');
      await entry.press('Enter');
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Lunch at one?');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page
        .getByTestId('send-results')
        .locator('tbody tr')
        .filter({ hasText: '+447700900101' })
        .locator('[data-status="accepted"], [data-status="queued"], [data-status="delivered"]')
        .waitFor({ timeout: 20_000 });

      // the phone answers through the sandbox gateway; the inbox shows it (poll or push)
      await page.evaluate(() => window.messenger!.settings.update({ pollIntervalSeconds: 5 }));
      const gateway = await page.evaluate(
        async () => (await window.messenger!.accounts.current())!.primaryUrl,
      );
      const res = await fetch(new URL('/sandbox/inbound', gateway), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body: new URLSearchParams({
          SendTo: DEMO_NUMBER,
          ReplyTo: '447700900101',
          Message: 'Yes, see you there',
        }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      await page.getByTestId('unread-badge').waitFor({ timeout: 15_000 });
      await page.getByRole('button', { name: /^Inbox/ }).click();
      await page.getByRole('list', { name: 'Conversations' }).getByText('Yes, see you there').click();
      const thread = page.getByRole('region', { name: /Conversation with/ });
      await thread.getByText('Lunch at one?').waitFor();
      await thread.getByText('Yes, see you there').waitFor();
      await shoot(page, 'electron-boot-inbox');

      // it was the Electron path of main.tsx: the built preload, its bridge, the IPC channel names
      const seen = await page.evaluate(
        () =>
          (
            window as unknown as {
              __preloadStandin: { invoked: string[]; required: string[]; exposed: string[] };
            }
          ).__preloadStandin,
      );
      expect(seen.required).toEqual(['electron']);
      expect(seen.exposed).toEqual(['messengerBridge', 'messengerEvents']);
      for (const channel of ['accounts.signIn', 'send.submit', 'inbox.unreadTotal'])
        expect(seen.invoked).toContain(IPC_CALL_PREFIX + channel);
      expect(pageErrors).toEqual([]);
    });
  },
);
