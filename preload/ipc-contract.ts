// The one contract between the renderer and the main process, for both shells (Electron's IPC and
// the web shell's WebSocket): the call and event names, the app menu's events, the IPC channel
// names, the error codes and the { ok, result | error } envelope every call answers with. Plain
// TypeScript without Node or Electron types: main/, preload/index.ts and the renderer import it.
//
// Why an envelope: a rejected ipcMain.handle reaches ipcRenderer.invoke as a new Error ("Error
// invoking remote method …") without the thrown error's properties, and an Error crossing the
// contextBridge is copied again (message and stack only). So the main process answers every call
// with a plain object, the shells carry it unchanged, and `unwrapEnvelope` — run in the renderer's
// own world by `apiOver` — turns an error envelope into the same ApiError in both shells.
import type { ApiChannel, EventChannel, MessengerApi } from './api.ts';

/** Every call channel ("area.method"); the shells bind exactly these (a compile-time check keeps it complete). */
export const API_CHANNELS = [
  'accounts.list',
  'accounts.current',
  'accounts.signIn',
  'accounts.signOut',
  'accounts.changePin',
  'send.submit',
  'send.permittedReplyTo',
  'outbox.jobs',
  'outbox.job',
  'outbox.batches',
  'outbox.recipients',
  'outbox.unknownBatches',
  'outbox.cancel',
  'outbox.resend',
  'inbox.conversations',
  'inbox.thread',
  'inbox.markRead',
  'inbox.markUnread',
  'inbox.delete',
  'inbox.exportCsv',
  'inbox.unreadTotal',
  'inbox.pollNow',
  'inbox.search',
  'history.messages',
  'contacts.list',
  'contacts.get',
  'contacts.add',
  'contacts.edit',
  'contacts.delete',
  'contacts.findDuplicates',
  'contacts.importCsv',
  'contacts.importVcard',
  'contacts.exportCsv',
  'groups.list',
  'groups.create',
  'groups.rename',
  'groups.delete',
  'groups.addMembers',
  'groups.removeMembers',
  'groups.members',
  'templates.list',
  'templates.create',
  'templates.update',
  'templates.delete',
  'credit.get',
  'credit.refresh',
  'updates.check',
  'updates.status',
  'updates.download',
  'updates.cancelDownload',
  'updates.openDownload',
  'settings.get',
  'settings.update',
  'children.permitted',
  'children.list',
  'children.create',
  'children.delete',
  'children.transfer',
  'children.balance',
  'policy.get',
  'library.list',
  'sandbox.outbound',
  // issue 16: the SOAP namespaces in use, the account's server address books
  'soap.namespace',
  'addressbooks.list',
  // issue 13: archive, mark all read, a number's conversation, export beyond one conversation
  'inbox.setArchived',
  'inbox.markAllRead',
  'inbox.open',
  'inbox.exportMessages',
  // issue 13: bulk delete of contacts with undo
  'contacts.deleteMany',
  'contacts.restore',
  // issue 17: Continue sending an interrupted job (only recipients never requested)
  'outbox.continue',
  // issue 12: sending an office can trust
  'send.estimate',
  'drafts.get',
  'drafts.save',
  'drafts.discard',
  'optouts.list',
  'optouts.add',
  'optouts.remove',
  'optouts.exportCsv',
  'autoreplies.list',
  'autoreplies.create',
  'autoreplies.update',
  'autoreplies.delete',
  // issue 12: Compose's counter measures the merged texts
  'mailmerge.measure',
  // issue 12: campaigns
  'campaigns.get',
  'campaigns.resendFailed',
  // issue 25: sends whose loop stopped (a full disk)
  'outbox.halts',
  // issue 28: office mode
  'office.status',
  'office.setting',
  'office.configure',
  'office.rename',
  // issue 25: database health, backups, recovery
  'database.status',
  'database.backupNow',
  'database.restoreLatest',
  'database.exportReadable',
  'database.startNew',
] as const satisfies ReadonlyArray<ApiChannel>;

