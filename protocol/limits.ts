/**
 * Limits and enumerations of the Messaging Gateway Service (spec sections 2, 4 and 8).
 * Every other module imports these values instead of re-typing them.
 */

/** Numeric limits (spec 8, 2.2, 2.4, 2.5). */
export const LIMITS = {
  /** Recipients per request: "no more than 350 numbers suggested" (spec 8). */
  maxRecipientsPerRequest: 350,
  /** SendTimeDelay in minutes, 1 to 10080 (7 days). */
  sendTimeDelayMin: 1,
  sendTimeDelayMax: 10080,
  /** WAPPushFileName1 / MMSNotificationFileName1 including the extension. */
  fileNameMax: 50,
  usernameMax: 20,
  pinMax: 20,
  /** Response record sizes (spec 2.5). */
  messageIdentifierMax: 15,
  reportDigits: 3,
  textMax: 255,
  libraryNumberDigits: 5,
  /** Message on MMS or WAP push: at most 50 characters (fewer when Unicode encoded). */
  mmsMessageMax: 50,
  /** Single message in UTF-8: at most 70 characters. */
  utf8SingleMessageMax: 70,
  /**
   * Parts of one concatenated SMS text: the concatenation header counts parts in one octet
   * (3GPP TS 23.040 9.2.3.24.1), so a Message or FlashMessage longer than 255 parts cannot be sent.
   * The spec gives no smaller limit; a gateway may set one and answer with a report code.
   */
  maxMessageParts: 255,
  /**
   * Fields in one form request (query string and body together). The spec sets no number; the
   * richest operation (sendmms) names about sixty tags, so a request of more is not a request
   * (issue 23: a body of a million empty fields is refused before it is decoded).
   */
  maxFormFields: 1000,
} as const;

/** Inclusive library number ranges per content type (spec 2.4, 8). */
export const LIBRARY_RANGES = {
  pictureMessage: [20000, 29999],
  groupGraphic: [10000, 19999],
  operatorLogo: [10000, 19999],
  mmsFile: [80000, 89999],
  wapFile: [80000, 89999],
} as const;

export type LibraryKind = keyof typeof LIBRARY_RANGES;

/** A library number as typed: its LIMITS.libraryNumberDigits decimal digits (spec 8) as a number, else null. */
export function parseLibraryNumber(text: string): number | null {
  const v = text.trim();
  return v.length === LIMITS.libraryNumberDigits && /^\d+$/.test(v) ? Number(v) : null;
}

/** True when `n` is an integer inside the library range of `kind`. */
export function inLibraryRange(kind: LibraryKind, n: number): boolean {
  const [min, max] = LIBRARY_RANGES[kind];
  return Number.isInteger(n) && n >= min && n <= max;
}

/** PhoneMake values (spec 2.4). */
export const PHONE_MAKES = ['Alcatel', 'Ericsson', 'Motorola', 'Nokia', 'Sagem', 'Siemens', 'EMS'] as const;
export type PhoneMake = (typeof PHONE_MAKES)[number];

/** DeliveryServiceOption values (spec 2.2; the SOAP DeliveryOption type). */
export const DELIVERY_OPTIONS = ['Default', 'Premier', 'LeastCost', 'Economy'] as const;
export type DeliveryOption = (typeof DELIVERY_OPTIONS)[number];

/** ResponseFormat values as sent in the form (spec 4.1); 0 is the default. */
export const RESPONSE_FORMATS = ['0', '1', '3'] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];
export const DEFAULT_RESPONSE_FORMAT: ResponseFormat = '0';
/** Format 3: one MessageIdentifier, Report and Text per recipient (the one a client of many recipients asks for). */
export const PER_RECIPIENT_RESPONSE_FORMAT: ResponseFormat = '3';

/**
 * si-action values (spec 2.4). The form documentation names the last one `delete`, the SOAP
 * enumeration names it `signal-delete`; both are accepted.
 */
export const SI_ACTIONS = [
  'signal-none',
  'signal-low',
  'signal-medium',
  'signal-high',
  'delete',
  'signal-delete',
] as const;
export type SiAction = (typeof SI_ACTIONS)[number];
export const DEFAULT_SI_ACTION: SiAction = 'signal-medium';

/** CreateChildAccountType values (spec 2.1, 4.4). */
export const CHILD_ACCOUNT_TYPES = ['TRANSFER', 'SHARED'] as const;
export type ChildAccountType = (typeof CHILD_ACCOUNT_TYPES)[number];

/** queryaccount operation tags, each sent with an empty value (spec 4.3). */
export const QUERY_OPERATIONS = ['AvailableCredit', 'AvailableMessages', 'PermittedReplyTo'] as const;
export type QueryOperation = (typeof QUERY_OPERATIONS)[number];

/** manageaccount operations, named by the field that selects them (spec 4.4). */
export const MANAGE_OPERATIONS = {
  createChild: 'CreateChildAccountType',
  deleteChild: 'DeleteChildAccountUsername',
  transfer: 'TransferToAccountUsername',
} as const;
export type ManageOperation = keyof typeof MANAGE_OPERATIONS;

/** AddSMIL values (spec 2.4): 0 handset default, 1 add SMIL, 2 do not add SMIL. */
export const ADD_SMIL_VALUES = ['0', '1', '2'] as const;
export type AddSmil = (typeof ADD_SMIL_VALUES)[number];

/** Flags DisableRepurposing and DisableWalledGardenRule: 0 (default) or 1. */
export const FLAG_VALUES = ['0', '1'] as const;

/** File extensions accepted for MMSNotificationFileName1 (spec 2.4). */
export const MMS_NOTIFICATION_EXTENSIONS = ['.mms', '.zip'] as const;

/** Image extensions that the gateway adapts to the recipient handset (spec 2.4). */
export const ADAPTABLE_IMAGE_EXTENSIONS = ['.jpg', '.gif', '.png', '.wbmp'] as const;

/** The currency the service currently uses (spec 2.1); the older credit page shows UKL. */
export const DEFAULT_CURRENCY = 'GBP';
/** The currency of TransferCurrencyAmount (spec 3.3, manageaccount "Transfer funds"). */
export const TRANSFER_CURRENCY = 'GBP';
export const LEGACY_CURRENCY = 'UKL';

/** UTC date-time without offset, YYYY-MM-DDTHH:MM:SS (SendTimeAbsolute, si-created, si-expires). */
export const SEND_TIME_ABSOLUTE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/**
 * Parses a YYYY-MM-DDTHH:MM:SS UTC date-time and checks that it names a real calendar instant
 * (no 2025-02-30, no hour 24). Returns epoch milliseconds or undefined.
 */
export function parseUtcDateTime(value: string): number | undefined {
  const m = SEND_TIME_ABSOLUTE_PATTERN.exec(value);
  if (m === null) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    return undefined;
  return ms;
}

/** Formats epoch milliseconds as YYYY-MM-DDTHH:MM:SS in UTC. */
export function formatUtcDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}
