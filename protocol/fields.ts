/**
 * Field catalogue of the HTTP form API (spec 2.1–2.4, 4.3, 4.4): every tag of every operation
 * with its type, required-ness and limits. validate.ts checks requests against it.
 */

import {
  ADD_SMIL_VALUES,
  CHILD_ACCOUNT_TYPES,
  DELIVERY_OPTIONS,
  FLAG_VALUES,
  LIMITS,
  PHONE_MAKES,
  QUERY_OPERATIONS,
  RESPONSE_FORMATS,
  SI_ACTIONS,
} from './limits.ts';
import type { LibraryKind, PhoneMake } from './limits.ts';
import type { RichKind } from './kinds.ts';

export type Operation = 'sendsms' | 'sendsms-deprecated' | 'sendmms' | 'queryaccount' | 'manageaccount';

export const OPERATIONS: ReadonlyArray<Operation> = [
  'sendsms',
  'sendsms-deprecated',
  'sendmms',
  'queryaccount',
  'manageaccount',
];

/** Endpoint path of each operation (spec 4.1–4.4; the deprecated format shares /sendsms). */
export const OPERATION_PATHS: Readonly<Record<Operation, string>> = {
  sendsms: '/webservices/http/sendsms',
  'sendsms-deprecated': '/webservices/http/sendsms',
  sendmms: '/webservices/http/sendmms',
  queryaccount: '/webservices/http/queryaccount',
  manageaccount: '/webservices/http/manageaccount',
};

export type FieldKind =
  | 'username' // alphanumeric and '.', ≤ 20
  | 'pin' // alphanumeric, ≤ 20
  | 'numberList' // comma-separated international numbers without '+'
  | 'addressBook' // name or name::group
  | 'msisdn' // one international number without '+'
  | 'countryCode' // international dialling code without '+'
  | 'text' // free text (URL-encoded on the wire)
  | 'string'
  | 'integer'
  | 'decimal'
  | 'enum'
  | 'datetime' // YYYY-MM-DDTHH:MM:SS UTC, a real calendar date
  | 'hex' // even-length hex
  | 'libraryOrHex' // library number in a range, or hex OTA bitmap
  | 'library' // library number in a range
  | 'ringtone' // library number, hex, or RTTTL/RTX text
  | 'fileName' // name with extension
  | 'uri'
  | 'email'
  | 'mime'
  | 'vcard'
  | 'vcalendar'
  | 'empty'; // operation tag sent with an empty value

/**
 * yes: always required. either: one of the fields sharing `group` is required.
 * conditional: required in a situation validate.ts checks (e.g. PhoneMake for ringtones).
 * recommended: optional, but the spec recommends it. no: optional.
 */
export type Requirement = 'yes' | 'either' | 'conditional' | 'recommended' | 'no';

/** Which manageaccount operation a field belongs to. */
export type ManageKind = 'createChild' | 'deleteChild' | 'transfer';

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  required: Requirement;
  /** Fields of an "either" group (spec "Either"), or of an exactly-one group. */
  group?: string;
  /** The sendmms content kind (content.ts RICH_KINDS) the field belongs to: one kind per request. */
  content?: RichKind;
  manage?: ManageKind;
  maxLength?: number;
  min?: number;
  max?: number;
  values?: ReadonlyArray<string>;
  library?: LibraryKind;
  /** Allowed file extensions, lower case with the dot. */
  extensions?: ReadonlyArray<string>;
  /** Spec section. */
  section: string;
  description: string;
}

const USERNAME: FieldSpec = {
  name: 'Username',
  kind: 'username',
  required: 'yes',
  maxLength: LIMITS.usernameMax,
  section: '2.1',
  description: 'account name, case-sensitive',
};
const PIN: FieldSpec = {
  name: 'PIN',
  kind: 'pin',
  required: 'yes',
  maxLength: LIMITS.pinMax,
  section: '2.1',
  description: 'account PIN, case-sensitive',
};
const REPLY_TO: FieldSpec = {
  name: 'ReplyTo',
  kind: 'string',
  required: 'no',
  section: '2.2',
  description: 'sender shown to the recipient; one of the permitted ReplyTo values',
};
const SEND_TIME_DELAY: FieldSpec = {
  name: 'SendTimeDelay',
  kind: 'integer',
  required: 'no',
  min: LIMITS.sendTimeDelayMin,
  max: LIMITS.sendTimeDelayMax,
  section: '2.2',
  description: 'delay before sending, minutes',
};
const SEND_TIME_ABSOLUTE: FieldSpec = {
  name: 'SendTimeAbsolute',
  kind: 'datetime',
  required: 'no',
  section: '2.2',
  description: 'UTC send time YYYY-MM-DDTHH:MM:SS',
};
const RESPONSE_FORMAT: FieldSpec = {
  name: 'ResponseFormat',
  kind: 'enum',
  required: 'no',
  values: RESPONSE_FORMATS,
  section: '4.1',
  description: 'response style 0 (default), 1 or 3',
};

