// Typed view of the SOAP interface (spec 2.6 types, 4.5 operations). Property names are the XML
// element names, so the mapping to the wire is one to one. Value conventions:
//   hexBinary -> hex string (the parser returns it upper-case), dateTime -> ISO 8601 string as sent,
//   int / unsignedShort / positiveInteger / nonNegativeInteger -> number, boolean -> boolean, everything else -> string.
// Optional elements are optional properties; an element sent as xsi:nil="true" parses as absent.
// Repeated elements (CollectedMessagesList.item, info, info.item) are always arrays after parsing.
// The schema table that drives the builder, the parser and the XSD is in schema.ts.

import { DELIVERY_OPTIONS } from '../limits.ts';

export const SOAP_OPERATIONS = [
  'SubmitMessage',
  'SubmitDeliveryReceipt',
  'DeliverMessage',
  'AvailableMessages',
  'AvailableCredit',
  'MobileMessengerVersion',
  'CollectMessages',
  'PermittedReplyTo',
  // Not in the spec's list (4.5); the provider's published WSDL has it: the account's server address books.
  'QueryAddressBook',
] as const;
export type SoapOperation = (typeof SOAP_OPERATIONS)[number];

export function isSoapOperation(name: string): name is SoapOperation {
  return (SOAP_OPERATIONS as readonly string[]).includes(name);
}

// ---- enumerations (spec 2.6) ----

export const DATA_FORMATS = ['FORMAT-UNDEFINED', 'RTTTL', 'OTA'] as const;
export type DataFormat = (typeof DATA_FORMATS)[number];

/** SOAP si action; the HTTP form field si-action calls the last one "delete" (spec 2.4). */
export const SOAP_SI_ACTIONS = [
  'signal-medium',
  'signal-none',
  'signal-low',
  'signal-high',
  'signal-delete',
] as const;
export type SiAction = (typeof SOAP_SI_ACTIONS)[number];

/** The SOAP DeliveryOption enumeration is the list the form field DeliveryServiceOption takes (spec 2.2). */
export const SOAP_DELIVERY_OPTIONS = DELIVERY_OPTIONS;
export type DeliveryOption = (typeof SOAP_DELIVERY_OPTIONS)[number];

// ---- complex types (spec 2.6) ----

export interface Reserved {
  Field1?: string;
  Field2?: string;
  Field3?: string;
  Field4?: string;
}

export interface SmartMessage {
  LibraryNumber?: number;
  /** hexBinary */
  Data?: string;
  Format?: DataFormat;
}

/** XML type SMS-SUBMIT-PDU; all four are hexBinary and required. */
export interface SmsSubmitPdu {
  DataCodingScheme: string;
  ProtocolIdentifier: string;
  UserDataHeader: string;
  UserData: string;
}

export interface MMSLibraryNumber {
  LibraryNumber: number;
  TextMessage?: string;
}

export interface MMSFileUpload {
  FileName1?: string;
  /** hexBinary */
  FileData1?: string;
  FileType1?: string;
  FileTitle1?: string;
  ContentType1?: string;
  TextMessage1?: string;
}

/** XML type item (an si info item). `class` is an NMTOKEN. */
export interface InfoItem {
  pcdata: string;
  class: string;
}

/** XML type info. */
export interface Info {
  item: InfoItem[];
}

/** XML type indication (WAP push service indication). Element names keep their hyphens. */
export interface Indication {
  /** anyURI */
  href: string;
  'si-id'?: string;
  /** dateTime */
  created?: string;
  /** dateTime */
  'si-expires'?: string;
  action?: SiAction;
  content?: string;
}

/** XML type si. */
export interface ServiceIndication {
  indication: Indication;
  info: Info[];
}

export interface SimplePush {
  LibraryNumber: number;
  TextMessage?: string;
}

export interface WAPPush {
  SimplePush?: SimplePush;
  LibraryNumber?: MMSLibraryNumber;
  FileUpload?: MMSFileUpload;
  si?: ServiceIndication;
}

export interface MMSNotification {
  LibraryNumber?: MMSLibraryNumber;
  FileUpload?: MMSFileUpload;
}

export interface Message {
  TextMessage?: string;
  FlashMessage?: string;
  Ringtone?: SmartMessage;
  OperatorLogo?: SmartMessage;
  PictureMessage?: SmartMessage;
  GroupGraphic?: SmartMessage;
  SmsSubmitPdu?: SmsSubmitPdu;
  WAPPush?: WAPPush;
  MMSNotification?: MMSNotification;
}

export interface SendOptions {
  /** dateTime */
  SendTimeAbsolute?: string;
  /** unsignedShort, minutes */
  SendTimeDelay?: number;
  DeliveryOption?: DeliveryOption;
  DisableRepurposing?: boolean;
  DisableWalledGardenRule?: boolean;
}

