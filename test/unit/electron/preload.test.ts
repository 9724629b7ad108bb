// The preload as Electron loads it: bundled by vite into one CommonJS file (as electron-vite does,
// electron.vite.config.ts), then run in a fresh V8 context whose only module is 'electron'. The
// 'electron' there is a recording stand-in (Electron cannot be launched here) whose ipcRenderer is
// wired to the real main-side binding (main/electron/ipc.ts bindApi), so a call goes renderer →
// preload → IPC → sender check → argument check (main/services/validate-args.ts) → service, and back.
import { beforeAll, describe, expect, it } from 'vitest';
import { runInNewContext } from 'node:vm';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { Rollup } from 'vite';
import { bindApi, forwardEvents, IPC_MENU_CHANNEL } from '../../../main/electron/ipc.ts';
import type { HandleFn, IpcEnvelope } from '../../../main/electron/ipc.ts';
import { checkArgument } from '../../../main/services/validate-args.ts';
import { createMessengerApp } from '../../../main/services/app.ts';
import { API_CHANNELS, EVENT_CHANNELS } from '../../../preload/api.ts';
import type { EventChannel, MessengerApi } from '../../../preload/api.ts';

const APP_URL = 'file:///opt/messenger/out/renderer/index.html';
let bundle = '';

beforeAll(async () => {
  const out = (await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      ssr: true,
      lib: { entry: fileURLToPath(new URL('../../../preload/index.ts', import.meta.url)), formats: ['cjs'] },
      rollupOptions: { external: ['electron'], output: { entryFileNames: 'index.cjs' } },
    },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const outputs = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output);
  const chunks = outputs.filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
  expect(chunks).toHaveLength(1); // one file: a sandboxed preload cannot load modules
  bundle = chunks[0]?.code ?? '';
}, 60_000);

interface Loaded {
  exposed: Map<string, unknown>;
  required: string[];
  emit: (channel: string, ...args: unknown[]) => void;
  calls: string[];
}

/** Run the bundle with a stand-in 'electron' whose invoke goes to the real bindApi handlers. */
function load(senderUrl: string, realApi?: MessengerApi): Loaded {
  const exposed = new Map<string, unknown>();
  const required: string[] = [];
  const calls: string[] = [];
  const handlers = new Map<string, Parameters<HandleFn>[1]>();
  const rendererListeners = new Map<string, Array<(event: unknown, ...args: unknown[]) => void>>();
  const contacts: unknown[] = [];
  const api = {
    contacts: {
      async add(input: { name: string; number: string }) {
        calls.push('contacts.add');
        const c = { id: contacts.length + 1, ...input };
        contacts.push(c);
        return c;
      },
      async list() {
        calls.push('contacts.list');
        return contacts;
      },
    },
  } as unknown as MessengerApi;
  bindApi({
    handle: (channel, listener) => handlers.set(channel, listener),
    api: realApi ?? api,
    isTrustedSender: (url) => url === APP_URL,
    checkArg: checkArgument,
  });
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, value: unknown) => exposed.set(key, value) },
    ipcRenderer: {
      invoke: async (channel: string, ...args: unknown[]): Promise<IpcEnvelope> => {
        const h = handlers.get(channel);
        if (!h) throw new Error(`No handler registered for '${channel}'`);
        // IPC arguments cross by structured clone
        return structuredClone(await h({ senderFrame: { url: senderUrl } }, ...structuredClone(args)));
      },
      on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
        rendererListeners.set(channel, [...(rendererListeners.get(channel) ?? []), listener]);
      },
    },
  };
  const module = { exports: {} };
  const require = (id: string): unknown => {
    required.push(id);
    if (id === 'electron') return electron;
    throw new Error(`a sandboxed preload cannot require ${id}`);
  };
  runInNewContext(bundle, { require, module, exports: module.exports, console });
  const emit = (channel: string, ...args: unknown[]) => {
    for (const l of rendererListeners.get(channel) ?? []) l({ sender: null }, ...args);
  };
  return { exposed, required, emit, calls };
}

type Exposed = Record<string, Record<string, (arg?: unknown) => Promise<unknown>>>;
type Events = { on(event: string, listener: (payload: unknown) => void): () => void };

