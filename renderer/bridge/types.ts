import type { EventChannel, MessengerEvents } from '../../preload/api.ts';

/** `window.messengerEvents`: subscribe to a main-process event; returns the unsubscribe function. */
export interface MessengerEventsApi {
  on<E extends EventChannel>(event: E, listener: (payload: MessengerEvents[E]) => void): () => void;
}
