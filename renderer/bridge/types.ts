import type { EventChannel, MessengerEvents } from '../../preload/api.ts';

/** The Electron app menu's actions, delivered as events without a payload (preload/index.ts). */
export type MenuEvent = 'menu:compose' | 'menu:send' | 'menu:search' | 'menu:checkUpdates';

export type RendererEvents = MessengerEvents & Record<MenuEvent, undefined>;
export type RendererEventChannel = EventChannel | MenuEvent;

/** `window.messengerEvents`: subscribe to a main-process event; returns the unsubscribe function. */
export interface MessengerEventsApi {
  on<E extends RendererEventChannel>(event: E, listener: (payload: RendererEvents[E]) => void): () => void;
}
