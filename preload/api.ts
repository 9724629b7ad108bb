// The one typed API between the renderer and the main process (docs/ARCHITECTURE.md, "One typed
// API"). Types only (the channel lists and the error envelope are ./ipc-contract.ts): main/ implements `MessengerApi` once (the
// service facade), the Electron shell binds each channel to ipcMain.handle, the web shell to its
// loopback WebSocket, and the renderer sees it as `window.messenger`.
//
// Everything here crosses a process boundary by structured clone / JSON: plain objects, strings,
// numbers, booleans, arrays, null. Times are milliseconds since the Unix epoch (UTC); phone
// numbers are normalised MSISDNs (international digits, no '+', spec 2.2) unless said otherwise.
// The storage repositories in main/services/ return exactly these shapes.
import type { ChildAccountType, DeliveryOption } from '../protocol/limits.ts';
import type { ReportGroup } from '../protocol/reports.ts';
import type { Content, ContentKind } from '../protocol/content.ts';

export type Millis = number;

/** A page of a list and the cursor of the next page (null on the last page). */
export interface Page<T, C> {
  items: T[];
  next: C | null;
}

// ---------------------------------------------------------------------------------------------
// Messages and conversations

export type Direction = 'in' | 'out';

/** What a message carries: plain or flash text, or one of the sendmms content types (spec 2.4). */
export type { ContentKind };

/**
 * Status of one outbound message (one recipient of one send):
 * pending (journaled, not requested yet) → sending (request under way) → accepted | queued
 * (gateway report -3 / -2 / 99) | rejected (an error report) | unknown (the request may or may not
 * have reached the gateway: crash, reset, time-out) → delivered | failed (delivery receipt).
 */
export type OutboundStatus =
  'pending' | 'sending' | 'accepted' | 'queued' | 'rejected' | 'unknown' | 'delivered' | 'failed';
export type InboundStatus = 'received';
export type MessageStatus = OutboundStatus | InboundStatus;

export interface MessageRecord {
  id: number;
  conversationId: number;
  direction: Direction;
  kind: ContentKind;
  /** The other side: the recipient (out) or the sender (in). */
  peer: string;
  /** Our side: the ReplyTo used (out) or the number the message was sent to (in). */
  local: string | null;
  text: string;
  /** When it was journaled (out) or received (in). */
  createdAt: Millis;
  status: MessageStatus;
  /** Inbound: read by the user. Outbound messages are always read. */
  read: boolean;
  // outbound
  jobId: number | null;
  batchId: number | null;
  messageIdentifier: string | null;
  report: string | null;
  reportText: string | null;
  classification: ReportGroup | null;
  sentAt: Millis | null;
  answeredAt: Millis | null;
  receiptReport: string | null;
  receiptAt: Millis | null;
  // inbound
  /** The gateway's Timestamp1 of an inbound message, as given. */
  sentTimestamp: string | null;
  gatewayId: string | null;
  /** Sent by a keyword auto-reply rule (issue 12). */
  automatic?: boolean;
}

export interface ConversationSummary {
  id: number;
  peer: string;
  /** The contact whose normalised number is `peer`, if any. */
  contactId: number | null;
  contactName: string | null;
  unreadCount: number;
  /** Marked unread by the user (without an unread message). */
  markedUnread: boolean;
  hasUnread: boolean;
  lastActivityAt: Millis;
  /** Hidden from the inbox until the next inbound message (or unarchived). */
  archived: boolean;
  lastMessage: Pick<MessageRecord, 'id' | 'direction' | 'kind' | 'text' | 'status' | 'createdAt'> | null;
}

/** Keyset cursor of the conversation list (most recent activity first). */
export interface ConversationCursor {
  lastActivityAt: Millis;
  id: number;
}

/** Which conversations the list shows: the inbox (default), its unread ones, or the archived ones. */
export type ConversationFilter = 'all' | 'unread' | 'archived';

/** What inbox.exportMessages exports: a date range (`from` inclusive, `to` exclusive) and/or a search. */
export interface InboxExportArgs {
  from?: Millis;
  to?: Millis;
  query?: string;
}

/** Keyset cursor of a thread (newest first). */
export interface ThreadCursor {
  createdAt: Millis;
  id: number;
}

/** A message collected from the gateway (CollectMessages MOMessage, spec 2.6 / 6.2). */
export interface InboundMessageInput {
  /** The sender (MOMessage ReplyTo): normalised when it is a number, kept as given otherwise. */
  from: string;
  /** The number it was sent to (MOMessage SendTo). */
  to: string;
  text: string;
  /** MOMessage Timestamp1 as the gateway sent it. */
  timestamp: string;
  /** The gateway's id of the message when it has one: the dedupe key then. */
  gatewayId?: string;
  kind?: ContentKind;
  receivedAt?: Millis;
}

