// The boundary check of every API call (preload/api.ts): the shape and types of the one argument
// a renderer sends, before any service sees it. Hand-written combinators rather than a schema
// library: the API is small, the checks are shallow (deeper rules — numbers, text limits — are the
// services' and protocol/'s), and no validation package is installed. It runs once per call, in
// api-binding.ts's `call`, which both shells (main/electron/ipc.ts, main/web.ts) go through.
import type { ApiCall, ApiChannel } from '../../preload/api.ts';
import type { DraftJson } from '../../domain/index.ts';
import { ApiError, isApiChannel } from '../../preload/ipc-contract.ts';
import { OUTBOUND_PAGE_MAX } from '../../protocol/sandbox-routes.ts';
import { CONTENT_KINDS } from '../../protocol/content.ts';
import { CHILD_ACCOUNT_TYPES, DELIVERY_OPTIONS } from '../../protocol/limits.ts';

/** A call refused at the boundary or by a service: the one class of preload/ipc-contract.ts. */
export { ApiError, isApiChannel };

/**
 * A check of a value at `path`: null when it passes, else why not. `T` is the type of what it lets
 * through (a phantom, never set): the combinators below build it, so ARG_CHECKS' entries are
 * type-checked against the API's argument types (issue 27: the check cannot drift from domain/).
 */
type Check<T = unknown> = ((value: unknown, path: string) => string | null) & { readonly passes?: T };
/** What a check lets through. */
type Passes<C> = C extends Check<infer T> ? T : never;
/** The object type an obj() shape lets through: keys ending in '?' optional. */
type ShapeOf<S extends Record<string, Check>> = {
  [K in keyof S as K extends `${string}?` ? never : K]: Passes<S[K]>;
} & { [K in keyof S as K extends `${infer N}?` ? N : never]?: Passes<S[K]> };
type Flat<T> = { [K in keyof T]: T[K] };

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const str: Check<string> = (v, p) => (typeof v === 'string' ? null : `${p} must be a string`);
const bool: Check<boolean> = (v, p) => (typeof v === 'boolean' ? null : `${p} must be true or false`);
const int: Check<number> = (v, p) => (Number.isSafeInteger(v) ? null : `${p} must be a whole number`);
const num: Check<number> = (v, p) =>
  typeof v === 'number' && Number.isFinite(v) ? null : `${p} must be a number`;
const posInt: Check<number> = (v, p) =>
  Number.isSafeInteger(v) && (v as number) > 0 ? null : `${p} must be a whole number above 0`;
const oneOf =
  <const V extends readonly unknown[]>(...values: V): Check<V[number]> =>
  (v, p) =>
    values.includes(v) ? null : `${p} must be one of ${values.map((x) => JSON.stringify(x)).join(', ')}`;
const nullable =
  <T>(c: Check<T>): Check<T | null> =>
  (v, p) =>
    v === null ? null : c(v, p);
const arr =
  <T>(item: Check<T>, max = 1_000_000): Check<T[]> =>
  (v, p) => {
    if (!Array.isArray(v)) return `${p} must be a list`;
    if (v.length > max) return `${p} has more than ${max} items`;
    for (let i = 0; i < v.length; i++) {
      const e = item(v[i], `${p}[${i}]`);
      if (e) return e;
    }
    return null;
  };
const record =
  <T>(value: Check<T>): Check<Record<string, T>> =>
  (v, p) => {
    if (!isObj(v)) return `${p} must be an object`;
    for (const [k, x] of Object.entries(v)) {
      const e = value(x, `${p}.${k}`);
      if (e) return e;
    }
    return null;
  };
