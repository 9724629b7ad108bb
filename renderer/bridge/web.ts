// MessengerApi over the web shell's WebSocket (main/web.ts, docs/ARCHITECTURE.md):
// → { id, channel, arg? }   ← { id, result } | { id, error: { message, code?, problems? } } | { event, payload }.
// Used when window.messenger is absent (the app runs in an ordinary browser).
import type { ApiChannel, MessengerApi } from '../../preload/api.ts';
import type { Problem } from '../../protocol/validate.ts';
import type { MessengerEventsApi, RendererEventChannel, RendererEvents } from './types.ts';

/** An error answered by the main process; `problems` lists every invalid field. */
export class ApiCallError extends Error {
  code: string | undefined;
  problems: Problem[] | undefined;
  constructor(message: string, code?: string, problems?: Problem[]) {
    super(message);
    this.name = 'ApiCallError';
    this.code = code;
    this.problems = problems;
  }
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

export interface WebBridge {
  api: MessengerApi;
  events: MessengerEventsApi;
  /** 'open' | 'closed' changes (the UI shows a banner while disconnected). */
  onConnection(listener: (open: boolean) => void): () => void;
}

export function createWebBridge(url = defaultUrl()): WebBridge {
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const connListeners = new Set<(open: boolean) => void>();
  let queue: string[] = [];
  let ws: WebSocket | null = null;
  let retry = 500;

  function connect(): void {
    const socket = new WebSocket(url);
    ws = socket;
    socket.addEventListener('open', () => {
      retry = 500;
      for (const m of queue) socket.send(m);
      queue = [];
      for (const l of connListeners) l(true);
    });
    socket.addEventListener('message', (ev) => {
      let msg: {
        id?: number;
        result?: unknown;
        error?: { message: string; code?: string; problems?: Problem[] };
        event?: string;
        payload?: unknown;
      };
      try {
        msg = JSON.parse(String(ev.data)) as typeof msg;
      } catch {
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
      if (msg.error) p.reject(new ApiCallError(msg.error.message, msg.error.code, msg.error.problems));
      else p.resolve(msg.result); // null stays null (accounts.current() when signed out)
    });
    socket.addEventListener('close', () => {
      ws = null;
      for (const l of connListeners) l(false);
      // Calls in flight have no answer coming: fail them rather than hang.
      for (const [id, p] of pending) {
        pending.delete(id);
        p.reject(new ApiCallError('connection to the app was lost', 'disconnected'));
      }
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10_000);
    });
  }
  connect();

  function call(channel: ApiChannel, arg: unknown): Promise<unknown> {
    const id = nextId++;
    const text = JSON.stringify(arg === undefined ? { id, channel } : { id, channel, arg });
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(text);
      else queue.push(text);
    });
  }

  // Every call is "area.method" (preload/api.ts ApiChannel); a Proxy builds them on demand, since
  // the renderer may import only the types of preload/api.ts, not its channel list.
  const areas = new Map<string, Record<string, (arg?: unknown) => Promise<unknown>>>();
  const api = new Proxy({} as Record<string, unknown>, {
    get(_t, area) {
      if (typeof area !== 'string' || area === 'then') return undefined;
      let methods = areas.get(area);
      if (!methods) {
        methods = new Proxy({} as Record<string, (arg?: unknown) => Promise<unknown>>, {
          get(cache, method) {
            if (typeof method !== 'string' || method === 'then') return undefined;
            cache[method] ??= (arg?: unknown) => call(`${area}.${method}` as ApiChannel, arg);
            return cache[method];
          },
        });
        areas.set(area, methods);
      }
      return methods;
    },
  });

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
    api: api as unknown as MessengerApi,
    events,
    onConnection(l) {
      connListeners.add(l);
      return () => connListeners.delete(l);
    },
  };
}

function defaultUrl(): string {
  const u = new URL('/api', window.location.href);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  // The page load set the HttpOnly cookie; the token in the query covers browsers that do not send it.
  const token = new URLSearchParams(window.location.search).get('token');
  if (token) u.searchParams.set('token', token);
  return u.toString();
}
