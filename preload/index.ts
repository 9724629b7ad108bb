// The preload bridge (bundled by electron-vite into one CommonJS file, out/preload/index.cjs, as a
// sandboxed preload must be). It exposes exactly two objects to the renderer, never ipcRenderer:
// - window.messengerBridge.invoke(channel, arg?) → the { ok, result | error } envelope of
//   ./ipc-contract.ts, one ipcRenderer.invoke on IPC_CALL_PREFIX + channel, for API_CHANNELS
//   only (main/electron/ipc.ts checks the sender and answers). The renderer builds its
//   MessengerApi over it with apiOver(), which unwraps the envelope in the renderer's own world:
//   an Error thrown here would cross the contextBridge as a copy with its message only, losing
//   the code and problems the web shell keeps.
// - window.messengerEvents.on(event, listener) → unsubscribe, for EVENT_CHANNELS and MENU_EVENTS.
// Every name comes from ./ipc-contract.ts, as in main/electron/ and the web bridge.
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import {
  EVENT_CHANNELS,
  IPC_CALL_PREFIX,
  IPC_EVENT_CHANNEL,
  IPC_MENU_CHANNEL,
  MENU_EVENTS,
  ApiError,
  errorEnvelope,
  isApiChannel,
  isMenuEvent,
} from './ipc-contract.ts';
import type { ApiEnvelope } from './ipc-contract.ts';

/**
 * One call to the main process: the envelope it answers, passed on as it is (plain data crosses the
 * contextBridge whole). A failure of the IPC itself (no handler, a clone error) is an envelope too.
 */
async function invokeChannel(
  invoke: (channel: string, ...args: unknown[]) => Promise<unknown>,
  channel: unknown,
  args: unknown[],
): Promise<ApiEnvelope> {
  if (!isApiChannel(channel)) {
    return errorEnvelope(new ApiError('unknown-channel', `no API call ${JSON.stringify(channel)}`));
  }
  try {
    // Only the first argument crosses (every API method takes at most one).
    const reply = (await invoke(IPC_CALL_PREFIX + channel, ...args.slice(0, 1))) as ApiEnvelope | null;
    if (reply && (reply.ok === true || reply.ok === false)) return reply;
    return errorEnvelope(new ApiError('internal', 'no answer from the main process'));
  } catch (e) {
    return errorEnvelope(e);
  }
}

const messengerBridge = {
  invoke: (channel: unknown, ...args: unknown[]): Promise<ApiEnvelope> =>
    invokeChannel((ch, ...a) => ipcRenderer.invoke(ch, ...a), channel, args),
};

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
  if (isMenuEvent(name)) dispatch(name, undefined);
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

contextBridge.exposeInMainWorld('messengerBridge', messengerBridge);
contextBridge.exposeInMainWorld('messengerEvents', messengerEvents);
