// The globals the shells provide: Electron's preload bridge (contextBridge: messengerBridge and
// messengerEvents) or, in a browser, renderer/bridge/web.ts over the web shell's WebSocket;
// main.tsx sets window.messenger in both.
import type { ApiChannel, MessengerApi } from '../preload/api.ts';
import type { ApiEnvelope } from '../preload/ipc-contract.ts';
import type { MessengerEventsApi } from './bridge/types.ts';

declare global {
  interface Window {
    messenger?: MessengerApi;
    messengerBridge?: { invoke(channel: ApiChannel, arg?: unknown): Promise<ApiEnvelope> };
    messengerEvents?: MessengerEventsApi;
  }
}
