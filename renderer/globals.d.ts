// The globals the shells provide: Electron's preload bridge (contextBridge) or, in a browser,
// renderer/bridge/web.ts over the web shell's WebSocket.
import type { MessengerApi } from '../preload/api.ts';
import type { MessengerEventsApi } from './bridge/types.ts';

declare global {
  interface Window {
    messenger?: MessengerApi;
    messengerEvents?: MessengerEventsApi;
  }
}
