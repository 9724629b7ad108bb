// Smart messaging and SMS PDU codecs: each encoder has a decoder; all pure Uint8Array code.
export * from './bytes.ts';
export * from './ota-bitmap.ts';
export * from './rtttl.ts';
export * from './nokia-ringtone.ts';
export * from './operator-logo.ts';
export * from './group-graphic.ts';
export * from './picture-message.ts';
export * from './vcard.ts';
export * from './vcalendar.ts';
export * from './wbxml-si.ts';
export * from './wsp-push.ts';
export * from './mms-notification.ts';
export {
  DCS,
  IEI,
  SMART_PORTS,
  buildPortUdh,
  buildSubmitPdus,
  buildUdh,
  decodePdusToContent,
  decodeSubmitPdu,
  describeDcs,
  encodeContentToPdus,
  parseUdh,
  withEmptySmsc,
} from './sms-submit.ts';
export type {
  Alphabet,
  DecodedContent,
  DecodedSubmitPdu,
  EncodeOptions,
  InformationElement,
  ParsedUdh,
  ReceivedMessage,
  SmartContent,
  SmartContentKind,
  SubmitMessage,
  SubmitPduPart,
} from './sms-submit.ts';
export * from './pdu-explain.ts';