function numbers(name: string, required: Requirement, section: string, description: string): FieldSpec {
  return { name, kind: 'numberList', required, group: 'recipients', section, description };
}
function book(name: string, section: string, description: string): FieldSpec {
  return { name, kind: 'addressBook', required: 'either', group: 'recipients', section, description };
}
function content(
  name: string,
  kind: FieldKind,
  contentKind: RichKind,
  required: Requirement,
  extra: Partial<FieldSpec> & { description: string },
): FieldSpec {
  return { name, kind, required, content: contentKind, section: '2.4', ...extra };
}

const SENDSMS: FieldSpec[] = [
  USERNAME,
  PIN,
  numbers('SendTo', 'either', '2.2', 'recipient numbers, international format without +'),
  book('SendToAddressBook', '2.2', 'address book name, optionally ::group'),
  REPLY_TO,
  {
    name: 'Message',
    kind: 'text',
    required: 'either',
    group: 'text',
    section: '2.2',
    description: 'SMS text',
  },
  {
    name: 'FlashMessage',
    kind: 'text',
    required: 'either',
    group: 'text',
    section: '2.2',
    description: 'flash SMS text',
  },
  SEND_TIME_DELAY,
  SEND_TIME_ABSOLUTE,
  RESPONSE_FORMAT,
  {
    name: 'DeliveryServiceOption',
    kind: 'enum',
    required: 'no',
    values: DELIVERY_OPTIONS,
    section: '2.2',
    description: 'delivery class',
  },
];

const SENDSMS_DEPRECATED: FieldSpec[] = [
  { ...USERNAME, name: 'UN', section: '2.3' },
  { ...PIN, section: '2.3' },
  { name: 'M', kind: 'text', required: 'yes', section: '2.3', description: 'plain text' },
  { name: 'N', kind: 'numberList', required: 'yes', section: '2.3', description: 'recipient numbers' },
];

