// The SOAP schema as data (spec 2.6 and 4.5). One table drives three things, so they cannot drift:
//   - envelope.ts builds elements in this order (xs:sequence order) and checks values before sending;
//   - envelope.ts parses and types values by it (numbers, booleans, hex, arrays, required elements);
//   - wsdl.ts writes the XSD and the WSDL from it.
// LibraryNumber is an xs:nonNegativeInteger wherever it appears, as in the provider's published schema
// (sendsms5.xsd; the spec's table 2.6 says positiveInteger): a gateway may answer 0, and a request
// carrying 0 is answered by the gateway's library rules, not refused by the schema (issue 24).
// The nillable flags ('~') are the provider's too: every optional element of Message, Recipient,
// SendOptions (the two send times), MMSFileUpload, MMSNotification, MMSLibraryNumber, SimplePush,
// indication (si-id, content), SubmitMessage and the Text of the two responses that have one, as the
// bindings generated from the provider's sendsms5.xsd show (JAXBElement = optional and nillable).
// What still differs from the provider's WSDL, and why: protocol/soap/README.md.
// The TypeScript interfaces of operations.ts mirror this table by element name; the unit tests build
// a sample that sets every field of the table and check it survives a round trip and the XSD.

import { DATA_FORMATS, SOAP_DELIVERY_OPTIONS, SOAP_SI_ACTIONS, type SoapOperation } from './operations.ts';

export const SCALAR_TYPES = [
  'string',
  'int',
  'unsignedShort',
  'positiveInteger',
  'nonNegativeInteger',
  'boolean',
  'hexBinary',
  'dateTime',
  'anyURI',
  'NMTOKEN',
] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

/** XSD simple types with an enumeration, by their XML type name. */
export const SOAP_ENUMS = {
  DataFormat: DATA_FORMATS,
  action: SOAP_SI_ACTIONS,
  DeliveryOption: SOAP_DELIVERY_OPTIONS,
} as const;
export type EnumTypeName = keyof typeof SOAP_ENUMS;

export type FieldKind =
  | { readonly kind: 'scalar'; readonly type: ScalarType }
  | { readonly kind: 'enum'; readonly type: EnumTypeName }
  | { readonly kind: 'complex'; readonly type: ComplexTypeName };

export interface FieldDef {
  /** element name (unqualified) and TypeScript property name */
  readonly name: string;
  readonly of: FieldKind;
  /** minOccurs="0" */
  readonly optional: boolean;
  /** maxOccurs="unbounded"; parsed as an array, always */
  readonly many: boolean;
  /** nillable="true"; xsi:nil parses as absent */
  readonly nillable: boolean;
}

/**
 * Shorthand: field('Username', 'string', '?~').
 * Flags: '?' optional (minOccurs 0), '*' zero or more (implies optional), '~' nillable.
 */
function field(name: string, type: ScalarType | EnumTypeName | ComplexTypeName, flags = ''): FieldDef {
  const of: FieldKind = (SCALAR_TYPES as readonly string[]).includes(type)
    ? { kind: 'scalar', type: type as ScalarType }
    : type in SOAP_ENUMS
      ? { kind: 'enum', type: type as EnumTypeName }
      : { kind: 'complex', type: type as ComplexTypeName };
  const many = flags.includes('*');
  return { name, of, optional: many || flags.includes('?'), many, nillable: flags.includes('~') };
}

export const COMPLEX_TYPE_NAMES = [
  'Reserved',
  'SmartMessage',
  'SMS-SUBMIT-PDU',
  'MMSLibraryNumber',
  'MMSFileUpload',
  'item',
  'info',
  'indication',
  'si',
  'SimplePush',
  'WAPPush',
  'MMSNotification',
  'Message',
  'SendOptions',
  'Recipient',
  'MOMessage',
  'CollectedMessagesList',
  'AddressBookEntry',
  'AddressBookEntryList',
] as const;
export type ComplexTypeName = (typeof COMPLEX_TYPE_NAMES)[number];