/** An object with exactly these keys (optional ones marked with '?'); unknown keys refused. */
const obj =
  <S extends Record<string, Check>>(shape: S): Check<Flat<ShapeOf<S>>> =>
  (v, p) => {
    if (!isObj(v)) return `${p} must be an object`;
    const known = new Map(
      Object.entries(shape).map(([k, c]) => [k.replace(/\?$/, ''), { c, optional: k.endsWith('?') }]),
    );
    for (const k of Object.keys(v)) if (!known.has(k)) return `${p}.${k} is not a known field`;
    for (const [k, { c, optional }] of known) {
      if (v[k] === undefined) {
        if (optional) continue;
        return `${p}.${k} is required`;
      }
      const e = c(v[k], `${p}.${k}`);
      if (e) return e;
    }
    return null;
  };
const either =
  <C extends Check[]>(...checks: C): Check<Passes<C[number]>> =>
  (v, p) => {
    let first: string | null = null;
    for (const c of checks) {
      const e = c(v, p);
      if (e === null) return null;
      first ??= e;
    }
    return first;
  };

/** Any JSON value (an editor's saved state), at most `depth` levels deep. */
const json =
  (depth: number): Check<DraftJson> =>
  (v, p) => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return null;
    if (typeof v === 'number') return num(v, p);
    if (depth <= 0) return `${p} is nested too deeply`;
    if (Array.isArray(v)) return arr(json(depth - 1))(v, p);
    return record(json(depth - 1))(v, p);
  };

const STATUSES = [
  'pending',
  'sending',
  'accepted',
  'queued',
  'rejected',
  'unknown',
  'delivered',
  'failed',
] as const;

const content = obj({
  kind: oneOf(...CONTENT_KINDS),
  text: str,
  'replyTo?': str,
  'deliveryOption?': oneOf(...DELIVERY_OPTIONS),
  'sendTimeDelay?': int,
  'sendTimeAbsolute?': str,
  'fields?': record(str),
});
const sendRequest = obj({
  recipients: arr(str),
  'contactIds?': arr(posInt),
  'groupIds?': arr(posInt),
  content,
  'limit?': posInt,
  // issue 16: server address books and Cc/Bcc
  'addressBooks?': arr(str, 100),
  'copies?': obj({ 'cc?': arr(str), 'bcc?': arr(str), 'ccAddressBook?': str, 'bccAddressBook?': str }),
});
const threadCursor = obj({ createdAt: num, id: int });
const importOptions = obj({ 'defaultCountry?': str, 'onDuplicate?': oneOf('skip', 'update') });
const contactInput = obj({ name: str, number: str, 'email?': str, 'notes?': str });
const strOrList = either(str, arr(str, 20));
const idAndContacts = obj({ id: posInt, contactIds: arr(posInt) });

/** What each channel takes: `undefined` allowed when the argument is optional, `none` for no argument. */
const none: Check<undefined> = (v, p) => (v === undefined ? null : `${p}: this call takes no argument`);
const optional =
  <T>(c: Check<T>): Check<T | undefined> =>
  (v, p) =>
    v === undefined ? null : c(v, p);

/** What a channel's call takes: its one argument, or undefined for a call without one. */
type ArgOf<C extends ApiChannel> =
  Parameters<ApiCall<C>> extends []
    ? undefined
    : Parameters<ApiCall<C>> extends [(infer A)?]
      ? A | undefined
      : Parameters<ApiCall<C>>[0];