export interface InboundStoreResult {
  stored: boolean;
  message: MessageRecord;
}

export interface DeliveryReceiptInput {
  messageIdentifier: string;
  /** SubmitDeliveryReceipt Report. */
  report: string;
  /** SubmitDeliveryReceipt Timestamp1, parsed. */
  at?: Millis;
  sentTo?: string;
}

// ---------------------------------------------------------------------------------------------
// Outbox journal and history

export type { DeliveryOption };

/**
 * What one send carries (protocol/content.ts Content): text with its delivery option, or one kind
 * of sendmms content as its fields; the gateway fields are built from it by the sending loop.
 */
export type OutboxContent = Content;

export type BatchState = 'pending' | 'sending' | 'accepted' | 'rejected' | 'unknown';

export interface OutboxBatch {
  id: number;
  jobId: number;
  seq: number;
  state: BatchState;
  /** The batch's SendTo list, in order (at most LIMITS.maxRecipientsPerRequest). */
  recipients: string[];
  createdAt: Millis;
  startedAt: Millis | null;
  finishedAt: Millis | null;
  reason: string | null;
  /**
   * Issue 16: what this batch sends beyond its own numbers — a server address book (one per batch)
   * or the first batch's Cc/Bcc — never expanded into numbers; absent for a batch of numbers only.
   */
  extras?: BatchExtras;
}

/** A batch's address book and/or Cc/Bcc fields, and what the gateway answered for them. */
export interface BatchExtras {
  /** The form fields as sent: SendToAddressBook, SendCc, SendBcc, SendCcAddressBook, SendBccAddressBook. */
  fields: Record<string, string>;
  /** Recipients they reach as QueryAddressBook counted when journaled; null when not sized. */
  reach: number | null;
  /** The gateway's records for them (null until answered), and how many it accepted or rejected. */
  answered: number | null;
  accepted: number | null;
  rejected: number | null;
}

export type StatusCounts = Record<OutboundStatus, number>;

export interface OutboxJob {
  id: number;
  createdAt: Millis;
  content: OutboxContent;
  resendOf: number | null;
  /** The account it was sent on (null when that account was removed). */
  accountId: string | null;
  recipientCount: number;
  batchCount: number;
  counts: StatusCounts;
  /**
   * Issue 16: recipients its address books and Cc/Bcc reach beyond `recipientCount` (absent when it
   * has none; null when one was not sized).
   */
  extraReach?: number | null;
}

/** One recipient's result in a gateway response (format 3 record, spec 2.5), or its absence. */
export interface RecipientResult {
  /** The recipient; when absent, results are matched to the batch's SendTo list by position. */
  to?: string;
  messageIdentifier?: string;
  /** The report code; absent when the gateway's answer gave none for this recipient (then unknown). */
  report?: string;
  text?: string;
  /** The client knows this recipient's request never left (refused before sending): rejected, not unknown. */
  notSent?: boolean;
}

export interface RecipientOutcome {
  to: string;
  status: OutboundStatus;
  messageIdentifier: string | null;
  report: string | null;
  reportText: string | null;
  classification: ReportGroup | null;
  receiptReport: string | null;
  receiptAt: Millis | null;
  /** Issue 17: accepted, and no delivery receipt an hour after the send ("no receipt yet"). */
  receiptOverdue: boolean;
}

export interface HistoryFilter {
  status?: OutboundStatus | OutboundStatus[];
  jobId?: number;
}

// ---------------------------------------------------------------------------------------------
// Contacts, groups, templates

export interface Contact {
  id: number;
  name: string;
  /** Normalised; unique among contacts (duplicate detection). */
  number: string;
  /** As the user typed or imported it. */
  numberTyped: string;
  email: string;
  notes: string;
  createdAt: Millis;
  updatedAt: Millis;
}

export interface ContactInput {
  name: string;
  number: string;
  email?: string;
  notes?: string;
}

/** Which CSV column feeds which contact field; `name` may join several columns (first, last). */
export interface CsvColumnMapping {
  name?: string | string[];
  number: string;
  email?: string;
  notes?: string;
  /** issue 13: a column of group names (separated by ; or |); missing groups are created. */
  groups?: string;
}

export type DuplicatePolicy = 'skip' | 'update';

export interface ImportOptions {
  /** ISO 3166 alpha-2 country of numbers written nationally (07700 …). */
  defaultCountry?: string;
  /** What to do with a row whose number is already a contact (default 'skip'). */
  onDuplicate?: DuplicatePolicy;
}

export interface ImportResult {
  added: Contact[];
  updated: Contact[];
  /** Rows (1-based, data rows / vCard entries) whose number is already a contact or came earlier in the file. */
  duplicates: Array<{ row: number; number: string; existing: Contact }>;
  invalid: Array<{ row: number; input: string; reason: string }>;
  /** issue 13: the groups a Group column named, whether each was created, and how many contacts joined it. */
  groups?: Array<{ id: number; name: string; created: boolean; added: number }>;
}