const SENDMMS: FieldSpec[] = [
  USERNAME,
  PIN,
  { ...REPLY_TO, section: '2.4' },
  numbers('SendTo', 'either', '2.4', 'recipient numbers ("typically required")'),
  book('SendToAddressBook', '2.4', 'address book name, optionally ::group'),
  numbers('SendCc', 'either', '2.4', 'Cc numbers'),
  numbers('SendBcc', 'either', '2.4', 'Bcc numbers'),
  book('SendCcAddressBook', '2.4', 'Cc address book name, optionally ::group'),
  book('SendBccAddressBook', '2.4', 'Bcc address book name, optionally ::group'),
  { ...SEND_TIME_DELAY, section: '2.4' },
  { ...SEND_TIME_ABSOLUTE, section: '2.4' },
  { ...RESPONSE_FORMAT, section: '2.4' },
  {
    name: 'PhoneMake',
    kind: 'enum',
    required: 'conditional',
    values: PHONE_MAKES,
    section: '2.4',
    description: 'required for ringtone, group graphic (Nokia), operator logo, picture message',
  },
  { name: 'PhoneModel', kind: 'string', required: 'no', section: '2.4', description: 'handset model' },
  {
    name: 'Message',
    kind: 'text',
    required: 'no',
    maxLength: LIMITS.mmsMessageMax,
    section: '2.4',
    description: 'MMS subject or WAP push text (≤ 50 characters); PDU user data text',
  },
  { name: 'ContentType', kind: 'mime', required: 'no', section: '2.4', description: 'MIME type' },
  {
    name: 'DisableRepurposing',
    kind: 'enum',
    required: 'no',
    values: FLAG_VALUES,
    section: '2.4',
    description: '1 turns content adaption off',
  },
  {
    name: 'DisableWalledGardenRule',
    kind: 'enum',
    required: 'no',
    values: FLAG_VALUES,
    section: '2.4',
    description: '1 turns the walled-garden rule off',
  },
  {
    name: 'AddSMIL',
    kind: 'enum',
    required: 'no',
    values: ADD_SMIL_VALUES,
    section: '2.4',
    description: '0 handset default, 1 add SMIL, 2 do not add',
  },
  content('PictureMessage', 'libraryOrHex', 'pictureMessage', 'yes', {
    library: 'pictureMessage',
    description: 'library number 20000–29999 or hex OTA bitmap',
  }),
  content('GroupGraphic', 'libraryOrHex', 'groupGraphic', 'yes', {
    library: 'groupGraphic',
    description: 'library number 10000–19999 or hex OTA bitmap; PhoneMake=Nokia',
  }),
  content('OperatorLogo', 'libraryOrHex', 'operatorLogo', 'yes', {
    library: 'operatorLogo',
    description: 'library number 10000–19999 or hex OTA bitmap',
  }),
  content('MCC', 'integer', 'operatorLogo', 'yes', { min: 0, max: 999, description: 'Mobile Country Code' }),
  content('MNC', 'integer', 'operatorLogo', 'yes', { min: 0, max: 999, description: 'Mobile Network Code' }),
  content('Ringtone', 'ringtone', 'ringtone', 'yes', {
    description: 'library number, hex, or URL-encoded RTTTL/RTX',
  }),
  content('vCard', 'vcard', 'vcard', 'yes', { description: 'vCard data' }),
  content('vCal', 'vcalendar', 'vcalendar', 'yes', { description: 'vCalendar data' }),
  content('MMSFileMMS', 'library', 'mms', 'either', {
    group: 'mmsFile',
    library: 'mmsFile',
    description: 'library number 80000–89999 of an MMS file',
  }),
  content('MMSNotificationFileName1', 'fileName', 'mms', 'either', {
    group: 'mmsFile',
    maxLength: LIMITS.fileNameMax,
    extensions: ['.mms', '.zip'],
    description: 'file name with .mms or .zip, ≤ 50 characters',
  }),
  content('MMSNotificationFileData1', 'hex', 'mms', 'conditional', {
    description: 'hex file content, required with MMSNotificationFileName1',
  }),
  content('MMSFileWAP', 'library', 'wapPush', 'either', {
    group: 'wapFile',
    library: 'wapFile',
    description: 'library number 80000–89999',
  }),
  content('WAPPushFileName1', 'fileName', 'wapPush', 'either', {
    group: 'wapFile',
    maxLength: LIMITS.fileNameMax,
    description: 'file name with extension, ≤ 50 characters',
  }),
  content('WAPPushFileData1', 'hex', 'wapPush', 'conditional', {
    description: 'hex file content, required with WAPPushFileName1',
  }),
  content('si-href', 'uri', 'serviceIndication', 'yes', { description: 'URI of the service' }),
  content('si-id', 'string', 'serviceIndication', 'recommended', {
    description: 'distinguishes indications with the same href',
  }),
  content('si-created', 'datetime', 'serviceIndication', 'recommended', {
    description: 'UTC creation time YYYY-MM-DDThh:mm:ss',
  }),
  content('si-expires', 'datetime', 'serviceIndication', 'recommended', {
    description: 'UTC expiry YYYY-MM-DDTHH:mm:SS',
  }),
  content('si-action', 'enum', 'serviceIndication', 'no', {
    values: SI_ACTIONS,
    description: 'signal-none|low|medium|high, delete (signal-delete); default signal-medium',
  }),
  content('si-content', 'text', 'serviceIndication', 'recommended', {
    description: 'text shown on the handset, used instead of Message',
  }),
  content('si-info-pcdata', 'text', 'serviceIndication', 'no', { description: 'info text (one pair only)' }),
  content('si-info-class', 'string', 'serviceIndication', 'no', {
    description: 'info class (one pair only)',
  }),
  content('SmsSubmitPduDataCodingScheme', 'hex', 'pdu', 'yes', { description: 'DCS octet, hex' }),
  content('SmsSubmitPduProtocolIdentifier', 'hex', 'pdu', 'yes', { description: 'PID octet, hex' }),
  content('SmsSubmitPduUserDataHeader', 'hex', 'pdu', 'yes', {
    description: 'UDH: length, ports IE, destination and source port, hex',
  }),
  content('SmsSubmitPduUserData', 'hex', 'pdu', 'either', {
    group: 'pduData',
    description: 'user data, hex (or Message as text)',
  }),
];

const QUERYACCOUNT: FieldSpec[] = [
  USERNAME,
  PIN,
  ...QUERY_OPERATIONS.map((name): FieldSpec => ({
    name,
    kind: 'empty',
    required: 'either',
    group: 'operation',
    section: '4.3',
    description: `${name} query; empty value, exactly one operation tag`,
  })),
];

function manage(
  name: string,
  kind: FieldKind,
  op: ManageKind,
  required: Requirement,
  description: string,
  extra: Partial<FieldSpec> = {},
): FieldSpec {
  return { name, kind, required, manage: op, section: '4.4', description, ...extra };
}

