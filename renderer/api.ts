// The renderer's handle on the one typed API (preload/api.ts) and small hooks around it.
import { useEffect, useRef } from 'react';
import type { MessengerApi } from '../preload/api.ts';
import type { MessengerEventsApi, RendererEventChannel, RendererEvents } from './bridge/types.ts';
import type { WebBridge } from './bridge/web.ts';

let current: { api: MessengerApi; events: MessengerEventsApi; bridge: WebBridge | null } | null = null;

export function setApi(api: MessengerApi, events: MessengerEventsApi, bridge: WebBridge | null): void {
  current = { api, events, bridge };
}

export function api(): MessengerApi {
  if (!current) throw new Error('the messenger API is not set up');
  return current.api;
}

export function bridge(): WebBridge | null {
  return current?.bridge ?? null;
}

/** Subscribe to a main-process event until the returned function is called (hooks: useEvent, useLiveRead). */
export function onEvent<E extends RendererEventChannel>(
  event: E,
  listener: (payload: RendererEvents[E]) => void,
): () => void {
  return current ? current.events.on(event, listener) : () => undefined;
}

/** Subscribe to a main-process event for the component's lifetime (latest listener always used). */
export function useEvent<E extends RendererEventChannel>(
  event: E,
  listener: (payload: RendererEvents[E]) => void,
): void {
  const ref = useRef(listener);
  useEffect(() => {
    ref.current = listener;
  });
  useEffect(() => {
    if (!current) return undefined;
    return current.events.on(event, (p) => ref.current(p));
  }, [event]);
}

/** A readable message of any thrown value (API errors carry the service's sentence). */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The menu's "Send" (Electron) asks the open Compose view to send, as Ctrl/Cmd+Enter does. */
export const SEND_REQUEST_EVENT = 'messenger:send-request';
