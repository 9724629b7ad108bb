// MessengerApi over the web shell's WebSocket (main/web.ts), used when the preload's
// window.messengerBridge is absent (the app runs in an ordinary browser):
// → { id, channel, arg? }   ← { id, ...ApiEnvelope } | { event, payload }.
// The envelope, the error codes and apiOver() are preload/ipc-contract.ts's, so an error reaches
// the renderer as the same ApiError (code, message, problems) as in the Electron app.
//
// Authentication (issue 17): no cookie. The one-time token of the printed URL is taken out of the
// address bar at once and offered in the WebSocket handshake (subprotocol "messenger.token.<t>");
// the app answers with a session for this tab ({ session }), kept in sessionStorage and offered on
// every reconnect ("messenger.session.<s>"). The URL token then works no more.
import { apiOver } from '../../preload/ipc-contract.ts';
import type { ApiEnvelope } from '../../preload/ipc-contract.ts';
import type { ApiChannel, MessengerApi } from '../../preload/api.ts';
import type { MessengerEventsApi, RendererEventChannel, RendererEvents } from './types.ts';

interface Pending {
  resolve: (envelope: unknown) => void;
}

export interface WebBridge {
  api: MessengerApi;
  events: MessengerEventsApi;
  /** 'open' | 'closed' changes (the UI shows a banner while disconnected). */
  onConnection(listener: (open: boolean) => void): () => void;
  /** Close the socket for good (no reconnect); calls in flight fail with 'disconnected'. */
  close(): void;
}

/** What the handshake offers: the URL's one-time token until a session was given, then the session. */
export interface WebCredentials {
  token: string | null;
  session: string | null;
  /** Keeps the session the app gave (the page: sessionStorage). */
  keep?: (session: string) => void;
}

export const WS_PROTOCOL = 'messenger';
const SESSION_KEY = 'messenger.session';

export function createWebBridge(url = defaultUrl(), creds: WebCredentials = pageCredentials()): WebBridge {
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const connListeners = new Set<(open: boolean) => void>();
  let queue: string[] = [];
  let ws: WebSocket | null = null;
  let retry = 500;
  let closed = false;

  function protocols(): string[] {
    if (creds.session) return [WS_PROTOCOL, `${WS_PROTOCOL}.session.${creds.session}`];
    if (creds.token) return [WS_PROTOCOL, `${WS_PROTOCOL}.token.${creds.token}`];
    return [WS_PROTOCOL];
  }

  function connect(): void {
    const socket = new WebSocket(url, protocols());
    ws = socket;
    socket.addEventListener('open', () => {
      retry = 500;
      for (const m of queue) socket.send(m);
      queue = [];
      for (const l of connListeners) l(true);
    });
    socket.addEventListener('message', (ev) => {
      let msg: { id?: number; event?: string; payload?: unknown; session?: unknown };
      try {
        msg = JSON.parse(String(ev.data)) as typeof msg;
      } catch {
        return;
      }
      if (typeof msg.session === 'string') {
        creds.session = msg.session;
        creds.token = null;
        creds.keep?.(msg.session);
        return;
      }
      if (typeof msg.event === 'string') {
        for (const l of listeners.get(msg.event) ?? []) l(msg.payload);
        return;
      }
      if (typeof msg.id !== 'number') return;
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      p.resolve(msg); // the envelope (with its id): apiOver unwraps it
    });
    socket.addEventListener('close', () => {
      ws = null;
      for (const l of connListeners) l(false);
      // Calls in flight have no answer coming: fail them rather than hang.
      for (const [id, p] of pending) {
        pending.delete(id);
        const lost: ApiEnvelope = {
          ok: false,
          error: { code: 'disconnected', message: 'connection to the app was lost' },
        };
        p.resolve(lost);
      }
      if (closed) return;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10_000);
    });
  }
  connect();

  /** One call: its envelope once the answer comes. */
  function invoke(channel: ApiChannel, arg?: unknown): Promise<unknown> {
    const id = nextId++;
    const text = JSON.stringify(arg === undefined ? { id, channel } : { id, channel, arg });
    return new Promise((resolve) => {
      pending.set(id, { resolve });
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(text);
      else queue.push(text);
    });
  }

  const api = apiOver(invoke);

  const events: MessengerEventsApi = {
    on<E extends RendererEventChannel>(event: E, listener: (payload: RendererEvents[E]) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const l = listener as (p: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    },
  };

  return {
    api,
    events,
    onConnection(l) {
      connListeners.add(l);
      return () => connListeners.delete(l);
    },
    close() {
      closed = true;
      ws?.close();
    },
  };
}

function defaultUrl(): string {
  const u = new URL('/api', window.location.href);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  return u.toString();
}

/** This tab's session, else the URL's token (removed from the address bar and the history entry). */
function pageCredentials(): WebCredentials {
  const here = new URL(window.location.href);
  const token = here.searchParams.get('token');
  if (token !== null) {
    here.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', here.pathname + here.search + here.hash);
  }
  let session: string | null = null;
  try {
    session = window.sessionStorage.getItem(SESSION_KEY);
  } catch {
    // storage switched off: the session lives as long as the page
  }
  return {
    // A new URL (the app restarted) wins over an old tab's session.
    token,
    session: token !== null ? null : session,
    keep: (s) => {
      try {
        window.sessionStorage.setItem(SESSION_KEY, s);
      } catch {
        // as above
      }
    },
  };
}
