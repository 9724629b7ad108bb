// The app's domain model (issue 27), child accounts (manageaccount, spec 4.4) and the deploy policy (docs/ADMIN.md): the types the store, the services, the
// preload API (preload/api.ts re-exports each) and the renderer share. Types only.
import type { ChildAccountType } from '../protocol/limits.ts';
import type { Credit } from './account.ts';
import type { Millis } from './messages.ts';
import type { DeliveryOption } from './outbox.ts';

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
    /** Issue 23: a release without a signature is kept (marked not verified); default false. */
    allowUnsigned: boolean;
  };
  /** Issue 17: plain-http gateways on other machines are allowed without asking the user. */
  allowInsecureGateways: boolean;
  pollIntervalSeconds: { min: number; max: number };
  offerSandbox: boolean;
  /** true shows Accounts (child accounts) whatever the setting. */
  childAccounts: boolean;
  /** Pins the SOAP types namespace for every account (wins over the setting); null = not pinned. */
  soapTypesNamespace: string | null;
  /** Issue 26: message prices set by the administrator (win over the setting); {} = none set. */
  deliveryRates: Partial<Record<DeliveryOption, string>>;
  /** Issue 28: every desk of this computer is in office mode on this database (no password); null = not set. */
  officeDatabase: string | null;
}
