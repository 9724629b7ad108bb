import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  API_CHANNELS,
  ApiError,
  EVENT_CHANNELS,
  IPC_CALL_PREFIX,
  IPC_EVENT_CHANNEL,
  MENU_EVENTS,
  isApiChannel,
  isEventChannel,
  isMenuEvent,
} from '../../../preload/ipc-contract.ts';
import type { ApiEnvelope } from '../../../preload/ipc-contract.ts';
import type { EventChannel, MessengerApi } from '../../../preload/api.ts';
import { bindApi, forwardEvents } from '../../../main/electron/ipc.ts';
import type { HandleFn } from '../../../main/electron/ipc.ts';
import { bindApi as bindFacade } from '../../../main/services/api-binding.ts';
import { MENU_EVENTS as POLICY_MENU_EVENTS } from '../../../main/electron/policy.ts';

type Listener = Parameters<HandleFn>[1];
const APP_URL = 'file:///opt/messenger/out/renderer/index.html';

/** A small in-memory contacts service standing in for the facade; every other call throws. */
function fakeApi(calls: string[]): MessengerApi {
  const contacts: Array<{ id: number; name: string; number: string }> = [];
  const unavailable = new Proxy(
    {},
    {
      get: (_t, name) => () => Promise.reject(new Error(`${String(name)} not in this test`)),
    },
  );
  return new Proxy(
    {
      contacts: {
        async list() {
          calls.push('contacts.list');
          return contacts;
        },
        async add(input: { name: string; number: string }) {
          calls.push('contacts.add');
          if (input.number === '123') {
            throw new ApiError('invalid-number', '123 is not a valid number', [
              { field: 'number', rule: 'msisdn', value: '123', message: 'too short' },
            ]);
          }
          const c = { id: contacts.length + 1, ...input };
          contacts.push(c);
          return c;
        },
        async delete(id: number) {
          calls.push(`contacts.delete ${id}`);
        },
      },
    } as unknown as MessengerApi,
    {
      get: (t, area) => (area in t ? (t as unknown as Record<string, unknown>)[area as string] : unavailable),
    },
  );
}

function bind() {
  const handlers = new Map<string, Listener>();
  const calls: string[] = [];
  const after: string[] = [];
  const forbidden: string[] = [];
  const bound = bindApi({
    handle: (channel, listener) => {
      expect(handlers.has(channel)).toBe(false);
      handlers.set(channel, listener);
    },
    // the facade's binding (argument check of validate-args.ts, ApiError mapping) over the fake
    call: bindFacade(fakeApi(calls), () => false).call,
    isTrustedSender: (url) => url === APP_URL,
    onForbidden: (channel, url) => forbidden.push(`${channel} ${url}`),
    afterCall: (channel) => after.push(channel),
  });
  const invoke = (channel: string, url: string | null, ...args: unknown[]): Promise<ApiEnvelope> => {
    const h = handlers.get(IPC_CALL_PREFIX + channel);
    if (!h) throw new Error(`no handler for ${channel}`);
    return h({ senderFrame: url === null ? null : { url } }, ...args);
  };
  return { handlers, calls, after, forbidden, bound, invoke };
}

