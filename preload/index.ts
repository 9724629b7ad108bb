// The preload bridge (bundled by electron-vite into one CommonJS file, out/preload/index.cjs, as a
// sandboxed preload must be). It exposes exactly two objects to the renderer, never ipcRenderer:
// - window.messenger: the MessengerApi of preload/api.ts, one ipcRenderer.invoke per API_CHANNELS
//   entry (main/electron/ipc.ts answers each with an { ok, result | error } envelope);
// - window.messengerEvents.on(event, listener) → unsubscribe, for EVENT_CHANNELS and the app
//   menu's 'menu:compose' | 'menu:send' | 'menu:search' | 'menu:checkUpdates' only.
// Channel names are repeated here (not imported from main/electron/ipc.ts) because preload/ may
// import nothing of main/; test/unit/electron/ipc.test.ts checks both sides agree.
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { API_CHANNELS, EVENT_CHANNELS } from './api.ts';
import type { ApiChannel } from './api.ts';

const IPC_PREFIX = 'messenger:call:';
const IPC_EVENT_CHANNEL = 'messenger:event';
const IPC_MENU_CHANNEL = 'messenger:menu';
const MENU_EVENTS = ['menu:compose', 'menu:send', 'menu:search', 'menu:checkUpdates'] as const;

type Envelope =
  | { ok: true; result: unknown }
  | { ok: false; error: { message: string; code?: string; problems?: unknown[] } };

/**
 * Errors reach the renderer as Error objects with the service's message. contextBridge copies an
 * Error's message only, not custom properties (code, problems are set but do not survive the
 * bridge), so each problem's message is appended to the text: nothing the user needs is lost.
 */
function toError(error: { message: string; code?: string; problems?: unknown[] }): Error {
  const problems = Array.isArray(error.problems)
    ? error.problems
        .map((p) =>
          p && typeof p === 'object' && 'message' in p ? String((p as { message: unknown }).message) : '',
        )
        .filter((m) => m !== '' && !error.message.includes(m))
    : [];
  const text = [error.message, ...problems].join('\n');
  return Object.assign(new Error(text), { code: error.code, problems: error.problems });
}

async function invoke(channel: ApiChannel, args: unknown[]): Promise<unknown> {
  const reply = (await ipcRenderer.invoke(IPC_PREFIX + channel, ...args.slice(0, 1))) as Envelope;
  if (reply && reply.ok === true) return reply.result;
  throw toError(reply && reply.ok === false ? reply.error : { message: 'No answer from the main process' });
}

const api: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
for (const channel of API_CHANNELS) {
  const [area = '', method = ''] = channel.split('.');
  const group = (api[area] ??= {});
  // Only the first argument crosses (every API method takes at most one).
  group[method] = (...args: unknown[]) => invoke(channel, args);
}

type Listener = (payload: unknown) => void;
const allowed = new Set<string>([...EVENT_CHANNELS, ...MENU_EVENTS]);
const listeners = new Map<string, Set<Listener>>();

function dispatch(name: unknown, payload: unknown): void {
  if (typeof name !== 'string' || !allowed.has(name)) return;
  for (const listener of [...(listeners.get(name) ?? [])]) {
    try {
      listener(payload);
    } catch (e) {
      console.error(`messengerEvents listener for ${name} failed`, e);
    }
  }
}

ipcRenderer.on(IPC_EVENT_CHANNEL, (_event: IpcRendererEvent, name: unknown, payload: unknown) =>
  dispatch(name, payload),
);
ipcRenderer.on(IPC_MENU_CHANNEL, (_event: IpcRendererEvent, name: unknown) => {
  if ((MENU_EVENTS as ReadonlyArray<unknown>).includes(name)) dispatch(name, undefined);
});

const messengerEvents = {
  on(event: string, listener: Listener): () => void {
    if (!allowed.has(event)) throw new Error(`Unknown messenger event: ${String(event)}`);
    if (typeof listener !== 'function') throw new Error('messengerEvents.on needs a listener function');
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  },
};

contextBridge.exposeInMainWorld('messenger', api);
contextBridge.exposeInMainWorld('messengerEvents', messengerEvents);