export interface Recipient {
  SendTo?: string;
  SendCc?: string;
  SendBcc?: string;
  SendToAddressBook?: string;
  SendCcAddressBook?: string;
  SendBccAddressBook?: string;
  PhoneMake?: string;
  PhoneModel?: string;
  MCC?: number;
  MNC?: number;
  SendOptions?: SendOptions;
}

/** A mobile-originated (inbound) message. */
export interface MOMessage {
  SendTo: string;
  ReplyTo: string;
  /** dateTime */
  Timestamp1: string;
  Message: Message;
}

export interface CollectedMessagesList {
  item: MOMessage[];
}

// ---- operations (spec 4.5) ----

export interface Credentials {
  Username?: string;
  PIN?: string;
}

export interface SubmitMessageRequest extends Credentials {
  Recipient?: Recipient;
  Message?: Message;
  ReplyTo?: string;
  MessageIdentifier?: string;
  Reserved?: Reserved;
}
export interface SubmitMessageResponse {
  MessageIdentifier: string;
  Report: string;
  Text?: string;
  LibraryNumber?: number;
  Reserved?: Reserved;
}

export interface SubmitDeliveryReceiptRequest extends Credentials {
  /** dateTime */
  Timestamp1: string;
  SentTo?: string;
  MessageIdentifier?: string;
  Report: number;
}
export interface SubmitDeliveryReceiptResponse {
  MessageIdentifier: string;
  Report: number;
  Text?: string;
}

export interface DeliverMessageRequest extends Credentials {
  Recipient?: Recipient;
  Message?: Message;
  ReplyTo?: string;
  /** dateTime */
  Timestamp1?: string;
}
export interface DeliverMessageResponse {
  MessageIdentifier: string;
  Report: number;
  Text?: string;
}

export type AvailableMessagesRequest = Credentials;
export interface AvailableMessagesResponse {
  Messages: string;
  Reserved?: Reserved;
}

export type AvailableCreditRequest = Credentials;
export interface AvailableCreditResponse {
  Currency: string;
  /** decimal with four places, kept as the string sent */
  Credit: string;
  Reserved?: Reserved;
}

/** The request element is empty. */
export type MobileMessengerVersionRequest = Record<string, never>;
export interface MobileMessengerVersionResponse {
  Version: string;
  ReleaseNotice: string;
  DownloadURL: string;
  /** dateTime */
  ReleaseDate: string;
}

export type CollectMessagesRequest = Credentials;
export interface CollectMessagesResponse {
  Report: number;
  MessageList: CollectedMessagesList;
}

export type PermittedReplyToRequest = Credentials;
export interface PermittedReplyToResponse {
  /** comma-separated list, as in the HTTP form API */
  PermittedReplyTo: string;
  Reserved?: Reserved;
}

export interface QueryAddressBookRequest extends Credentials {
  /** A book of the account; absent = every book. */
  AddressBookName?: string;
  /** A group of that book; absent = every member. */
  AddressBookGroupName?: string;
}
/** One member of a server address book (XML type AddressBookEntry, element item). */
export interface AddressBookEntry {
  GivenName?: string;
  FamilyName?: string;
  MobileNumber: string;
  /** The member's group, when the query named one or the member is in one. */
  Group?: string;
}
export interface QueryAddressBookResponse {
  AddressBookEntryList: { item: AddressBookEntry[] };
}

export interface SoapRequests {
  SubmitMessage: SubmitMessageRequest;
  SubmitDeliveryReceipt: SubmitDeliveryReceiptRequest;
  DeliverMessage: DeliverMessageRequest;
  AvailableMessages: AvailableMessagesRequest;
  AvailableCredit: AvailableCreditRequest;
  MobileMessengerVersion: MobileMessengerVersionRequest;
  CollectMessages: CollectMessagesRequest;
  PermittedReplyTo: PermittedReplyToRequest;
  QueryAddressBook: QueryAddressBookRequest;
}

export interface SoapResponses {
  SubmitMessage: SubmitMessageResponse;
  SubmitDeliveryReceipt: SubmitDeliveryReceiptResponse;
  DeliverMessage: DeliverMessageResponse;
  AvailableMessages: AvailableMessagesResponse;
  AvailableCredit: AvailableCreditResponse;
  MobileMessengerVersion: MobileMessengerVersionResponse;
  CollectMessages: CollectMessagesResponse;
  PermittedReplyTo: PermittedReplyToResponse;
  QueryAddressBook: QueryAddressBookResponse;
}

/** A parsed request of any operation, discriminated by `operation`. */
export type AnySoapRequest = {
  [K in SoapOperation]: { operation: K; request: SoapRequests[K] };
}[SoapOperation];

/** Body element name of an operation's response, e.g. SubmitMessageResponse. */
export function responseElementName(op: SoapOperation): `${SoapOperation}Response` {
  return `${op}Response`;
}