/** issue 13: a contact deleted by contacts.deleteMany, with its groups, for contacts.restore (undo). */
export interface DeletedContact {
  contact: Contact;
  groupIds: number[];
}

export interface Group {
  id: number;
  name: string;
  createdAt: Millis;
  memberCount: number;
}

export interface Template {
  id: number;
  name: string;
  text: string;
  createdAt: Millis;
  updatedAt: Millis;
}

/** A message matching a search; a send to many recipients is one hit (its newest recipient). */
export interface MessageHit {
  message: MessageRecord;
  /** The matching text with matches between \u0002 and \u0003 (the renderer highlights them). */
  snippet: string;
  contactName: string | null;
}

export interface SearchResults {
  query: string;
  messages: MessageHit[];
  contacts: Contact[];
}

// ---------------------------------------------------------------------------------------------
// Accounts, send, credit, updates, settings

export interface AccountSummary {
  id: string;
  label: string;
  username: string;
  primaryUrl: string;
  secondaryUrl: string | null;
  /** The reference gateway started in-process on loopback with a demo account. */
  sandbox: boolean;
  pinStored: boolean;
  /** Issue 17: a gateway URL is plain http to another machine: the PIN travels in clear. */
  insecure: boolean;
}

export type SignInRequest =
  | {
      sandbox?: false;
      label?: string;
      username: string;
      pin: string;
      primaryUrl: string;
      secondaryUrl?: string;
      rememberPin: boolean;
      /** Store the PIN although the OS keyring is basic_text (Linux without a secret service). */
      acceptPlainTextStorage?: boolean;
      /** Issue 17: the user confirmed signing in over plain http (the PIN travels in clear). */
      acceptInsecureGateway?: boolean;
    }
  | { sandbox: true };

export interface SendRequest {
  /** Numbers as typed or pasted (normalised by the service). */
  recipients: string[];
  contactIds?: number[];
  groupIds?: number[];
  content: OutboxContent;
  /** Send to the first `limit` distinct recipients only (the confirmation's "first K the credit covers"). */
  limit?: number;
  /** Issue 16: server address books ("book" or "book::group"), each sent as SendToAddressBook. */
  addressBooks?: string[];
  /** Issue 16: Cc/Bcc of a rich send (spec 2.4), with the first request only. */
  copies?: SendCopies;
}

/** Cc/Bcc numbers and address books (sendmms only, spec 2.4). */
export interface SendCopies {
  cc?: string[];
  bcc?: string[];
  ccAddressBook?: string;
  bccAddressBook?: string;
}

/** Compose's draft as kept per account (drafts.*; issue 12). */
export interface SavedDraft {
  /** Number chips as typed. */
  numbers: string[];
  contactIds: number[];
  groupIds: number[];
  kind: ContentKind;
  text: string;
  /** '' for none. */
  phoneMake: string;
  options: {
    replyTo: string;
    delivery: DeliveryOption;
    schedule: 'now' | 'delay' | 'at';
    delay: string;
    at: string;
    /** PhoneModel of a rich send (issue 16), '' = none. */
    phoneModel?: string;
    /** DisableRepurposing of a WAP push (issue 16). */
    disableRepurposing?: boolean;
  };
  /** What was typed in the recipients field and not added yet. */
  entry: string;
  /** Issue 16: server address book chips ("book" or "book::group"). */
  addressBooks?: string[];
  /** Issue 16: the Cc/Bcc fields as typed (numbers comma-separated). */
  copies?: { cc: string; bcc: string; ccAddressBook: string; bccAddressBook: string };
  /** A rich kind's editor state (its own form: ringtone text, bitmap pixels, vCard choices…), as the
   * editor reported it (renderer/views/media/types.ts); each editor checks it when it starts from it. */
  editor?: { kind: ContentKind; state: { [field: string]: DraftJson } };
}

/** A JSON value, as an editor's saved state holds it. */
export type DraftJson = string | number | boolean | null | DraftJson[] | { [key: string]: DraftJson };

/** What a send would cost before it is journaled (send.estimate). */
export interface SendEstimate {
  /** Distinct valid recipients. */
  recipients: number;
  invalid: number;
  /** Entries naming a number already counted. */
  duplicates: number;
  /** Numbers on the opt-out list, not counted in `recipients` and never sent to. */
  optedOut: number;
  /** Message parts per recipient (a rich content counts as one). */
  segments: number;
  /** Parts summed over the recipients (recipients × segments, unless mail merge gives each their own text). */
  messages: number;
  /** Messages the account's credit covers (AvailableMessages), null when not known. */
  availableMessages: number | null;
  credit: { amount: string; currency: string } | null;
  /** How many recipients, in order, the credit covers; null when not known. */
  affordableRecipients: number | null;
  /** Recipients that would fail for want of credit. */
  wouldFail: number;
  /** settings.confirmAboveRecipients when estimated. */
  confirmAbove: number;
  /** So many parts per recipient that the send is confirmed even to one recipient. */
  longMessage: boolean;
  /** Above the threshold, more than the credit covers, or a long message: Compose asks first. */
  needsConfirm: boolean;
  /**
   * Issue 16: the server address books and Cc/Bcc and how many each reaches (QueryAddressBook;
   * null when a book could not be sized). Their reach is counted in `recipients` and `messages`.
   */
  reached?: Array<{ label: string; reach: number | null }>;
}

