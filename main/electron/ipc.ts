// The IPC binding of the one typed API (preload/api.ts, preload/ipc-contract.ts), kept free of
// 'electron' so it is tested under plain Node (test/unit/electron/ipc.test.ts): index.ts passes
// ipcMain.handle in.
//
// Every call answers with the contract's envelope instead of a rejected promise, because
// ipcMain.handle turns a thrown error into "Error invoking remote method …" and drops its code and
// problems; the renderer unwraps the envelope (ipc-contract.ts apiOver) into the same ApiError as
// the web shell's. The argument is checked once, by the facade's `call` (main/services/api-binding.ts),
// not here.
import {
  ApiError,
  API_CHANNELS,
  EVENT_CHANNELS,
  IPC_CALL_PREFIX,
  IPC_EVENT_CHANNEL,
  errorEnvelope,
  okEnvelope,
} from '../../preload/ipc-contract.ts';
import type { ApiEnvelope } from '../../preload/ipc-contract.ts';
import type { ApiChannel, EventChannel } from '../../preload/api.ts';

/** The part of Electron's IpcMainInvokeEvent the binding reads. */
export interface InvokeEventLike {
  senderFrame: { url: string } | null;
}
export type HandleFn = (
  channel: string,
  listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<ApiEnvelope>,
) => void;

/** The facade's generic call (MessengerApp.call): checks the argument, runs the service, throws ApiError. */
export type CallFn = (channel: ApiChannel, arg?: unknown) => Promise<unknown>;

/**
 * Register a handler for every API_CHANNELS entry. Each call: the sender frame must be our
 * renderer (else code 'forbidden', the service is not called), at most one argument (IPC can carry
 * more), then `call`, which checks the argument and runs the service; any failure becomes an error
 * envelope, never a crash of the main process.
 */
export function bindApi(opts: {
  handle: HandleFn;
  call: CallFn;
  isTrustedSender: (url: string | undefined) => boolean;
  onForbidden?: (channel: ApiChannel, url: string | undefined) => void;
  /** Told of every successful call (the shell follows the unread count, update links, …). */
  afterCall?: (channel: ApiChannel, result: unknown) => void;
}): ApiChannel[] {
  for (const channel of API_CHANNELS) {
    opts.handle(IPC_CALL_PREFIX + channel, async (event, ...args) => {
      const url = event.senderFrame?.url;
      if (!opts.isTrustedSender(url)) {
        opts.onForbidden?.(channel, url);
        return errorEnvelope(new ApiError('forbidden', 'This window may not use the messenger API.'));
      }
      try {
        if (args.length > 1) {
          throw new ApiError('bad-argument', `${channel} takes at most one argument`);
        }
        const result = await opts.call(channel, args[0]);
        try {
          opts.afterCall?.(channel, result);
        } catch {
          // an observer's failure is not the call's
        }
        return okEnvelope(result);
      } catch (e) {
        return errorEnvelope(e);
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
