// The one typed API between the renderer and the main process (docs/ARCHITECTURE.md, "One typed
// API"). Types only (the channel lists and the error envelope are ./ipc-contract.ts): main/ implements `MessengerApi` once (the
// service facade), the Electron shell binds each channel to ipcMain.handle, the web shell to its
// loopback WebSocket, and the renderer sees it as `window.messenger`.
//
// Everything here crosses a process boundary by structured clone / JSON: plain objects, strings,
// numbers, booleans, arrays, null. Times are milliseconds since the Unix epoch (UTC); phone
// numbers are normalised MSISDNs (international digits, no '+', spec 2.2) unless said otherwise.
// The data it carries is the app's domain model (domain/, issue 27): the store returns those types,
// and every one of them is re-exported here, so this file stays the one typed API surface.
import type {
  AccountSummary,
  AutoReplyRule,
  Balance,
  Campaign,
  CampaignResend,
  ChildAccount,
  ChildCreateRequest,
  ChildCreated,
  ChildPermission,
  ChildTransferRequest,
  ChildTransferResult,
  Contact,
  ContactInput,
  ContinueResult,
  ConversationCursor,
  ConversationFilter,
  ConversationSummary,
  Credit,
  CsvColumnMapping,
  DeletedContact,
  EffectivePolicy,
  Group,
  HistoryFilter,
  ImportOptions,
  ImportResult,
  InboxExportArgs,
  LibraryItem,
  MergeMeasure,
  MessageRecord,
  ReplyHold,
  DatabaseStatus,
  DatabaseBackup,
  DatabaseExport,
  OfficeSetting,
  OfficeStatus,
  OptOut,
  OutboxBatch,
  OutboxJob,
  Page,
  RecipientOutcome,
  SandboxPdu,
  SavedDraft,
  SearchResults,
  SendAccepted,
  SendEstimate,
  SendHalt,
  SendRequest,
  ServerAddressBook,
  Settings,
  SignInRequest,
  SoapNamespaceInfo,
  Template,
  ThreadCursor,
  UpdateDownload,
  UpdateInfo,
  UpdateStatus,
} from '../domain/index.ts';

export type * from '../domain/index.ts';

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
    // issue 25:
    /** Sends whose loop stopped because the journal took no write (a full disk), until a restart. */
    halts(): Promise<SendHalt[]>;
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
    /** Poll CollectMessages now; `warning` when the gateway returned messages again (issue 24). */
    pollNow(): Promise<{ received: number; warning?: string }>;
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
  // issue 28: office mode (docs/OFFICE.md)
  office: {
    /** Office mode at this desk; null when the desk is not in office mode. */
    status(): Promise<OfficeStatus | null>;
    /** The Account view's office database setting (applies when the app starts again). */
    setting(): Promise<OfficeSetting>;
    /** Sets (null: clears) the URL, without a password; `password` is kept by the OS keyring. */
    configure(args: { url: string | null; password?: string }): Promise<OfficeSetting>;
    /** This desk's name beside its sends at the other desks ('' : the host name). */
    rename(args: { name: string }): Promise<OfficeSetting>;
  };
  // issue 25: the database's health, its backups, and the three choices when it is damaged
  database: DatabaseApi;
}

export interface MessengerEvents {
  /**
   * A batch answered (or cancelled): the batch (its SendTo list, `recipients`) and the job's counts.
   * No per-recipient outcomes: 350 of them per batch were ~20 MB of JSON per 100,000-recipient send
   * for each window; a view that shows recipients reads them (issue 27 item 6).
   */
  'outbox:progress': { jobId: number; batch: OutboxBatch; job: OutboxJob };
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
  // issue 25
  /** A send's loop stopped: the journal took no write (a full disk); its outcome is not all recorded. */
  'outbox:halted': SendHalt;
  // issue 28
  /** Office mode: the office database connected or lost, this desk collecting or not. */
  'office:status': OfficeStatus;
  /** Issue 28: sends of other desks imported or changed (History and campaigns read them again). */
  'office:sends': { jobIds: number[] };
  /** Issue 25: replies received but not stored yet (a full disk), or that state ended. */
  'inbox:held': ReplyHold;
  /** Issue 25: the thorough check found the database damaged while the app ran: it is no longer served. */
  'database:damaged': DatabaseStatus;
  /** Issue 28: office mode: contacts, groups, templates or auto-reply rules changed at another desk (reload them). */
  'office:library': { kinds: Array<'contact' | 'group' | 'member' | 'template' | 'rule'> };
  /** Issue 25: a backup failed or, after a failure, one was written again (backupFailed null). */
  'database:backup': DatabaseStatus;
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