export interface SendAccepted {
  job: OutboxJob;
  invalid: Array<{ input: string; reason: string }>;
  /** Recipients left out because they are on the account's opt-out list (issue 12). */
  optedOut?: number;
}

/** "Inbound text starts with KEYWORD → reply TEXT" (issue 12). */
export interface AutoReplyRule {
  id: number;
  keyword: string;
  reply: string;
  enabled: boolean;
  /** Auto-replies this rule sent today (UTC). */
  sentToday: number;
}

/** A number on the account's opt-out list (issue 12). */
export interface OptOut {
  number: string;
  /** 'keyword': the number sent an opt-out keyword; 'manual': the user added it. */
  source: 'keyword' | 'manual';
  keyword: string | null;
  createdAt: Millis;
}

export interface Credit {
  currency: string;
  credit: string;
  availableMessages: string | null;
  fetchedAt: Millis;
  low: boolean;
}

export interface UpdateInfo {
  version: string;
  releaseNotice: string;
  downloadUrl: string;
  releaseDate: string;
  newer: boolean;
}

/** The update download (updates.download): one at a time, its state until the next one. */
export interface UpdateDownload {
  state: 'downloading' | 'done' | 'failed' | 'cancelled';
  version: string;
  received: number;
  /** Content-Length, null when the server did not say. */
  total: number | null;
  /** The finished file (state 'done'). Incomplete files never keep a final name. */
  path: string | null;
  error: string | null;
  /** The shell can open the file or show it in its folder (Electron); the web shell shows the path. */
  canOpen: boolean;
  /**
   * Issue 17: the file's Ed25519 signature was checked against the publisher's key (false: no key is
   * configured, so nothing was checked; the banner says "not verified" and Open asks first).
   */
  verified: boolean;
}

export interface UpdateStatus {
  /** Checks are on (deploy policy updates.enabled); off: no automatic or manual check. */
  enabled: boolean;
  /** 'stable' ignores pre-release versions, 'beta' offers them. */
  channel: 'stable' | 'beta';
  /** The newer version found by the last check, null when none. */
  available: UpdateInfo | null;
  download: UpdateDownload | null;
  lastCheckedAt: Millis | null;
}

export interface Settings {
  defaultCountry: string;
  pollIntervalSeconds: number;
  lowCreditThreshold: number;
  pushReceiver: { enabled: boolean; port: number | null };
  notifications: boolean;
  theme: 'system' | 'light' | 'dark';
  /** Show Accounts (child accounts, spec 4.4): the gateway is never asked with an invalid request. */
  childAccounts: boolean;
  /** Pins the SOAP types namespace; '' = read it from the gateway's WSDL (issue 16). */
  soapTypesNamespace: string;
  // issue 13: the reply box's keys
  /** Enter sends a reply and Shift+Enter makes a new line (true), or Ctrl/Cmd+Enter sends and Enter makes a new line. */
  enterSends: boolean;
  /** A send to more recipients than this is confirmed first (issue 12). */
  confirmAboveRecipients: number;
  /** Inbound first words that put the number on the opt-out list (case-insensitive). */
  optOutKeywords: string[];
  /** Inbound first words that take it off again. */
  optInKeywords: string[];
  /** Auto-replies sent per day (UTC) at most, over all rules. */
  autoReplyDailyCap: number;
}

/**
 * One SMS-SUBMIT PDU the local sandbox's simulated network received (GET /sandbox/outbound): what a
 * handset gets. The virtual phone decodes `pdu` with protocol/smart (decodePdusToContent).
 */
export interface SandboxPdu {
  /** Increasing; the cursor of sandbox.outbound. */
  id: number;
  messageIdentifier: string;
  /** The handset (normalised MSISDN). */
  recipient: string;
  /** 1-based part of a concatenated message, and the number of parts. */
  part: number;
  parts: number;
  /** The bare TPDU in hex (no SMSC octet). */
  pdu: string;
  /** When the network received it, as the gateway wrote it. */
  createdAt: string;
}

// ---------------------------------------------------------------------------------------------
// Child accounts (manageaccount, spec 4.4) and the deploy policy (docs/ADMIN.md)