/** Every service event the shells forward to the renderer. */
export const EVENT_CHANNELS = [
  'outbox:progress',
  'outbox:recovered',
  'inbox:received',
  'inbox:receipt',
  'inbox:pollFailed',
  'credit:changed',
  'updates:available',
  'updates:progress',
  'updates:download',
  'updates:status',
  'settings:changed',
  'accounts:changed',
  // issue 13: a desktop notification's click opens its conversation (Electron's main → the window)
  'inbox:open',
  // issue 25: a send's loop stopped (a full disk)
  'outbox:halted',
  // issue 28: office mode's state (the renderer's banner)
  'office:status',
  // issue 28: other desks' sends imported or changed
  'office:sends',
  // issue 25: replies held through a full disk
  'inbox:held',
  // issue 25: the database found damaged while the app ran
  'database:damaged',
  // issue 28: what another desk of the office changed in contacts, groups, templates, rules
  'office:library',
  // issue 25: a backup failed, or one was written again after a failure
  'database:backup',
] as const satisfies ReadonlyArray<EventChannel>;

// Completeness: a call or event added to the interfaces of api.ts but not to the lists fails to compile.
type Assert<T extends true> = T;
export type AllCallsListed = Assert<
  [Exclude<ApiChannel, (typeof API_CHANNELS)[number]>] extends [never] ? true : false
>;
export type AllEventsListed = Assert<
  [Exclude<EventChannel, (typeof EVENT_CHANNELS)[number]>] extends [never] ? true : false
>;

/**
 * The Electron app menu's actions (Ctrl/Cmd+N, Ctrl/Cmd+Enter, Ctrl/Cmd+F, "Check for Updates…"),
 * delivered to the renderer as events without a payload. The web shell never sends them: there
 * the renderer handles the keys itself.
 */
export const MENU_EVENTS = ['menu:compose', 'menu:send', 'menu:search', 'menu:checkUpdates'] as const;
export type MenuEvent = (typeof MENU_EVENTS)[number];

/** Electron IPC channel names: one per call (prefix + ApiChannel), one for events, one for the menu. */
export const IPC_CALL_PREFIX = 'messenger:call:';
export const IPC_EVENT_CHANNEL = 'messenger:event';
export const IPC_MENU_CHANNEL = 'messenger:menu';

/**
 * Every code an API error carries (`code` is for programs, `message` for people). A service that
 * needs a new code adds it here, so the renderer can switch on the union.
 */
export type ApiErrorCode =
  // the boundary and the shells
  | 'bad-argument' // the argument's shape or types are wrong for the call (main/services/validate-args.ts)
  | 'unknown-channel' // no such call
  | 'closed' // the app is shutting down
  | 'forbidden' // Electron: the calling frame is not our renderer
  | 'bad-message' // web shell: the WebSocket message is not { id, channel, arg? }
  | 'disconnected' // web bridge: the WebSocket closed before the answer came
  | 'internal' // anything unexpected; the message says what
  // sessions and the gateway
  | 'not-signed-in'
  | 'session-ended'
  | 'pin-required'
  | 'no-keyring'
  | 'basic-text-keyring'
  | 'invalid-login'
  | 'gateway-unavailable'
  | 'gateway-refused'
  | 'outcome-unknown'
  | 'invalid-request' // the request breaks protocol/'s rules; `problems` lists them
  | 'policy' // refused by the deploy policy
  | 'not-sandbox'
  | 'not-permitted'
  | 'permission-unknown'
  // the store (main/store/errors.ts StoreErrorCode)
  | 'not-found'
  | 'invalid-input'
  | 'invalid-number'
  | 'duplicate'
  | 'invalid-state'
  | 'invalid-recipients' // `problems` lists each { input, reason }
  // updates; the download-… codes are main/services/update-download.ts's DownloadErrorCode
  | 'updates-disabled'
  | 'no-update'
  | 'download-in-progress'
  | 'no-download'
  | 'not-supported'
  | 'download-url-invalid'
  | 'download-url-insecure'
  | 'download-host-not-allowed'
  | 'download-certificate'
  | 'download-http-error'
  | 'download-incomplete'
  | 'download-cancelled'
  | 'download-failed'
  // issue 17: over the size cap; signature missing or wrong
  | 'download-too-large'
  | 'download-unverified'
  // issue 17: a sign-in over plain http to another machine, not confirmed (the PIN would go in clear)
  | 'insecure-gateway'
  // issue 25: the database is damaged; only the database.* calls answer until the user chooses
  | 'database-damaged'
  // issue 25: a backup asked for was not written (the disk is full, the folder cannot be written, …)
  | 'backup-failed';