describe('preload bridge (bundled)', () => {
  it('requires only electron and exposes exactly messenger and messengerEvents', () => {
    const { exposed, required } = load(APP_URL);
    expect([...new Set(required)]).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['messenger', 'messengerEvents']);
    const messenger = exposed.get('messenger') as Exposed;
    const methods = Object.entries(messenger).flatMap(([area, group]) =>
      Object.keys(group).map((m) => `${area}.${m}`),
    );
    expect(methods.sort()).toEqual([...API_CHANNELS].sort());
    expect(Object.keys(exposed.get('messengerEvents') as object)).toEqual(['on']);
    expect(JSON.stringify([...exposed.keys()])).not.toMatch(/ipc/i);
  });

  it('round-trips a call to the service and back', async () => {
    const { exposed, calls } = load(APP_URL);
    const messenger = exposed.get('messenger') as Exposed;
    const added = await messenger['contacts']?.['add']?.({ name: 'Alice', number: '447700900123' });
    expect(added).toEqual({ id: 1, name: 'Alice', number: '447700900123' });
    expect(await messenger['contacts']?.['list']?.()).toEqual([added]);
    expect(calls).toEqual(['contacts.add', 'contacts.list']);
  });

  it('rejects a bad argument with a clear error, without calling the service', async () => {
    const { exposed, calls } = load(APP_URL);
    const messenger = exposed.get('messenger') as Exposed;
    const err = (await messenger['contacts']?.['add']?.({ name: 42 }).catch((e: unknown) => e)) as Error & {
      code?: string;
    };
    // an Error of the preload's own realm (the vm context), hence not `instanceof` this realm's Error
    expect(Object.prototype.toString.call(err)).toBe('[object Error]');
    expect(err.message).toMatch(/name/);
    expect(err.code).toBe('bad-argument');
    expect(calls).toEqual([]);
  });

  it('is refused when the page is not our renderer', async () => {
    const { exposed, calls } = load('https://evil.example/');
    const messenger = exposed.get('messenger') as Exposed;
    await expect(messenger['contacts']?.['list']?.()).rejects.toThrow(/may not use the messenger API/);
    expect(calls).toEqual([]);
  });

  it('delivers whitelisted events and menu actions, and stops after unsubscribe', () => {
    const { exposed, emit } = load(APP_URL);
    const events = exposed.get('messengerEvents') as Events;
    const got: unknown[] = [];
    const off = events.on('inbox:received', (p) => got.push(['inbox:received', p]));
    events.on('menu:compose', (p) => got.push(['menu:compose', p]));
    // the main side's forwarding, sending on the same channel the preload listens to
    const subs = new Map<string, (p: unknown) => void>();
    forwardEvents(
      {
        on: (e: EventChannel, l: (p: unknown) => void) => {
          subs.set(e, l);
          return () => undefined;
        },
      },
      (channel, event, payload) => emit(channel, event, payload),
    );
    expect(subs.size).toBe(EVENT_CHANNELS.length);
    subs.get('inbox:received')?.({ unreadTotal: 2, messages: [] });
    emit(IPC_MENU_CHANNEL, 'menu:compose');
    emit('messenger:event', 'not:allowed', { x: 1 });
    emit(IPC_MENU_CHANNEL, 'inbox:received'); // the menu channel carries menu actions only
    off();
    subs.get('inbox:received')?.({ unreadTotal: 3, messages: [] });
    expect(got).toEqual([
      ['inbox:received', { unreadTotal: 2, messages: [] }],
      ['menu:compose', undefined],
    ]);
    expect(() => events.on('ipc:anything', () => undefined)).toThrow(/Unknown messenger event/);
  });
});

describe('preload bridge over the real service facade', () => {
  it('adds and lists contacts, and refuses bad input, through the bundled bridge', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'electron-preload-'));
    const logs: string[] = [];
    const app = await createMessengerApp({ dataDir, env: {}, log: (m) => logs.push(m) });
    try {
      const { exposed } = load(APP_URL, app.api);
      const messenger = exposed.get('messenger') as Exposed;
      const contacts = messenger['contacts'] ?? {};
      const added = (await contacts['add']?.({ name: 'Alice', number: '+44 7700 900123' })) as {
        id: number;
        number: string;
      };
      expect(added.number).toBe('447700900123');
      expect(await contacts['list']?.()).toEqual([expect.objectContaining({ id: added.id, name: 'Alice' })]);
      // a malformed argument never reaches the store
      const bad = (await contacts['add']?.({ name: 'Bob', number: 447700900124 }).catch(
        (e: unknown) => e,
      )) as Error;
      expect(bad.message).toMatch(/number/);
      expect(await contacts['list']?.()).toHaveLength(1);
      // not signed in: a clear error, not a crash
      const credit = (await messenger['credit']?.['refresh']?.().catch((e: unknown) => e)) as Error;
      expect(Object.prototype.toString.call(credit)).toBe('[object Error]');
      expect(credit.message.length).toBeGreaterThan(0);
      expect(await messenger['accounts']?.['current']?.()).toBeNull();
    } finally {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
