// One content per kind that can be sent and one that cannot, with the form fields and the
// [field, rule] problems protocol/validate.ts finds (content.test.ts, send-content.test.ts).
import type { Content, ContentKind } from '../../../protocol/content.ts';

export const ACCOUNT = { Username: 'u', PIN: 'p', SendTo: '447700900001' };
export const VCARD = 'BEGIN:VCARD\r\nVERSION:2.1\r\nN:Berg;Jan\r\nEND:VCARD';
export const VCAL =
  'BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VEVENT\r\nSUMMARY:Hi\r\nEND:VEVENT\r\nEND:VCALENDAR';

/** Per kind: a content that can be sent, its form fields, and one that cannot with its [field, rule]s. */
export const CASES: Record<
  ContentKind,
  { ok: Content; fields: Record<string, string>; bad: Content; problems: Array<[string, string]> }
> = {
  text: {
    ok: { kind: 'text', text: 'Hello', replyTo: 'Acme', deliveryOption: 'Premier', sendTimeDelay: 60 },
    fields: { Message: 'Hello', ReplyTo: 'Acme', DeliveryServiceOption: 'Premier', SendTimeDelay: '60' },
    bad: { kind: 'text', text: 'Hello', sendTimeDelay: 0, sendTimeAbsolute: '2026-02-30T10:00:00' },
    problems: [
      ['SendTimeDelay', 'range'],
      ['SendTimeAbsolute', 'date'],
      ['SendTimeAbsolute', 'conflict'], // both given: refused, never one silently preferred
    ],
  },
  flash: {
    ok: { kind: 'flash', text: 'Now', sendTimeAbsolute: '2030-01-02T03:04:05' },
    fields: { FlashMessage: 'Now', SendTimeAbsolute: '2030-01-02T03:04:05' },
    bad: { kind: 'flash', text: '' },
    problems: [['Message', 'either']],
  },
  ringtone: {
    ok: { kind: 'ringtone', text: '', fields: { Ringtone: 'Tune:d=8,o=5,b=160:c,e,g', PhoneMake: 'Nokia' } },
    fields: { Ringtone: 'Tune:d=8,o=5,b=160:c,e,g', PhoneMake: 'Nokia' },
    bad: { kind: 'ringtone', text: '', fields: { Ringtone: 'Tune:c,e' } },
    problems: [
      ['Ringtone', 'pattern'],
      ['PhoneMake', 'required'],
    ],
  },
  operatorLogo: {
    ok: {
      kind: 'operatorLogo',
      text: '',
      fields: { PhoneMake: 'Nokia', OperatorLogo: '10001', MCC: '262', MNC: '1' },
    },
    fields: { PhoneMake: 'Nokia', OperatorLogo: '10001', MCC: '262', MNC: '1' },
    bad: {
      kind: 'operatorLogo',
      text: '',
      fields: { PhoneMake: 'Nokia', OperatorLogo: '10001', MCC: '1000' },
    },
    problems: [
      ['MCC', 'range'],
      ['MNC', 'required'],
    ],
  },
  pictureMessage: {
    ok: { kind: 'pictureMessage', text: 'Hi', fields: { PhoneMake: 'Nokia', PictureMessage: '20001' } },
    fields: { PhoneMake: 'Nokia', PictureMessage: '20001', Message: 'Hi' },
    bad: { kind: 'pictureMessage', text: '', fields: { PhoneMake: 'Nokia', PictureMessage: '10001' } },
    problems: [['PictureMessage', 'libraryRange']],
  },
  groupGraphic: {
    ok: { kind: 'groupGraphic', text: '', fields: { PhoneMake: 'Nokia', GroupGraphic: '10002' } },
    fields: { PhoneMake: 'Nokia', GroupGraphic: '10002' },
    bad: { kind: 'groupGraphic', text: '', fields: { PhoneMake: 'Ericsson', GroupGraphic: '10002' } },
    problems: [['PhoneMake', 'value']],
  },
  vcard: {
    ok: { kind: 'vcard', text: '', fields: { vCard: VCARD }, replyTo: 'Acme' },
    fields: { vCard: VCARD, ReplyTo: 'Acme' },
    bad: { kind: 'vcard', text: '', fields: { vCard: 'N:Berg' } },
    problems: [['vCard', 'pattern']],
  },
  vcalendar: {
    ok: { kind: 'vcalendar', text: '', fields: { vCal: VCAL }, sendTimeDelay: 5 },
    fields: { vCal: VCAL, SendTimeDelay: '5' },
    bad: { kind: 'vcalendar', text: '', fields: { vCal: '' } },
    problems: [['vCal', 'required']],
  },
  wapPush: {
    ok: {
      kind: 'wapPush',
      text: 'A square',
      fields: { WAPPushFileName1: 'a.png', WAPPushFileData1: '0102' },
    },
    fields: { WAPPushFileName1: 'a.png', WAPPushFileData1: '0102', Message: 'A square' },
    bad: { kind: 'wapPush', text: 'x'.repeat(51), fields: { MMSFileWAP: '90000' } },
    problems: [
      ['MMSFileWAP', 'libraryRange'],
      ['Message', 'maxLength'],
    ],
  },
  serviceIndication: {
    ok: {
      kind: 'serviceIndication',
      text: '',
      fields: { 'si-href': 'https://example.org/a', 'si-id': 'si-1', 'si-action': 'signal-high' },
    },
    fields: { 'si-href': 'https://example.org/a', 'si-id': 'si-1', 'si-action': 'signal-high' },
    bad: { kind: 'serviceIndication', text: '', fields: { 'si-href': 'example', 'si-info-pcdata': 'x' } },
    problems: [
      ['si-href', 'pattern'],
      ['si-info-class', 'requires'],
    ],
  },
  mms: {
    ok: { kind: 'mms', text: 'Subject', fields: { MMSFileMMS: '80001', AddSMIL: '1' } },
    fields: { MMSFileMMS: '80001', AddSMIL: '1', Message: 'Subject' },
    bad: { kind: 'mms', text: '', fields: { MMSNotificationFileName1: 'show.gif' } },
    problems: [
      ['MMSNotificationFileName1', 'extension'],
      ['MMSNotificationFileData1', 'required'],
    ],
  },
  pdu: {
    ok: {
      kind: 'pdu',
      text: 'Hi',
      fields: {
        SmsSubmitPduDataCodingScheme: '00',
        SmsSubmitPduProtocolIdentifier: '00',
        SmsSubmitPduUserDataHeader: '060504158A0000',
      },
    },
    fields: {
      SmsSubmitPduDataCodingScheme: '00',
      SmsSubmitPduProtocolIdentifier: '00',
      SmsSubmitPduUserDataHeader: '060504158A0000',
      Message: 'Hi',
    },
    bad: {
      kind: 'pdu',
      text: '',
      fields: {
        SmsSubmitPduDataCodingScheme: '0000',
        SmsSubmitPduProtocolIdentifier: '00',
        SmsSubmitPduUserDataHeader: '050504158A0000',
      },
    },
    problems: [
      ['SmsSubmitPduUserData', 'either'],
      ['SmsSubmitPduUserDataHeader', 'udhLength'],
      ['SmsSubmitPduDataCodingScheme', 'maxLength'],
    ],
  },
};