/** Whether the signed-in account may manage child accounts (asked once per sign-in). */
export interface ChildPermission {
  permitted: boolean;
  /** Why not, or why it is not known (the gateway could not be asked, or answered unexpectedly). */
  reason: string | null;
  /**
   * The gateway's definite answer (kept for the session); false: not known, asked again on the
   * next call (no connection, or an answer that is neither "permitted" nor "not permitted").
   */
  definite: boolean;
}

/** A child account this app created (the spec has no list operation); never its PIN. */
export interface ChildAccount {
  username: string;
  type: ChildAccountType;
  email: string;
  telephoneCountryCode: string;
  mobileNumber: string;
  givenName: string | null;
  familyName: string | null;
  companyName: string | null;
  createdAt: Millis;
}

export interface ChildCreateRequest {
  type: ChildAccountType;
  email: string;
  /** International dialling code without '+', e.g. "44". */
  telephoneCountryCode: string;
  /** The child's mobile number; national numbers are read with the default country. */
  mobileNumber: string;
  givenName?: string;
  familyName?: string;
  companyName?: string;
}

/** The new child and its PIN: shown to the user once, never stored by the app. */
export interface ChildCreated {
  child: ChildAccount;
  pin: string;
}

export type TransferDirection = 'toChild' | 'toParent';

export interface ChildTransferRequest {
  username: string;
  direction: TransferDirection;
  /** GBP, a decimal such as "2.50" (exactly one of amount and messages). */
  amount?: string;
  messages?: number;
  /** The child's PIN: needed to transfer to the parent (the paying account signs the request), optional otherwise (then the child's balance is read too). */
  childPin?: string;
}

/** A balance read with AvailableCredit / AvailableMessages. */
export interface Balance {
  currency: string;
  credit: string;
  availableMessages: string | null;
}

export interface ChildTransferResult {
  parent: Credit;
  /** The child's balance when its PIN was given, else null. */
  child: Balance | null;
}

/** The deploy policy in force (docs/ADMIN.md): from a file, or the defaults. */
export interface EffectivePolicy {
  /** The policy file applied or refused; null when there is none. */
  source: string | null;
  /** The file could not be applied: its path and every problem ("field: rule (value)"). */
  error: { path: string; problems: string[] } | null;
  gateway: { primaryUrl: string | null; secondaryUrl: string | null; locked: boolean };
  /** Only these usernames may sign in; null = any. */
  allowedUsernames: string[] | null;
  updates: {
    enabled: boolean;
    channel: string;
    allowedDownloadHosts: string[] | null;
    /** Issue 17: Ed25519 keys pinned for update signatures (with the built-in ones). */
    publicKeys: string[];
    /** Issue 17: the size cap of an update download, bytes. */
    maxDownloadBytes: number;
  };
  /** Issue 17: plain-http gateways on other machines are allowed without asking the user. */
  allowInsecureGateways: boolean;
  pollIntervalSeconds: { min: number; max: number };
  offerSandbox: boolean;
  /** true shows Accounts (child accounts) whatever the setting. */
  childAccounts: boolean;
  /** Pins the SOAP types namespace for every account (wins over the setting); null = not pinned. */
  soapTypesNamespace: string | null;
}

// ---------------------------------------------------------------------------------------------
// Content library (spec 2.4, 2.5, 8): numbers the gateway stores content under

/** The kinds of content a library number can hold, by the ContentKind that sends it. */
export type LibraryItemKind = Extract<
  ContentKind,
  'ringtone' | 'operatorLogo' | 'groupGraphic' | 'pictureMessage' | 'mms' | 'wapPush'
>;

export interface LibraryItem {
  number: number;
  kind: LibraryItemKind;
  /** The file name the gateway keeps, or the name given when it was uploaded ('' when unknown). */
  name: string;
  /** Public library, or the account's own upload. */
  owner: 'public' | 'own';
}

// ---------------------------------------------------------------------------------------------
// The API: calls (request → response) grouped by area, and events (main → renderer).