/** Complex types of spec 2.6, by XML type name, with their sequence of child elements. */
export const SOAP_COMPLEX_TYPES: Readonly<Record<ComplexTypeName, ReadonlyArray<FieldDef>>> = {
  Reserved: [
    field('Field1', 'string', '?~'),
    field('Field2', 'string', '?~'),
    field('Field3', 'string', '?~'),
    field('Field4', 'string', '?~'),
  ],
  SmartMessage: [
    field('LibraryNumber', 'nonNegativeInteger', '?'),
    field('Data', 'hexBinary', '?~'),
    field('Format', 'DataFormat', '?'),
  ],
  'SMS-SUBMIT-PDU': [
    field('DataCodingScheme', 'hexBinary'),
    field('ProtocolIdentifier', 'hexBinary'),
    field('UserDataHeader', 'hexBinary'),
    field('UserData', 'hexBinary'),
  ],
  MMSLibraryNumber: [field('LibraryNumber', 'nonNegativeInteger'), field('TextMessage', 'string', '?~')],
  MMSFileUpload: [
    field('FileName1', 'string', '?~'),
    field('FileData1', 'hexBinary', '?~'),
    field('FileType1', 'string', '?~'),
    field('FileTitle1', 'string', '?~'),
    field('ContentType1', 'string', '?~'),
    field('TextMessage1', 'string', '?~'),
  ],
  item: [field('pcdata', 'string'), field('class', 'NMTOKEN')],
  info: [field('item', 'item', '*')],
  indication: [
    field('href', 'anyURI'),
    field('si-id', 'string', '?~'),
    field('created', 'dateTime', '?'),
    field('si-expires', 'dateTime', '?'),
    field('action', 'action', '?'),
    field('content', 'string', '?~'),
  ],
  si: [field('indication', 'indication'), field('info', 'info', '*')],
  SimplePush: [field('LibraryNumber', 'nonNegativeInteger'), field('TextMessage', 'string', '?~')],
  WAPPush: [
    field('SimplePush', 'SimplePush', '?~'),
    field('LibraryNumber', 'MMSLibraryNumber', '?~'),
    field('FileUpload', 'MMSFileUpload', '?~'),
    field('si', 'si', '?~'),
  ],
  MMSNotification: [
    field('LibraryNumber', 'MMSLibraryNumber', '?~'),
    field('FileUpload', 'MMSFileUpload', '?~'),
  ],
  Message: [
    field('TextMessage', 'string', '?~'),
    field('FlashMessage', 'string', '?~'),
    field('Ringtone', 'SmartMessage', '?~'),
    field('OperatorLogo', 'SmartMessage', '?~'),
    field('PictureMessage', 'SmartMessage', '?~'),
    field('GroupGraphic', 'SmartMessage', '?~'),
    field('SmsSubmitPdu', 'SMS-SUBMIT-PDU', '?~'),
    field('WAPPush', 'WAPPush', '?~'),
    field('MMSNotification', 'MMSNotification', '?~'),
  ],
  SendOptions: [
    field('SendTimeAbsolute', 'dateTime', '?~'),
    field('SendTimeDelay', 'unsignedShort', '?~'),
    field('DeliveryOption', 'DeliveryOption', '?'),
    field('DisableRepurposing', 'boolean', '?'),
    field('DisableWalledGardenRule', 'boolean', '?'),
  ],
  Recipient: [
    field('SendTo', 'string', '?~'),
    field('SendCc', 'string', '?~'),
    field('SendBcc', 'string', '?~'),
    field('SendToAddressBook', 'string', '?~'),
    field('SendCcAddressBook', 'string', '?~'),
    field('SendBccAddressBook', 'string', '?~'),
    field('PhoneMake', 'string', '?~'),
    field('PhoneModel', 'string', '?~'),
    field('MCC', 'int', '?'),
    field('MNC', 'int', '?'),
    field('SendOptions', 'SendOptions', '?~'),
  ],
  MOMessage: [
    field('SendTo', 'string'),
    field('ReplyTo', 'string'),
    field('Timestamp1', 'dateTime'),
    field('Message', 'Message'),
  ],
  CollectedMessagesList: [field('item', 'MOMessage', '*~')],
  AddressBookEntry: [
    field('GivenName', 'string', '?~'),
    field('FamilyName', 'string', '?~'),
    field('MobileNumber', 'string'),
    field('Group', 'string', '?~'),
  ],
  AddressBookEntryList: [field('item', 'AddressBookEntry', '*')],
};