/** Each channel's check; its type must let through only what the API's argument type allows. */
export const ARG_CHECKS: { [C in ApiChannel]: Check<ArgOf<C>> } = {
  'accounts.list': none,
  'accounts.current': none,
  'accounts.signIn': either(
    obj({ sandbox: oneOf(true) }),
    obj({
      'sandbox?': oneOf(false),
      'label?': str,
      username: str,
      pin: str,
      primaryUrl: str,
      'secondaryUrl?': str,
      rememberPin: bool,
      'acceptPlainTextStorage?': bool,
      'acceptInsecureGateway?': bool, // issue 17
    }),
  ),
  'accounts.signOut': none,
  'accounts.changePin': obj({ oldPin: str, newPin: str }),
  'send.submit': sendRequest,
  'send.permittedReplyTo': none,
  'outbox.jobs': optional(obj({ 'limit?': posInt, 'beforeId?': posInt })),
  'outbox.job': posInt,
  'outbox.batches': posInt,
  'outbox.recipients': posInt,
  'outbox.unknownBatches': none,
  'outbox.cancel': posInt,
  'outbox.resend': obj({ jobId: posInt, numbers: arr(str) }),
  'inbox.conversations': optional(
    obj({
      'cursor?': obj({ lastActivityAt: num, id: int }),
      'limit?': posInt,
      'filter?': oneOf('all', 'unread', 'archived'),
    }),
  ),
  'inbox.thread': obj({ conversationId: posInt, 'cursor?': threadCursor, 'limit?': posInt }),
  'inbox.markRead': posInt,
  'inbox.markUnread': posInt,
  'inbox.delete': posInt,
  'inbox.exportCsv': posInt,
  'inbox.unreadTotal': none,
  'inbox.pollNow': none,
  'inbox.search': obj({ query: str, 'limit?': posInt }),
  'history.messages': optional(
    obj({
      'filter?': obj({ 'status?': either(oneOf(...STATUSES), arr(oneOf(...STATUSES))), 'jobId?': posInt }),
      'cursor?': threadCursor,
      'limit?': posInt,
    }),
  ),
  'contacts.list': none,
  'contacts.get': posInt,
  'contacts.add': contactInput,
  'contacts.edit': obj({
    id: posInt,
    changes: obj({ 'name?': str, 'number?': str, 'email?': str, 'notes?': str }),
  }),
  'contacts.delete': posInt,
  'contacts.findDuplicates': str,
  'contacts.importCsv': obj({
    csv: str,
    mapping: obj({ 'name?': strOrList, number: str, 'email?': str, 'notes?': str, 'groups?': str }),
    'options?': importOptions,
  }),
  'contacts.importVcard': obj({ text: str, 'options?': importOptions }),
  'contacts.exportCsv': none,
  'groups.list': none,
  'groups.create': str,
  'groups.rename': obj({ id: posInt, name: str }),
  'groups.delete': posInt,
  'groups.addMembers': idAndContacts,
  'groups.removeMembers': idAndContacts,
  'groups.members': posInt,
  'templates.list': none,
  'templates.create': obj({ name: str, text: str }),
  'templates.update': obj({ id: posInt, 'name?': str, 'text?': str }),
  'templates.delete': posInt,
  'credit.get': none,
  'credit.refresh': none,
  'updates.check': none,
  'updates.status': none,
  'updates.download': none,
  'updates.cancelDownload': none,
  'updates.openDownload': obj({ reveal: bool }),
  // Settings values are checked by the settings store (SettingsRepo.update); here only the shape.
  'settings.update': obj({
    'defaultCountry?': str,
    'pollIntervalSeconds?': num,
    'lowCreditThreshold?': num,
    'pushReceiver?': obj({ enabled: bool, port: nullable(int) }),
    'notifications?': bool,
    'theme?': oneOf('system', 'light', 'dark'),
    'childAccounts?': bool,
    'soapTypesNamespace?': str,
    'enterSends?': bool,
    'confirmAboveRecipients?': num,
    'optOutKeywords?': arr(str, 50),
    'optInKeywords?': arr(str, 50),
    'autoReplyDailyCap?': num,
    'deliveryRates?': obj({ Default: str, Premier: str, LeastCost: str, Economy: str }),
    'csvBom?': bool,
  }),
  'settings.get': none,
  'children.permitted': none,
  'children.list': none,
  'children.create': obj({
    type: oneOf(...CHILD_ACCOUNT_TYPES),
    email: str,
    telephoneCountryCode: str,
    mobileNumber: str,
    'givenName?': str,
    'familyName?': str,
    'companyName?': str,
  }),
  'children.delete': str,
  'children.transfer': obj({
    username: str,
    direction: oneOf('toChild', 'toParent'),
    'amount?': str,
    'messages?': posInt,
    'childPin?': str,
  }),
  'children.balance': obj({ username: str, pin: str }),
  'policy.get': none,
  'library.list': none,
  'sandbox.outbound': optional(
    obj({
      'afterId?': ((v, p) =>
        Number.isSafeInteger(v) && (v as number) >= 0
          ? null
          : `${p} must be a whole number, 0 or more`) as Check<number>,
      // The most the sandbox network's outbound() answers in one page.
      'limit?': ((v, p) =>
        Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= OUTBOUND_PAGE_MAX
          ? null
          : `${p} must be a whole number from 1 to ${OUTBOUND_PAGE_MAX}`) as Check<number>,
    }),
  ),
  // issue 16: the SOAP namespaces in use, the account's server address books
  'soap.namespace': none,
  'addressbooks.list': none,
  // issue 13: archive, mark all read, a number's conversation, export beyond one conversation
  'inbox.setArchived': obj({ conversationId: posInt, archived: bool }),
  'inbox.markAllRead': none,
  'inbox.open': str,
  'inbox.exportMessages': optional(obj({ 'from?': num, 'to?': num, 'query?': str })),
  // issue 13: bulk delete of contacts with undo
  'contacts.deleteMany': arr(posInt),
  'contacts.restore': arr(
    obj({
      contact: obj({
        id: posInt,
        name: str,
        number: str,
        numberTyped: str,
        email: str,
        notes: str,
        createdAt: num,
        updatedAt: num,
      }),
      groupIds: arr(posInt),
    }),
  ),
  // issue 17: Continue sending
  'outbox.continue': posInt,
  // issue 12: sending an office can trust
  'send.estimate': sendRequest,
  'drafts.get': none,
  'drafts.save': obj({
    numbers: arr(str, 1_000_000),
    contactIds: arr(posInt),
    groupIds: arr(posInt),
    kind: oneOf(...CONTENT_KINDS),
    text: str,
    phoneMake: str,
    options: obj({
      replyTo: str,
      delivery: oneOf(...DELIVERY_OPTIONS),
      schedule: oneOf('now', 'delay', 'at'),
      delay: str,
      at: str,
      'phoneModel?': str,
      'disableRepurposing?': bool,
    }),
    entry: str,
    'addressBooks?': arr(str, 100),
    'copies?': obj({ cc: str, bcc: str, ccAddressBook: str, bccAddressBook: str }),
    'editor?': obj({ kind: oneOf(...CONTENT_KINDS), state: record(json(6)) }),
  }),
  'drafts.discard': none,
  'optouts.list': none,
  'optouts.add': arr(str),
  'optouts.remove': arr(str),
  'optouts.exportCsv': none,
  'autoreplies.list': none,
  'autoreplies.create': obj({ keyword: str, reply: str, 'enabled?': bool }),
  'autoreplies.update': obj({ id: posInt, 'keyword?': str, 'reply?': str, 'enabled?': bool }),
  'autoreplies.delete': posInt,
  // issue 12: Compose's counter measures the merged texts
  'mailmerge.measure': sendRequest,
  // issue 12: campaigns
  'campaigns.get': posInt,
  'campaigns.resendFailed': posInt,
  // issue 25: sends whose loop stopped (a full disk)
  'outbox.halts': none,
  // issue 28: office mode
  'office.status': none,
  'office.setting': none,
  'office.configure': obj({ url: nullable(str), 'password?': str }),
  'office.rename': obj({ name: str }),
  // issue 25
  'database.status': none,
  'database.backupNow': none,
  'database.restoreLatest': none,
  'database.exportReadable': none,
  'database.startNew': none,
};

/** Throws ApiError 'bad-argument' when `arg` does not fit `channel`. */
export function checkArgument(channel: ApiChannel, arg: unknown): void {
  const problem = ARG_CHECKS[channel](arg, 'argument');
  if (problem !== null) throw new ApiError('bad-argument', `${channel}: ${problem}`);
}