export interface MessengerApi {
  accounts: {
    list(): Promise<AccountSummary[]>;
    current(): Promise<AccountSummary | null>;
    signIn(request: SignInRequest): Promise<AccountSummary>;
    signOut(): Promise<void>;
    changePin(args: { oldPin: string; newPin: string }): Promise<void>;
  };
  send: {
    /** Journal the send and start it; progress arrives as 'outbox:progress' events. */
    submit(request: SendRequest): Promise<SendAccepted>;
    permittedReplyTo(): Promise<string[]>;
    /** Recipients, parts and messages a request would cost, against the credit (nothing is sent). */
    estimate(request: SendRequest): Promise<SendEstimate>;
  };
  outbox: {
    jobs(args?: { limit?: number; beforeId?: number }): Promise<OutboxJob[]>;
    job(jobId: number): Promise<OutboxJob | null>;
    batches(jobId: number): Promise<OutboxBatch[]>;
    recipients(jobId: number): Promise<RecipientOutcome[]>;
    /** Batches found in 'sending' at start-up, now 'unknown': the user decides what to do. */
    unknownBatches(): Promise<OutboxBatch[]>;
    /** Cancel the batches of a job not requested yet (a large send, or one left pending by a restart). */
    cancel(jobId: number): Promise<OutboxBatch[]>;
    /** A new job to the given recipients of an earlier job (never automatic). */
    resend(args: { jobId: number; numbers: string[] }): Promise<OutboxJob>;
    // issue 17:
    /**
     * Continue sending an interrupted job: its batches never requested (pending), nothing else; a
     * batch that may have reached the gateway (unknown) is never sent again by this.
     */
    continue(jobId: number): Promise<ContinueResult>;
  };
  inbox: {
    conversations(args?: {
      cursor?: ConversationCursor;
      limit?: number;
      filter?: ConversationFilter;
    }): Promise<Page<ConversationSummary, ConversationCursor>>;
    thread(args: {
      conversationId: number;
      cursor?: ThreadCursor;
      limit?: number;
    }): Promise<Page<MessageRecord, ThreadCursor>>;
    markRead(conversationId: number): Promise<void>;
    markUnread(conversationId: number): Promise<void>;
    delete(conversationId: number): Promise<void>;
    exportCsv(conversationId: number): Promise<string>;
    unreadTotal(): Promise<number>;
    /** Poll CollectMessages now. */
    pollNow(): Promise<{ received: number }>;
    search(args: { query: string; limit?: number }): Promise<SearchResults>;
    // issue 13: archive, mark all read, a number's conversation, export beyond one conversation
    setArchived(args: { conversationId: number; archived: boolean }): Promise<void>;
    markAllRead(): Promise<number>;
    /** The conversation with a number (a contact's), created empty if there is none. */
    open(number: string): Promise<ConversationSummary>;
    exportMessages(args?: InboxExportArgs): Promise<string>;
  };
  history: {
    messages(args?: {
      filter?: HistoryFilter;
      cursor?: ThreadCursor;
      limit?: number;
    }): Promise<Page<MessageRecord, ThreadCursor>>;
  };
  contacts: {
    list(): Promise<Contact[]>;
    get(id: number): Promise<Contact | null>;
    add(input: ContactInput): Promise<Contact>;
    edit(args: { id: number; changes: Partial<ContactInput> }): Promise<Contact>;
    delete(id: number): Promise<void>;
    findDuplicates(number: string): Promise<Contact[]>;
    importCsv(args: {
      csv: string;
      mapping: CsvColumnMapping;
      options?: ImportOptions;
    }): Promise<ImportResult>;
    importVcard(args: { text: string; options?: ImportOptions }): Promise<ImportResult>;
    exportCsv(): Promise<string>;
    // issue 13: bulk delete with undo
    deleteMany(ids: number[]): Promise<DeletedContact[]>;
    /** Undo of deleteMany: the number of contacts restored. */
    restore(deleted: DeletedContact[]): Promise<number>;
  };
  groups: {
    list(): Promise<Group[]>;
    create(name: string): Promise<Group>;
    rename(args: { id: number; name: string }): Promise<Group>;
    delete(id: number): Promise<void>;
    addMembers(args: { id: number; contactIds: number[] }): Promise<void>;
    removeMembers(args: { id: number; contactIds: number[] }): Promise<void>;
    members(id: number): Promise<Contact[]>;
  };
  templates: {
    list(): Promise<Template[]>;
    create(args: { name: string; text: string }): Promise<Template>;
    update(args: { id: number; name?: string; text?: string }): Promise<Template>;
    delete(id: number): Promise<void>;
  };
  credit: {
    get(): Promise<Credit | null>;
    refresh(): Promise<Credit>;
  };
  updates: {
    check(): Promise<UpdateInfo>;
    /** What the last check found and the download's state (no gateway request). */
    status(): Promise<UpdateStatus>;
    /** Download the available version into the Downloads folder; progress as 'updates:progress'. */
    download(): Promise<UpdateDownload>;
    cancelDownload(): Promise<void>;
    /** Open the downloaded file, or show it in its folder (reveal); Electron only. */
    openDownload(args: { reveal: boolean }): Promise<void>;
  };
  settings: {
    get(): Promise<Settings>;
    update(changes: Partial<Settings>): Promise<Settings>;
  };
  children: {
    /** Asks the gateway once per sign-in (a manageaccount request without an operation); see `definite`. */
    permitted(): Promise<ChildPermission>;
    /** The children this app created for the signed-in account. */
    list(): Promise<ChildAccount[]>;
    create(request: ChildCreateRequest): Promise<ChildCreated>;
    delete(username: string): Promise<void>;
    transfer(request: ChildTransferRequest): Promise<ChildTransferResult>;
    /** A child's balance, read with its PIN (not stored). */
    balance(args: { username: string; pin: string }): Promise<Balance>;
  };
  policy: {
    get(): Promise<EffectivePolicy>;
  };
  library: {
    /**
     * Library numbers this account can send: the local sandbox's public library and the account's own
     * uploads; for another gateway, the numbers it returned as LibraryNumber to this app.
     */
    list(): Promise<LibraryItem[]>;
  };
  sandbox: {
    /**
     * The PDUs the local sandbox's network received for the current (sandbox) account, oldest
     * first, after `afterId`; `next` is the cursor of the next page (null when there is no more).
     * Refused with code 'not-sandbox' when the current account is not the local sandbox.
     */
    outbound(args?: { afterId?: number; limit?: number }): Promise<Page<SandboxPdu, number>>;
  };
  // issue 16: the SOAP namespaces in use, the account's server address books
  soap: {
    /** The SOAP namespaces the signed-in account's gateway is spoken to in; null when signed out. */
    namespace(): Promise<SoapNamespaceInfo | null>;
  };
  addressbooks: {
    /** The account's address books at the gateway (QueryAddressBook), read each time. */
    list(): Promise<ServerAddressBook[]>;
  };
  // issue 12: sending an office can trust
  drafts: {
    /** The signed-in account's Compose draft, or null. */
    get(): Promise<SavedDraft | null>;
    save(draft: SavedDraft): Promise<void>;
    discard(): Promise<void>;
  };
  autoreplies: {
    list(): Promise<AutoReplyRule[]>;
    create(rule: { keyword: string; reply: string; enabled?: boolean }): Promise<AutoReplyRule>;
    update(args: { id: number; keyword?: string; reply?: string; enabled?: boolean }): Promise<AutoReplyRule>;
    delete(id: number): Promise<void>;
  };
  optouts: {
    list(): Promise<OptOut[]>;
    /** Numbers as typed; the invalid ones are listed back. */
    add(numbers: string[]): Promise<{ added: number; invalid: string[] }>;
    remove(numbers: string[]): Promise<number>;
    exportCsv(): Promise<string>;
  };
  // issue 12: Compose's counter measures the merged texts, not the template
  mailmerge: {
    /** The request's text filled per recipient (opted-out numbers left out); `merged: false` without merge fields. */
    measure(request: SendRequest): Promise<MergeMeasure>;
  };
  // issue 12: campaigns (a send to more than one recipient and its resends)
  campaigns: {
    /** The campaign the send `jobId` belongs to (its first send or any resend of it). */
    get(jobId: number): Promise<Campaign>;
    /**
     * One new send to the recipients whose latest attempt failed, never to an opted-out number;
     * refused when none has failed (so a second click sends nothing).
     */
    resendFailed(jobId: number): Promise<CampaignResend>;
  };
  // issue 25: the database's health, its backups, and the three choices when it is damaged
  database: DatabaseApi;
}