describe('IPC binding', () => {
  it('binds exactly every API channel', () => {
    const { handlers, bound } = bind();
    expect(bound).toEqual([...API_CHANNELS]);
    expect([...handlers.keys()].sort()).toEqual(API_CHANNELS.map((c) => IPC_CALL_PREFIX + c).sort());
  });

  it('calls the service and answers with its result', async () => {
    const { invoke, calls, after } = bind();
    const added = await invoke('contacts.add', APP_URL, { name: 'Alice', number: '447700900123' });
    expect(added).toEqual({ ok: true, result: { id: 1, name: 'Alice', number: '447700900123' } });
    expect(await invoke('contacts.list', APP_URL)).toEqual({
      ok: true,
      result: [{ id: 1, name: 'Alice', number: '447700900123' }],
    });
    // a void call answers null (structured-clone friendly), not undefined
    expect(await invoke('contacts.delete', APP_URL, 1)).toEqual({ ok: true, result: null });
    expect(calls).toEqual(['contacts.add', 'contacts.list', 'contacts.delete 1']);
    expect(after).toEqual(['contacts.add', 'contacts.list', 'contacts.delete']);
  });

  it('refuses a call from another frame without touching the service', async () => {
    const { invoke, calls, forbidden } = bind();
    for (const url of ['https://evil.example/', 'about:blank', null]) {
      const r = await invoke('contacts.add', url, { name: 'Mallory', number: '447700900666' });
      expect(r).toEqual({ ok: false, error: { message: expect.any(String), code: 'forbidden' } });
    }
    expect(calls).toEqual([]);
    expect(forbidden).toEqual([
      'contacts.add https://evil.example/',
      'contacts.add about:blank',
      'contacts.add undefined',
    ]);
  });

  it('answers a bad argument with code bad-argument and never calls the service', async () => {
    const { invoke, calls } = bind();
    for (const bad of [undefined, null, 'Alice', { name: 'Alice' }, { name: 1, number: '447700900123' }]) {
      const r = await invoke('contacts.add', APP_URL, bad);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error.code).toBe('bad-argument');
    }
    const two = await invoke('contacts.list', APP_URL, 1, 2);
    expect(!two.ok && two.error).toEqual({
      message: 'contacts.list takes at most one argument',
      code: 'bad-argument',
    });
    expect(calls).toEqual([]);
  });

  it("passes a service error's message, code and problems to the renderer", async () => {
    const { invoke } = bind();
    const r = await invoke('contacts.add', APP_URL, { name: 'Bob', number: '123' });
    expect(r).toEqual({
      ok: false,
      error: {
        message: '123 is not a valid number',
        code: 'invalid-number',
        problems: [{ field: 'number', rule: 'msisdn', value: '123', message: 'too short' }],
      },
    });
    // an unexpected error keeps its message and gets the code 'internal'
    const other = await invoke('credit.get', APP_URL);
    expect(other).toEqual({ ok: false, error: { message: 'get not in this test', code: 'internal' } });
  });
});

describe('events', () => {
  it('forwards every event channel, and only those, until unsubscribed', () => {
    const subs = new Map<string, (payload: unknown) => void>();
    const events = {
      on(event: EventChannel, listener: (payload: unknown) => void) {
        subs.set(event, listener);
        return () => subs.delete(event);
      },
    };
    const sent: unknown[][] = [];
    const off = forwardEvents(events, (...args) => sent.push(args));
    expect([...subs.keys()].sort()).toEqual([...EVENT_CHANNELS].sort());
    subs.get('inbox:received')?.({ messages: [], unreadTotal: 3 });
    expect(sent).toEqual([[IPC_EVENT_CHANNEL, 'inbox:received', { messages: [], unreadTotal: 3 }]]);
    off();
    expect(subs.size).toBe(0);
  });

  it('knows the channel names', () => {
    expect(isApiChannel('contacts.add')).toBe(true);
    expect(isApiChannel('contacts.__proto__')).toBe(false);
    expect(isApiChannel('constructor')).toBe(false);
    expect(isEventChannel('inbox:received')).toBe(true);
    expect(isEventChannel('menu:compose')).toBe(false);
    expect(isMenuEvent('menu:compose')).toBe(true);
    expect(isMenuEvent('inbox:received')).toBe(false);
  });
});

describe('preload bridge', () => {
  const preload = readFileSync(new URL('../../../preload/index.ts', import.meta.url), 'utf8');

  it('takes every channel name from the one contract', () => {
    expect(preload).toContain("from './ipc-contract.ts';");
    // no channel or menu name written out in the preload: they are ipc-contract.ts's
    expect(preload).not.toMatch(/'messenger:(call|event|menu)/);
    for (const e of MENU_EVENTS) expect(preload).not.toContain(`'${e}'`);
    // the Electron menu sends exactly the contract's menu events
    expect(POLICY_MENU_EVENTS).toBe(MENU_EVENTS);
  });

  it('exposes only the call bridge and the event whitelist, never ipcRenderer', () => {
    const exposed = [...preload.matchAll(/exposeInMainWorld\('(\w+)', (\w+)\)/g)].map((m) => [m[1], m[2]]);
    expect(exposed).toEqual([
      ['messengerBridge', 'messengerBridge'],
      ['messengerEvents', 'messengerEvents'],
    ]);
  });
});