const MANAGEACCOUNT: FieldSpec[] = [
  { ...USERNAME, description: 'parent (or paying) account' },
  { ...PIN, description: 'PIN of that account' },
  manage('CreateChildAccountType', 'enum', 'createChild', 'yes', 'TRANSFER or SHARED', {
    values: CHILD_ACCOUNT_TYPES,
  }),
  manage('CreateChildAccountEmail', 'email', 'createChild', 'yes', 'e-mail address of the child'),
  manage('CreateChildAccountTelephoneCountryCode', 'countryCode', 'createChild', 'yes', 'country code, no +'),
  manage('CreateChildAccountMobileNumber', 'msisdn', 'createChild', 'yes', 'international mobile number'),
  manage('CreateChildAccountGivenName', 'string', 'createChild', 'no', 'given name'),
  manage('CreateChildAccountFamilyName', 'string', 'createChild', 'no', 'family name'),
  manage('CreateChildAccountCompanyName', 'string', 'createChild', 'no', 'company name'),
  manage('DeleteChildAccountUsername', 'username', 'deleteChild', 'yes', 'child to delete', {
    maxLength: LIMITS.usernameMax,
  }),
  manage('TransferToAccountUsername', 'username', 'transfer', 'yes', 'target account', {
    maxLength: LIMITS.usernameMax,
  }),
  manage('TransferCurrencyAmount', 'decimal', 'transfer', 'either', 'amount in GBP', { group: 'amount' }),
  manage('TransferMessagesAmount', 'integer', 'transfer', 'either', 'number of messages', {
    group: 'amount',
    min: 1,
  }),
];

export const FIELDS: Record<Operation, ReadonlyArray<FieldSpec>> = {
  sendsms: SENDSMS,
  'sendsms-deprecated': SENDSMS_DEPRECATED,
  sendmms: SENDMMS,
  queryaccount: QUERYACCOUNT,
  manageaccount: MANAGEACCOUNT,
};

/** The spec of one field of an operation, or undefined for a tag the operation does not define. */
export function fieldSpec(op: Operation, name: string): FieldSpec | undefined {
  return FIELDS[op].find((f) => f.name === name);
}

/**
 * What each sendmms content kind is called in the problems about it: `label` in "One kind of
 * content is required: …", `requiredFor` after "… is required" of its required fields.
 */
export const CONTENT_LABELS: Readonly<Record<RichKind, { label: string; requiredFor?: string }>> = {
  pictureMessage: { label: 'PictureMessage' },
  groupGraphic: { label: 'GroupGraphic' },
  operatorLogo: { label: 'OperatorLogo', requiredFor: 'an operator logo' },
  ringtone: { label: 'Ringtone' },
  vcard: { label: 'vCard' },
  vcalendar: { label: 'vCal' },
  mms: { label: 'MMS notification' },
  wapPush: { label: 'WAP push file' },
  serviceIndication: { label: 'si-href', requiredFor: 'a service indication' },
  pdu: { label: 'SMS-SUBMIT PDU fields', requiredFor: 'an SMS-SUBMIT PDU' },
};

/** Content kinds whose PhoneMake is required (spec 2.4). */
export const PHONE_MAKE_REQUIRED: ReadonlyArray<RichKind> = [
  'ringtone',
  'groupGraphic',
  'operatorLogo',
  'pictureMessage',
];

/** A content kind sent to handsets of one make only: the make, and what the kind is called (plural). */
export interface PhoneMakeOnly {
  make: PhoneMake;
  what: string;
}

/** Content kinds sent to one phone make only (spec 2.4: a group graphic needs PhoneMake=Nokia). */
const PHONE_MAKE_ONLY: Readonly<Partial<Record<RichKind, PhoneMakeOnly>>> = {
  groupGraphic: { make: 'Nokia', what: 'Group graphics' },
};

/**
 * The PhoneMake a content kind must be sent with (spec 2.4), or undefined when any make of
 * PHONE_MAKES will do. Takes any kind name: the app's content kinds share these names.
 */
export function requiredPhoneMake(kind: string): PhoneMakeOnly | undefined {
  return Object.hasOwn(PHONE_MAKE_ONLY, kind) ? PHONE_MAKE_ONLY[kind as RichKind] : undefined;
}

/** Content kinds that are MMS or WAP push, where Message is at most 50 characters (spec 8). */
export const MMS_OR_WAP_CONTENT: ReadonlyArray<RichKind> = ['mms', 'wapPush', 'serviceIndication'];