// issue 12: campaigns

/** Continue sending (issue 17): the job, and how many never-requested recipients had opted out since. */
export interface ContinueResult {
  job: OutboxJob;
  optedOut: number;
}

/** One recipient of a campaign: its latest attempt (`jobId`), after `attempts` sends to it. */
export interface CampaignRow extends RecipientOutcome {
  jobId: number;
  attempts: number;
  /** On the signed-in account's opt-out list now: never sent to again (resend to failed leaves it out). */
  optedOut: boolean;
}

export interface Campaign {
  /** The first send. */
  job: OutboxJob;
  /** The first send and its resends, oldest first. */
  jobIds: number[];
  /** One row per recipient, in the first send's order. */
  rows: CampaignRow[];
  /** `rows` counted by status (the same rows a table shows). */
  counts: StatusCounts;
}

export interface CampaignResend {
  job: OutboxJob;
  /** Failed recipients left out because they are on the opt-out list. */
  optedOut: number;
}

// issue 16: SOAP namespaces and server address books

export interface SoapNamespaceInfo {
  typesNamespace: string;
  namespace: string;
  /** wsdl: read from the gateway's WSDL; provider: its published values (no WSDL read); pinned: a setting or the policy. */
  source: 'wsdl' | 'provider' | 'pinned';
  /** The WSDL address read, why none could be, or what pinned it. */
  detail: string;
}

export interface ServerBookMember {
  number: string;
  givenName: string | null;
  familyName: string | null;
  groups: string[];
}

/** One address book at the gateway: its members and groups (recipient token "book" or "book::group"). */
export interface ServerAddressBook {
  name: string;
  members: ServerBookMember[];
  groups: Array<{ name: string; members: number }>;
}

