// The shells' one entry to the services: `call(channel, arg)` checks the argument at the boundary
// (validate-args.ts) — the only place it is checked, for both shells — runs the implementation and
// turns any failure into an ApiError (preload/ipc-contract.ts, with an ApiErrorCode); `api` is the
// same as a MessengerApi object (every method goes through `call`).
import { ValidationError } from '../client/results.ts';
import { InvalidRecipientsError, StoreError } from '../store/errors.ts';
import { isDamage } from '../store/db-health.ts';
import { checkArgument } from './validate-args.ts';
import { ApiError, isApiChannel } from '../../preload/ipc-contract.ts';
import type { ApiChannel, MessengerApi } from '../../preload/api.ts';

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Errors of the store and the client as API errors (code + readable message). */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof InvalidRecipientsError) {
    return new ApiError(
      err.code,
      err.message,
      err.problems.map((p) => ({ ...p })),
    );
  }
  if (err instanceof StoreError) return new ApiError(err.code, err.message);
  if (err instanceof ValidationError) return new ApiError('invalid-request', err.message, err.problems);
  // Issue 25: damage the start-up check could not see (it appeared later) is said as what it is.
  if (isDamage(err))
    return new ApiError(
      'database-damaged',
      `the database is damaged (${message(err)}): restart Messenger to check it and choose what to do`,
    );
  return new ApiError('internal', message(err));
}

export interface ApiBinding {
  /** Validates `arg` for `channel` and calls it. */
  call(channel: unknown, arg?: unknown): Promise<unknown>;
  /** The API handed to shells: every method goes through `call`. */
  api: MessengerApi;
}

/** Binds an implementation; `closing()` true refuses every call. */
export function bindApi(impl: MessengerApi, closing: () => boolean): ApiBinding {
  async function call(channel: unknown, arg?: unknown): Promise<unknown> {
    if (!isApiChannel(channel))
      throw new ApiError('unknown-channel', `no API call ${JSON.stringify(channel)}`);
    if (closing()) throw new ApiError('closed', 'the app is shutting down');
    checkArgument(channel, arg);
    const [area, method] = channel.split('.') as [keyof MessengerApi, string];
    const fn = (impl[area] as unknown as Record<string, (a?: unknown) => Promise<unknown>>)[method];
    if (!fn) throw new ApiError('unknown-channel', `no API call ${channel}`);
    try {
      return await fn(arg);
    } catch (err) {
      throw toApiError(err);
    }
  }

  const api = {} as Record<string, Record<string, (a?: unknown) => Promise<unknown>>>;
  for (const [area, methods] of Object.entries(impl)) {
    api[area] = {};
    for (const method of Object.keys(methods as object)) {
      const channel = `${area}.${method}` as ApiChannel;
      (api[area] as Record<string, (a?: unknown) => Promise<unknown>>)[method] = (a?: unknown) =>
        call(channel, a);
    }
  }
  return { call, api: api as unknown as MessengerApi };
}
