// The preload as Electron loads it (test/support/preload-bundle.ts): bundled by vite into one
// CommonJS file, run in a fresh V8 context whose only module is a stand-in 'electron' wired to the
// real main-side binding (main/electron/ipc.ts bindApi), so a call goes renderer (apiOver) →
// preload → IPC → sender check → the facade's call (argument check of
// main/services/validate-args.ts) → service, and back as an envelope.
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forwardEvents } from '../../../main/electron/ipc.ts';
import { bindApi as bindFacade } from '../../../main/services/api-binding.ts';
import { ARG_CHECKS } from '../../../main/services/validate-args.ts';
import { createMessengerApp } from '../../../main/services/app.ts';
import {
  ApiError,
  API_CHANNELS,
  EVENT_CHANNELS,
  IPC_CALL_PREFIX,
  IPC_MENU_CHANNEL,
} from '../../../preload/ipc-contract.ts';
import type { ApiEnvelope } from '../../../preload/ipc-contract.ts';
import type { EventChannel, MessengerApi } from '../../../preload/api.ts';
import { buildPreload, loadPreload } from '../../support/preload-bundle.ts';
import type { LoadedPreload } from '../../support/preload-bundle.ts';

const APP_URL = 'file:///opt/messenger/out/renderer/index.html';
let bundle = '';

beforeAll(async () => {
  const built = await buildPreload();
  expect(built.chunks).toBe(1); // one file: a sandboxed preload cannot load modules
  bundle = built.code;
}, 60_000);

/** The preload over a small contacts service (through the facade's real binding) or the real facade. */
function load(senderUrl: string, realCall?: (channel: unknown, arg?: unknown) => Promise<unknown>) {
  const calls: string[] = [];
  const contacts: unknown[] = [];
  const fake = {
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
  const call = realCall ?? bindFacade(fake, () => false).call;
  const loaded: LoadedPreload = loadPreload(bundle, senderUrl, call, (url) => url === APP_URL);
  return { ...loaded, calls };
}

type Bridge = { invoke(channel: unknown, arg?: unknown): Promise<ApiEnvelope> };
type Events = { on(event: string, listener: (payload: unknown) => void): () => void };

describe('preload bridge (bundled)', () => {
  it('requires only electron and exposes exactly messengerBridge and messengerEvents', async () => {
    const { exposed, required, invoked, api } = load(APP_URL);
    expect([...new Set(required)]).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['messengerBridge', 'messengerEvents']);
    expect(Object.keys(exposed.get('messengerBridge') as object)).toEqual(['invoke']);
    expect(Object.keys(exposed.get('messengerEvents') as object)).toEqual(['on']);
    expect(JSON.stringify([...exposed.keys()])).not.toMatch(/ipc/i);
    // the renderer's API has exactly the contract's calls
    const methods = Object.entries(api).flatMap(([area, group]) =>
      Object.keys(group as object).map((m) => `${area}.${m}`),
    );
    expect(methods.sort()).toEqual([...API_CHANNELS].sort());
    // the bridge invokes API channels only: anything else is refused before any IPC
    const bridge = exposed.get('messengerBridge') as Bridge;
    for (const channel of ['ipc:anything', 'contacts.__proto__', 42]) {
      expect(await bridge.invoke(channel)).toEqual({
        ok: false,
        error: { code: 'unknown-channel', message: expect.any(String) },
      });
    }
    expect(invoked).toEqual([]);
    await bridge.invoke('contacts.list');
    expect(invoked).toEqual([`${IPC_CALL_PREFIX}contacts.list`]);
  });

  it('round-trips a call to the service and back', async () => {
    const { api, calls } = load(APP_URL);
    const added = await api.contacts.add({ name: 'Alice', number: '447700900123' });
    expect(added).toEqual({ id: 1, name: 'Alice', number: '447700900123' });
    expect(await api.contacts.list()).toEqual([added]);
    expect(calls).toEqual(['contacts.add', 'contacts.list']);
  });

  it('rejects a bad argument with a clear error, without calling the service', async () => {
    const { api, calls } = load(APP_URL);
    const err = await api.contacts
      .add({ name: 42 } as unknown as { name: string; number: string })
      .catch((e: unknown) => e);
    // rebuilt in the renderer's world from the envelope, so the code survives the contextBridge
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toMatch(/name/);
    expect((err as ApiError).code).toBe('bad-argument');
    expect(calls).toEqual([]);
  });

  it('is refused when the page is not our renderer', async () => {
    const { api, calls } = load('https://evil.example/');
    const err = await api.contacts.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toMatch(/may not use the messenger API/);
    expect((err as ApiError).code).toBe('forbidden');
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
      const { api } = load(APP_URL, app.call);
      const added = await api.contacts.add({ name: 'Alice', number: '+44 7700 900123' });
      expect(added.number).toBe('447700900123');
      expect(await api.contacts.list()).toEqual([expect.objectContaining({ id: added.id, name: 'Alice' })]);
      // a malformed argument never reaches the store
      const bad = (await api.contacts
        .add({ name: 'Bob', number: 447700900124 } as unknown as { name: string; number: string })
        .catch((e: unknown) => e)) as ApiError;
      expect(bad.message).toMatch(/number/);
      expect(await api.contacts.list()).toHaveLength(1);
      // not signed in: a clear error with its code, not a crash
      const credit = (await api.credit.refresh().catch((e: unknown) => e)) as ApiError;
      expect(Object.prototype.toString.call(credit)).toBe('[object Error]');
      expect(credit.message.length).toBeGreaterThan(0);
      expect(credit.code).toBe('not-signed-in');
      expect(await api.accounts.current()).toBeNull();
    } finally {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('checks an argument once on the way (validate-args.ts), then refuses it with bad-argument', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'electron-preload-'));
    const app = await createMessengerApp({ dataDir, env: {}, log: () => {} });
    const check = ARG_CHECKS['contacts.add'];
    let checks = 0;
    ARG_CHECKS['contacts.add'] = (value, path) => {
      checks++;
      return check(value, path);
    };
    try {
      const { api } = load(APP_URL, app.call);
      const bad = (await api.contacts
        .add({ name: 'Bob' } as unknown as { name: string; number: string })
        .catch((e: unknown) => e)) as ApiError;
      expect(bad).toBeInstanceOf(ApiError);
      expect(bad.code).toBe('bad-argument');
      expect(bad.message).toBe('contacts.add: argument.number is required');
      expect(checks).toBe(1);
      await api.contacts.add({ name: 'Alice', number: '+44 7700 900123' });
      expect(checks).toBe(2);
      expect(await api.contacts.list()).toHaveLength(1);
    } finally {
      ARG_CHECKS['contacts.add'] = check;
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