/** A refused or failed call, the same object in main and, rebuilt from the envelope, in the renderer. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  /** Every invalid field or recipient, when the error lists them (protocol's Problem, { input, reason }). */
  readonly problems: unknown[] | undefined;
  constructor(code: ApiErrorCode, message: string, problems?: unknown[]) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.problems = problems;
  }
}

/** An ApiError as it travels: plain data, so it survives structured clone, JSON and the contextBridge. */
export interface ApiErrorBody {
  code: ApiErrorCode;
  message: string;
  problems?: unknown[];
}

/** The answer to every call, in both shells (the web shell adds the call's `id` beside it). */
export type ApiEnvelope = { ok: true; result: unknown } | { ok: false; error: ApiErrorBody };

/** A call's result as an envelope; `undefined` (a void call) travels as null. */
export function okEnvelope(result: unknown): ApiEnvelope {
  return { ok: true, result: result ?? null };
}

/** Any thrown value as an error envelope: an ApiError keeps its code and problems; anything else is 'internal'. */
export function errorEnvelope(err: unknown): ApiEnvelope {
  const e =
    err instanceof ApiError
      ? err
      : new ApiError('internal', err instanceof Error && err.message ? err.message : String(err));
  const error: ApiErrorBody = { code: e.code, message: e.message || 'Unexpected error' };
  if (e.problems !== undefined) error.problems = structuredClone(e.problems);
  return { ok: false, error };
}

/** The result of an envelope, or its error thrown as an ApiError (the renderer's one unwrapping). */
export function unwrapEnvelope(reply: unknown): unknown {
  const r = reply as Partial<{ ok: boolean; result: unknown; error: Partial<ApiErrorBody> }> | null;
  if (r !== null && typeof r === 'object' && r.ok === true) return r.result;
  if (r !== null && typeof r === 'object' && r.ok === false && r.error && typeof r.error === 'object') {
    const { code, message, problems } = r.error;
    throw new ApiError(
      typeof code === 'string' ? code : 'internal',
      typeof message === 'string' && message ? message : 'Unexpected error',
      Array.isArray(problems) ? problems : undefined,
    );
  }
  throw new ApiError('internal', 'no answer from the main process');
}

/** One call over a shell's transport: the channel and its one argument in, an envelope out. */
export type InvokeFn = (channel: ApiChannel, arg?: unknown) => Promise<unknown>;

/**
 * The MessengerApi over a transport: one method per API_CHANNELS entry, each passing at most one
 * argument and unwrapping the envelope. Both shells' renderers build their API with it.
 */
export function apiOver(invoke: InvokeFn): MessengerApi {
  const api: Record<string, Record<string, (arg?: unknown) => Promise<unknown>>> = {};
  for (const channel of API_CHANNELS) {
    const dot = channel.indexOf('.');
    const group = (api[channel.slice(0, dot)] ??= {});
    group[channel.slice(dot + 1)] = async (...args: unknown[]) =>
      unwrapEnvelope(await (args.length === 0 ? invoke(channel) : invoke(channel, args[0])));
  }
  return api as unknown as MessengerApi;
}

export function isApiChannel(value: unknown): value is ApiChannel {
  return typeof value === 'string' && (API_CHANNELS as ReadonlyArray<string>).includes(value);
}
export function isEventChannel(value: unknown): value is EventChannel {
  return typeof value === 'string' && (EVENT_CHANNELS as ReadonlyArray<string>).includes(value);
}
export function isMenuEvent(value: unknown): value is MenuEvent {
  return typeof value === 'string' && (MENU_EVENTS as ReadonlyArray<string>).includes(value);
}
