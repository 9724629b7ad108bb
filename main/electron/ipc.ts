// The IPC binding of the one typed API (preload/api.ts), kept free of 'electron' so it is tested
// under plain Node (test/unit/electron/ipc.test.ts): index.ts passes ipcMain.handle in.
//
// Every call answers with an envelope instead of a rejected promise, because ipcMain.handle turns a
// thrown error into "Error invoking remote method …" and drops its code and problems; the preload
// bridge unwraps the envelope and throws in the renderer.
import { API_CHANNELS, EVENT_CHANNELS } from '../../preload/api.ts';
import type { ApiChannel, EventChannel, MessengerApi } from '../../preload/api.ts';

/** IPC channel names: one per API call ('messenger:call:' + ApiChannel), one for events, one for the menu. */
export const IPC_PREFIX = 'messenger:call:';
export const IPC_EVENT_CHANNEL = 'messenger:event';
export const IPC_MENU_CHANNEL = 'messenger:menu';

export interface WireError {
  message: string;
  code?: string;
  problems?: unknown[];
}
export type IpcEnvelope = { ok: true; result: unknown } | { ok: false; error: WireError };

/** The part of Electron's IpcMainInvokeEvent the binding reads. */
export interface InvokeEventLike {
  senderFrame: { url: string } | null;
}
export type HandleFn = (
  channel: string,
  listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<IpcEnvelope>,
) => void;

/** Throws (an error with code 'bad-argument' and problems) when `arg` is not right for `channel`. */
export type ArgCheck = (channel: ApiChannel, arg: unknown) => void;

export function isApiChannel(value: unknown): value is ApiChannel {
  return typeof value === 'string' && (API_CHANNELS as ReadonlyArray<string>).includes(value);
}
export function isEventChannel(value: unknown): value is EventChannel {
  return typeof value === 'string' && (EVENT_CHANNELS as ReadonlyArray<string>).includes(value);
}

/** Call `api[area][method](arg)` for "area.method" (every API method takes at most one argument). */
export async function callChannel(api: MessengerApi, channel: ApiChannel, arg: unknown): Promise<unknown> {
  const dot = channel.indexOf('.');
  const area = channel.slice(0, dot) as keyof MessengerApi;
  const method = channel.slice(dot + 1);
  const group = api[area] as unknown as Record<string, unknown>;
  const fn = group[method];
  if (typeof fn !== 'function')
    throw Object.assign(new Error(`${channel} is not available`), { code: 'internal' });
  return (await (fn as (a?: unknown) => unknown).call(group, arg)) ?? null;
}

/** An error as it crosses to the renderer: message, and code / problems when the service gave them. */
export function toWireError(e: unknown): WireError {
  if (e instanceof Error || (typeof e === 'object' && e !== null)) {
    const o = e as { message?: unknown; code?: unknown; problems?: unknown };
    const out: WireError = {
      message: typeof o.message === 'string' && o.message ? o.message : 'Unexpected error',
    };
    if (typeof o.code === 'string') out.code = o.code;
    if (Array.isArray(o.problems)) out.problems = structuredClone(o.problems) as unknown[];
    return out;
  }
  return { message: typeof e === 'string' && e ? e : 'Unexpected error' };
}

/**
 * Register a handler for every API_CHANNELS entry. Each call: the sender frame must be our
 * renderer (else code 'forbidden', the service is not called), exactly zero or one argument,
 * the argument checked by `checkArg`, then the service call; any failure becomes an error
 * envelope, never a crash of the main process.
 */
export function bindApi(opts: {
  handle: HandleFn;
  api: MessengerApi;
  isTrustedSender: (url: string | undefined) => boolean;
  checkArg: ArgCheck;
  onForbidden?: (channel: ApiChannel, url: string | undefined) => void;
  /** Told of every successful call (the shell follows the unread count, update links, …). */
  afterCall?: (channel: ApiChannel, result: unknown) => void;
}): ApiChannel[] {
  for (const channel of API_CHANNELS) {
    opts.handle(IPC_PREFIX + channel, async (event, ...args) => {
      const url = event.senderFrame?.url;
      if (!opts.isTrustedSender(url)) {
        opts.onForbidden?.(channel, url);
        return {
          ok: false,
          error: { message: 'This window may not use the messenger API.', code: 'forbidden' },
        };
      }
      try {
        if (args.length > 1) {
          throw Object.assign(new Error(`${channel} takes at most one argument`), { code: 'bad-argument' });
        }
        const arg = args[0];
        opts.checkArg(channel, arg);
        const result = await callChannel(opts.api, channel, arg);
        try {
          opts.afterCall?.(channel, result);
        } catch {
          // an observer's failure is not the call's
        }
        return { ok: true, result };
      } catch (e) {
        return { ok: false, error: toWireError(e) };
      }
    });
  }
  return [...API_CHANNELS];
}

/**
 * Forward every service event to the window (only EVENT_CHANNELS; `send` is webContents.send
 * bound to the window, skipped while it is gone). Returns the unsubscribe.
 */
export function forwardEvents(
  events: { on(event: EventChannel, listener: (payload: unknown) => void): () => void },
  send: (channel: string, event: EventChannel, payload: unknown) => void,
): () => void {
  const offs = EVENT_CHANNELS.map((name) =>
    events.on(name, (payload) => send(IPC_EVENT_CHANNEL, name, payload)),
  );
  return () => {
    for (const off of offs) off();
  };
}
