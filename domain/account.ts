// The app's domain model (issue 27), accounts, send, credit, updates, settings, the virtual phone's PDUs: the types the store, the services, the
// preload API (preload/api.ts re-exports each) and the renderer share. Types only.
import type { ContentKind, Millis } from './messages.ts';
import type { DeliveryOption, OutboxContent, OutboxJob } from './outbox.ts';

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
  /** Issue 26: the first opted-out recipients (at most 20), with their contacts' names, for the warning before Send. */
  optedOutNamed?: Array<{ number: string; name: string | null }>;
  /** Issue 26: the price `availableMessages` and `affordableRecipients` were counted at (null: not known). */
  rate?: DeliveryRate | null;
  /** Issue 26: the send's cost in money at `rate` (four decimals), null when not known. */
  cost?: string | null;
  /** Issue 26: the same send's cost and what the credit buys for every delivery option. */
  byOption?: Array<DeliveryRate & { cost: string }>;
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
  /** Issue 26: the price of a message part per delivery option and what the credit buys at it. */
  rates?: DeliveryRate[];
}

/**
 * Issue 26: where a message price comes from: the deploy policy ('policy', set by the
 * administrator), the Account settings ('setting'), what the gateway charged for the account's last
 * send with that delivery option ('learned'), or the credit over AvailableMessages, which counts
 * at the Premier rate ('availableMessages', an upper bound for the other options).
 */
export type RateBasis = 'policy' | 'setting' | 'learned' | 'availableMessages';

export interface DeliveryRate {
  option: DeliveryOption;
  /** The price of one message part, four decimals ("0.0400"), in `currency`. */
  price: string;
  currency: string;
  basis: RateBasis;
  /** When it was learned ('learned' only). */
  learnedAt?: Millis;
  /** Message parts the credit buys at this price (rounded down); null when not known. */
  messages: number | null;
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
  /**
   * Issue 26: the price of one message part per delivery option in the account's currency
   * ("0.04"; '' = not set: learned from sends, else counted from AvailableMessages). The deploy
   * policy's deliveryRates win over these.
   */
  deliveryRates: Record<DeliveryOption, string>;
  /** Issue 26: CSV exports start with a UTF-8 byte-order mark, so that spreadsheet programs read accents right. */
  csvBom: boolean;
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

export interface SoapNamespaceInfo {
  typesNamespace: string;
  namespace: string;
  /** wsdl: read from the gateway's WSDL; provider: its published values (no WSDL read); pinned: a setting or the policy. */
  source: 'wsdl' | 'provider' | 'pinned';
  /** The WSDL address read, why none could be, or what pinned it. */
  detail: string;
}

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

// issue 28: office mode
/** Where this desk's office database comes from, as the Account view shows it. */
export interface OfficeSetting {
  /** postgres://USER@HOST:PORT/DATABASE (never the password); null: none configured. */
  url: string | null;
  /** Who set it: --office, the deploy policy (both lock the setting) or this Account view. */
  source: 'command-line' | 'policy' | 'account' | null;
  /** A password is kept for it in the OS keyring. */
  passwordStored: boolean;
  /** A password can be kept here (Electron with an OS keyring); otherwise MESSENGER_OFFICE_PASSWORD. */
  keyring: boolean;
  /** The office database in use now (null: not in office mode). */
  active: string | null;
  /** The setting differs from what is in use: it applies when the app starts again. */
  restartNeeded: boolean;
  /** Issue 28: this desk's name as other desks show it beside its sends (default: the host name). */
  deskName: string;
}

/** A desk in office mode: its office database, whether it reaches it, whether it collects. */
export interface OfficeStatus {
  enabled: true;
  /** postgres://USER@HOST:PORT/DATABASE (never the password). */
  url: string;
  connected: boolean;
  /** This desk holds the account's collector lease (it calls CollectMessages). */
  collector: boolean;
  /** Writes queued here for the office database (sent when it is reachable). */
  pending: number;
  /**
   * Why the office database cannot be reached; while connected, a write it refuses (a constraint or
   * permission error: kept queued, tried again less and less often), else null.
   */
  error: string | null;
}
