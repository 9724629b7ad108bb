// The built preload (out/preload/index.cjs) run in a Chromium page before the page's own scripts,
// as Electron runs a preload, with a stand-in 'electron' whose ipcRenderer speaks the web shell's
// WebSocket (main/web.ts: { id, channel, arg? } → { id, ...envelope }, events { event, payload })
// instead of Electron's IPC. The built renderer then finds window.messengerBridge and
// window.messengerEvents and takes the Electron path of renderer/main.tsx (apiOver over the
// preload), so it runs as the packaged app runs it, over the web shell's services.
//
// The bundle becomes part of the init script's source (a page with a strict CSP allows no eval);
// `inPage` below runs in the page and may use nothing from this module.

export interface InPageOptions {
  /** IPC_CALL_PREFIX and IPC_EVENT_CHANNEL of preload/ipc-contract.ts. */
  callPrefix: string;
  eventChannel: string;
}

/** Runs in the page: the stand-in electron, then the preload's CommonJS body with it. */
function inPage(
  opts: InPageOptions,
  preload: (require: (id: string) => unknown, module: { exports: unknown }, exports: unknown) => void,
): void {
  /** What the stand-in saw, for the test: the channels invoked and the modules required. */
  const seen = { invoked: [] as string[], required: [] as string[], exposed: [] as string[] };
  Object.defineProperty(window, '__preloadStandin', { value: seen });
  // Electron has no window.prompt (it throws there); a renderer using it must fail here too
  window.prompt = () => {
    throw new Error('prompt() is and will not be supported.');
  };
  const url = new URL('/api', window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  // The web shell's handshake (main/web.ts): the URL's one-time token offered as a subprotocol.
  const token = new URLSearchParams(window.location.search).get('token');
  const socket = new WebSocket(url, token ? ['messenger', `messenger.token.${token}`] : ['messenger']);
  const queue: string[] = [];
  const pending = new Map<number, (envelope: unknown) => void>();
  const listeners = new Map<string, Array<(event: unknown, ...args: unknown[]) => void>>();
  let nextId = 1;
  socket.addEventListener('open', () => queue.splice(0).forEach((m) => socket.send(m)));
  socket.addEventListener('message', (ev) => {
    const msg = JSON.parse(String(ev.data)) as { id?: number; event?: string; payload?: unknown };
    if (typeof msg.event === 'string') {
      for (const l of listeners.get(opts.eventChannel) ?? []) l({ sender: null }, msg.event, msg.payload);
      return;
    }
    const resolve = typeof msg.id === 'number' ? pending.get(msg.id) : undefined;
    if (!resolve) return;
    pending.delete(msg.id!);
    const { id: _id, ...envelope } = msg;
    resolve(envelope);
  });
  const ipcRenderer = {
    invoke(channel: string, ...args: unknown[]): Promise<unknown> {
      seen.invoked.push(channel);
      if (!channel.startsWith(opts.callPrefix))
        return Promise.reject(new Error(`No handler registered for '${channel}'`));
      const id = nextId++;
      const message = JSON.stringify({
        id,
        channel: channel.slice(opts.callPrefix.length),
        ...(args.length > 0 ? { arg: structuredClone(args[0]) } : {}),
      });
      if (socket.readyState === WebSocket.OPEN) socket.send(message);
      else queue.push(message);
      return new Promise((resolve) => pending.set(id, resolve));
    },
    on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    },
  };
  // contextBridge: functions stay callable, data is copied, the exposed object is frozen
  const copy = (value: unknown): unknown => {
    if (typeof value === 'function') {
      const fn = value as (...a: unknown[]) => unknown;
      return (...a: unknown[]) => {
        const r = fn(...a.map((x) => (typeof x === 'function' ? x : structuredClone(x))));
        return r instanceof Promise ? r.then(copy) : copy(r);
      };
    }
    if (value && typeof value === 'object' && Object.values(value).some((v) => typeof v === 'function'))
      return Object.freeze(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)])));
    return structuredClone(value);
  };
  const electron = {
    contextBridge: {
      exposeInMainWorld(key: string, api: unknown): void {
        seen.exposed.push(key);
        Object.defineProperty(window, key, { value: copy(api), enumerable: true });
      },
    },
    ipcRenderer,
  };
  const module = { exports: {} };
  preload(
    (id) => {
      seen.required.push(id);
      if (id === 'electron') return electron;
      throw new Error(`a sandboxed preload cannot require ${id}`);
    },
    module,
    module.exports,
  );
}

/** The init script: `inPage` with the preload bundle as its CommonJS body. */
export function preloadInitScript(bundle: string, opts: InPageOptions): string {
  return `(${inPage.toString()})(${JSON.stringify(opts)}, function (require, module, exports) {\n${bundle}\n});`;
}
