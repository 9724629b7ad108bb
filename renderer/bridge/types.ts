import type { EventChannel, MessengerEvents } from '../../preload/api.ts';
import type { MenuEvent } from '../../preload/ipc-contract.ts';

/** The services' events and the Electron app menu's actions (delivered without a payload). */
export type RendererEvents = MessengerEvents & Record<MenuEvent, undefined>;
export type RendererEventChannel = EventChannel | MenuEvent;

/** `window.messengerEvents`: subscribe to a main-process event; returns the unsubscribe function. */
export interface MessengerEventsApi {
  on<E extends RendererEventChannel>(event: E, listener: (payload: RendererEvents[E]) => void): () => void;
}