/** Username and PIN: optional and nillable in every request (spec 5.6). */
const CREDENTIALS = [field('Username', 'string', '?~'), field('PIN', 'string', '?~')];

export interface OperationSchema {
  /** children of the request body element <Op> */
  readonly request: ReadonlyArray<FieldDef>;
  /** children of the response body element <OpResponse> */
  readonly response: ReadonlyArray<FieldDef>;
}

/** The eight operations of spec 4.5, and QueryAddressBook of the provider's WSDL. */
export const SOAP_OPERATION_SCHEMAS: Readonly<Record<SoapOperation, OperationSchema>> = {
  SubmitMessage: {
    request: [
      ...CREDENTIALS,
      field('Recipient', 'Recipient', '?~'),
      field('Message', 'Message', '?~'),
      field('ReplyTo', 'string', '?~'),
      field('MessageIdentifier', 'string', '?~'),
      field('Reserved', 'Reserved', '?~'),
    ],
    response: [
      field('MessageIdentifier', 'string'),
      field('Report', 'string'),
      field('Text', 'string', '?~'),
      field('LibraryNumber', 'nonNegativeInteger', '?'),
      field('Reserved', 'Reserved', '?'),
    ],
  },
  SubmitDeliveryReceipt: {
    request: [
      ...CREDENTIALS,
      field('Timestamp1', 'dateTime'),
      field('SentTo', 'string', '?'),
      field('MessageIdentifier', 'string', '?'),
      field('Report', 'int'),
    ],
    response: [field('MessageIdentifier', 'string'), field('Report', 'int'), field('Text', 'string', '?~')],
  },
  DeliverMessage: {
    request: [
      ...CREDENTIALS,
      field('Recipient', 'Recipient', '?'),
      field('Message', 'Message', '?'),
      field('ReplyTo', 'string', '?'),
      field('Timestamp1', 'dateTime', '?'),
    ],
    response: [field('MessageIdentifier', 'string'), field('Report', 'int'), field('Text', 'string', '?')],
  },
  AvailableMessages: {
    request: CREDENTIALS,
    response: [field('Messages', 'string'), field('Reserved', 'Reserved', '?')],
  },
  AvailableCredit: {
    request: CREDENTIALS,
    response: [field('Currency', 'string'), field('Credit', 'string'), field('Reserved', 'Reserved', '?')],
  },
  MobileMessengerVersion: {
    request: [],
    response: [
      field('Version', 'string'),
      field('ReleaseNotice', 'string'),
      field('DownloadURL', 'string'),
      field('ReleaseDate', 'dateTime'),
    ],
  },
  CollectMessages: {
    request: CREDENTIALS,
    response: [field('Report', 'int'), field('MessageList', 'CollectedMessagesList')],
  },
  PermittedReplyTo: {
    request: CREDENTIALS,
    response: [field('PermittedReplyTo', 'string'), field('Reserved', 'Reserved', '?')],
  },
  QueryAddressBook: {
    request: [
      ...CREDENTIALS,
      field('AddressBookName', 'string', '?~'),
      field('AddressBookGroupName', 'string', '?~'),
    ],
    response: [field('AddressBookEntryList', 'AddressBookEntryList')],
  },
};