export interface MessengerEvents {
  'outbox:progress': { jobId: number; batch: OutboxBatch; outcomes: RecipientOutcome[]; job: OutboxJob };
  'outbox:recovered': { batches: OutboxBatch[] };
  'inbox:received': { messages: MessageRecord[]; unreadTotal: number };
  'inbox:receipt': { message: MessageRecord };
  'inbox:pollFailed': { error: string; retryInSeconds: number };
  'credit:changed': Credit;
  'updates:available': UpdateInfo;
  'updates:progress': { received: number; total: number | null };
  /** The download started, finished, failed or was cancelled (every window follows it). */
  'updates:download': UpdateDownload;
  /**
   * What the updater knows changed: after every check (an offer no longer made is gone) and when
   * the session ends (sign-out or another account: the offer and download state are cleared).
   */
  'updates:status': UpdateStatus;
  'settings:changed': Settings;
  'accounts:changed': { current: AccountSummary | null };
  // issue 13
  /** Open the conversation with `peer` (Electron: a desktop notification was clicked). */
  'inbox:open': { peer: string };
  /** Issue 25: replies received but not stored yet (a full disk), or that state ended. */
  'inbox:held': ReplyHold;
  /** Issue 25: the thorough check found the database damaged while the app ran: it is no longer served. */
  'database:damaged': DatabaseStatus;
}

/** "area.call" for every call of MessengerApi. */
export type ApiChannel = {
  [A in keyof MessengerApi & string]: `${A}.${keyof MessengerApi[A] & string}`;
}[keyof MessengerApi & string];
export type EventChannel = keyof MessengerEvents;

/** Arguments and result of a channel, for the shells' generic binding. */
export type ApiCall<C extends ApiChannel> = C extends `${infer A extends keyof MessengerApi}.${infer M}`
  ? M extends keyof MessengerApi[A]
    ? MessengerApi[A][M]
    : never
  : never;

// The lists of every call and event channel (API_CHANNELS, EVENT_CHANNELS), the error codes and
// the envelope every call answers with are in ./ipc-contract.ts: this file is types only.

// issue 12: mail merge measured for Compose's counter

/** A mail-merge text filled for every recipient of a request, measured (mailmerge.measure). */
export interface MergeMeasure {
  /** false when the text has no merge field (the template is what every recipient gets). */
  merged: boolean;
  /** Distinct valid recipients that are not opted out. */
  recipients: number;
  /** The longest text a recipient gets (most parts, then most characters), and to whom; null for no recipient. */
  longest: { text: string; to: string; name: string | null } | null;
  /** Parts of the longest text. */
  segments: number;
  /** Parts summed over every recipient: the messages the send costs. */
  messages: number;
  /** Recipients with no contact in the address book (their fields take the fallback, or nothing). */
  withoutContact: number;
  /** Different texts the recipients get. */
  distinctTexts: number;
}

// issue 25: replies kept through a full disk
/** What the app holds of the replies it received but could not store yet ('inbox:held'). */
export interface ReplyHold {
  /** True while anything is held or no new messages are collected (the gateway keeps them). */
  held: boolean;
  /** Answers received and not yet stored (on disk in the spool, or in memory). */
  answers: number;
  /** Bytes of them in memory only (lost if the app stops before space returns). */
  inMemoryBytes: number;
  /** Why: "the disk is full (…)", or null. */
  reason: string | null;
}

// issue 25: database health and backups
/** A checked copy of the database in the data folder's backups/ (main/store/backups.ts). */
export interface DatabaseBackup {
  file: string;
  at: Millis;
  /** "daily", "before-migration-16", "manual". */
  reason: string;
  bytes: number;
}

/** The database at start: served ('ok'), or damaged and not served until the user chooses. */
export interface DatabaseStatus {
  state: 'ok' | 'damaged';
  /** The database file. */
  file: string;
  /** SQLite's words for what is wrong (damaged only). */
  problem: string | null;
  /** Checked backups, newest first. */
  backups: DatabaseBackup[];
  /** Where a damaged file was kept (renamed beside the database) after a restore or a new start. */
  keptAs: string | null;
}

/** What "export what can still be read" wrote. */
export interface DatabaseExport {
  folder: string;
  messages: number;
  contacts: number;
  /** Damaged stretches stepped over (their rows are lost). */
  skipped: number;
  problems: string[];
}

export interface DatabaseApi {
  status(): Promise<DatabaseStatus>;
  /** A checked backup now. */
  backupNow(): Promise<DatabaseBackup>;
  /** Damaged only: the latest backup in place of the file (kept beside it), then the app opens. */
  restoreLatest(): Promise<DatabaseStatus>;
  /** The messages and contacts that can still be read, as CSV files in a new folder of the data folder. */
  exportReadable(): Promise<DatabaseExport>;
  /** Damaged only: a new empty database; the damaged file is kept beside it. */
  startNew(): Promise<DatabaseStatus>;
}
