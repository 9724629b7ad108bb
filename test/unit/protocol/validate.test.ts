import { describe, expect, it } from 'vitest';
import { decodeForm, encodeForm } from '../../../protocol/form.ts';
import { msisdnProblem, splitNumberList, validateRequest } from '../../../protocol/validate.ts';
import type { Operation } from '../../../protocol/fields.ts';

const AUTH = { Username: 'user.01', PIN: 'Pin123' };
const TO = { SendTo: '447700900123' };

/** [field, rule] of every problem. */
function rules(op: Operation, fields: Record<string, string>): Array<[string, string]> {
  return validateRequest(op, fields).map((p) => [p.field, p.rule]);
}

function numbers(n: number): string {
  return Array.from({ length: n }, (_, i) => String(447700900000 + i)).join(',');
}

const HEX_BITMAP = '00480E01' + 'FF'.repeat(20);

describe('splitNumberList / msisdnProblem', () => {
  it('splits on commas, trims, drops empty items', () => {
    expect(splitNumberList('447700900123, 447700900124,,447700900125,')).toEqual([
      '447700900123',
      '447700900124',
      '447700900125',
    ]);
    expect(splitNumberList('')).toEqual([]);
  });

  it('wants international digits without a plus', () => {
    expect(msisdnProblem('447700900123')).toBeUndefined();
    expect(msisdnProblem('+447700900123')).toMatch(/plus/);
    expect(msisdnProblem('00447700900123')).toMatch(/00/);
    expect(msisdnProblem('07700900123')).toMatch(/country code/);
    expect(msisdnProblem('4477-009')).toMatch(/digits/);
    expect(msisdnProblem('1234567890123456')).toMatch(/15/);
  });
});

describe('sendsms', () => {
  it('accepts a minimal valid request and a full one', () => {
    expect(validateRequest('sendsms', { ...AUTH, ...TO, Message: 'Hello' })).toEqual([]);
    expect(
      validateRequest('sendsms', {
        ...AUTH,
        SendTo: '447700900123,447700900124',
        ReplyTo: 'MyShop',
        FlashMessage: 'Grüße €',
        SendTimeAbsolute: '2028-02-29T23:59:59',
        ResponseFormat: '3',
        DeliveryServiceOption: 'LeastCost',
      }),
    ).toEqual([]);
  });

  it('returns several problems at once with field, rule and value', () => {
    const problems = validateRequest('sendsms', {
      Username: 'bad user!',
      SendTo: '+447700900123,447700900124,07700900999',
      SendTimeDelay: '0',
      SendTimeAbsolute: '2025-02-30T10:00:00',
      ResponseFormat: '2',
      DeliveryServiceOption: 'Fast',
    });
    expect(problems.map((p) => [p.field, p.rule, p.value])).toEqual(
      expect.arrayContaining([
        ['PIN', 'required', undefined],
        ['Username', 'pattern', 'bad user!'],
        ['SendTo', 'msisdn', '+447700900123'],
        ['SendTo', 'msisdn', '07700900999'],
        ['SendTimeDelay', 'range', '0'],
        ['SendTimeAbsolute', 'date', '2025-02-30T10:00:00'],
        ['ResponseFormat', 'enum', '2'],
        ['DeliveryServiceOption', 'enum', 'Fast'],
        ['Message', 'either', undefined],
        ['SendTimeAbsolute', 'conflict', '2025-02-30T10:00:00'],
      ]),
    );
    expect(problems).toHaveLength(10);
    for (const p of problems) expect(p.message).toContain(p.field);
  });

  it('needs SendTo or SendToAddressBook, which may be name or name::group', () => {
    expect(rules('sendsms', { ...AUTH, Message: 'x' })).toEqual([['SendTo', 'either']]);
    expect(rules('sendsms', { ...AUTH, Message: 'x', SendToAddressBook: 'Friends' })).toEqual([]);
    expect(rules('sendsms', { ...AUTH, Message: 'x', SendToAddressBook: 'Friends::Football' })).toEqual([]);
    expect(rules('sendsms', { ...AUTH, Message: 'x', SendToAddressBook: 'Friends:Football' })).toEqual([
      ['SendToAddressBook', 'pattern'],
    ]);
  });

  it('treats an empty Message as missing', () => {
    expect(rules('sendsms', { ...AUTH, ...TO, Message: '' })).toEqual([['Message', 'either']]);
  });

  it('allows 350 recipients and refuses 351', () => {
    expect(rules('sendsms', { ...AUTH, SendTo: numbers(350), Message: 'x' })).toEqual([]);
    const p = validateRequest('sendsms', { ...AUTH, SendTo: numbers(351), Message: 'x' });
    expect(p).toEqual([expect.objectContaining({ field: 'SendTo', rule: 'maxRecipients', value: '351' })]);
  });

  it('SendTimeDelay 1..10080 whole minutes; SendTimeAbsolute format and real date', () => {
    const base = { ...AUTH, ...TO, Message: 'x' };
    expect(rules('sendsms', { ...base, SendTimeDelay: '1' })).toEqual([]);
    expect(rules('sendsms', { ...base, SendTimeDelay: '10080' })).toEqual([]);
    expect(rules('sendsms', { ...base, SendTimeDelay: '10081' })).toEqual([['SendTimeDelay', 'range']]);
    expect(rules('sendsms', { ...base, SendTimeDelay: '1.5' })).toEqual([['SendTimeDelay', 'integer']]);
    expect(rules('sendsms', { ...base, SendTimeDelay: '-5' })).toEqual([['SendTimeDelay', 'integer']]);
    expect(rules('sendsms', { ...base, SendTimeAbsolute: '2026-11-22 10:00:00' })).toEqual([
      ['SendTimeAbsolute', 'pattern'],
    ]);
    expect(rules('sendsms', { ...base, SendTimeAbsolute: '2026-11-22T10:00:00Z' })).toEqual([
      ['SendTimeAbsolute', 'pattern'],
    ]);
    expect(rules('sendsms', { ...base, SendTimeAbsolute: '2027-02-29T10:00:00' })).toEqual([
      ['SendTimeAbsolute', 'date'],
    ]);
    expect(rules('sendsms', { ...base, SendTimeAbsolute: '2026-11-22T24:00:00' })).toEqual([
      ['SendTimeAbsolute', 'date'],
    ]);
  });

  it('Username may have a dot, PIN may not; both at most 20 characters', () => {
    const base = { ...TO, Message: 'x' };
    expect(rules('sendsms', { ...base, Username: 'a'.repeat(20), PIN: 'b'.repeat(20) })).toEqual([]);
    expect(rules('sendsms', { ...base, Username: 'a'.repeat(21), PIN: 'p.1' })).toEqual([
      ['Username', 'maxLength'],
      ['PIN', 'pattern'],
    ]);
  });

  it('reads a decoded form too, and flags a repeated known tag', () => {
    const form = decodeForm(
      encodeForm([...Object.entries({ ...AUTH, ...TO }), ['Message', 'a'], ['Message', 'b']]),
    );
    expect(validateRequest('sendsms', form).map((p) => [p.field, p.rule, p.value])).toEqual([
      ['Message', 'duplicate', 'a,b'],
    ]);
  });

  it('does not treat unknown tags as problems', () => {
    expect(validateRequest('sendsms', { ...AUTH, ...TO, Message: 'x', FutureTag: '1' })).toEqual([]);
  });
});

describe('sendsms-deprecated (UN, PIN, M, N)', () => {
  it('needs all four and checks the numbers', () => {
    expect(rules('sendsms-deprecated', { UN: 'u', PIN: 'p', M: 'hi', N: '447700900123' })).toEqual([]);
    expect(rules('sendsms-deprecated', { UN: 'u', N: '+447700900123' })).toEqual([
      ['PIN', 'required'],
      ['M', 'required'],
      ['N', 'msisdn'],
    ]);
    expect(rules('sendsms-deprecated', { UN: 'u', PIN: 'p', M: 'x', N: numbers(351) })).toEqual([
      ['N', 'maxRecipients'],
    ]);
  });
});

describe('sendmms', () => {
  const base = { ...AUTH, ...TO };

  it('needs exactly one kind of content', () => {
    expect(rules('sendmms', base)).toEqual([['content', 'oneOf']]);
    const p = validateRequest('sendmms', {
      ...base,
      vCard: 'BEGIN:VCARD\r\nEND:VCARD',
      vCal: 'BEGIN:VCALENDAR\nEND:VCALENDAR',
    });
    expect(p).toEqual([expect.objectContaining({ field: 'content', rule: 'oneOf', value: 'vCard,vCal' })]);
  });

  it('says a problem shared by two content kinds once', () => {
    expect(rules('sendmms', { ...base, PictureMessage: '20000', Ringtone: '12345' })).toEqual([
      ['content', 'oneOf'],
      ['PhoneMake', 'required'],
    ]);
  });

  it('needs a recipient; Cc/Bcc lists count towards the 350 limit', () => {
    expect(rules('sendmms', { ...AUTH, vCard: 'BEGIN:VCARD\nEND:VCARD' })).toEqual([['SendTo', 'either']]);
    expect(
      rules('sendmms', {
        ...AUTH,
        SendTo: numbers(200),
        SendCc: numbers(151),
        vCard: 'BEGIN:VCARD\nEND:VCARD',
      }),
    ).toEqual([['SendTo', 'maxRecipients']]);
    expect(rules('sendmms', { ...AUTH, SendBcc: '+44', vCard: 'BEGIN:VCARD\nEND:VCARD' })).toEqual([
      ['SendBcc', 'msisdn'],
    ]);
  });

  it('picture message: library range or hex bitmap, PhoneMake required', () => {
    expect(rules('sendmms', { ...base, PictureMessage: '20000', PhoneMake: 'Nokia' })).toEqual([]);
    expect(rules('sendmms', { ...base, PictureMessage: HEX_BITMAP, PhoneMake: 'Siemens' })).toEqual([]);
    expect(rules('sendmms', { ...base, PictureMessage: '19999' })).toEqual([
      ['PictureMessage', 'libraryRange'],
      ['PhoneMake', 'required'],
    ]);
    expect(rules('sendmms', { ...base, PictureMessage: 'ABC', PhoneMake: 'Nokia' })).toEqual([
      ['PictureMessage', 'hex'],
    ]);
  });

  it('group graphic requires PhoneMake=Nokia; PhoneMake is an enumeration', () => {
    expect(rules('sendmms', { ...base, GroupGraphic: '10000', PhoneMake: 'Nokia' })).toEqual([]);
    expect(rules('sendmms', { ...base, GroupGraphic: '10000', PhoneMake: 'Sagem' })).toEqual([
      ['PhoneMake', 'value'],
    ]);
    expect(rules('sendmms', { ...base, GroupGraphic: '10000', PhoneMake: 'nokia' })).toEqual([
      ['PhoneMake', 'enum'],
      ['PhoneMake', 'value'],
    ]);
  });

  it('operator logo needs MCC and MNC integers', () => {
    expect(
      rules('sendmms', { ...base, OperatorLogo: '15000', MCC: '234', MNC: '15', PhoneMake: 'Nokia' }),
    ).toEqual([]);
    expect(rules('sendmms', { ...base, OperatorLogo: '25000', MCC: '2x4', PhoneMake: 'Nokia' })).toEqual([
      ['OperatorLogo', 'libraryRange'],
      ['MCC', 'integer'],
      ['MNC', 'required'],
    ]);
  });

  it('ringtone: library number, hex or RTTTL; PhoneMake required', () => {
    const rtttl = 'Test:d=4,o=5,b=120:c,e,g';
    expect(rules('sendmms', { ...base, Ringtone: rtttl, PhoneMake: 'Motorola' })).toEqual([]);
    expect(rules('sendmms', { ...base, Ringtone: '12345', PhoneMake: 'Motorola' })).toEqual([]);
    expect(rules('sendmms', { ...base, Ringtone: '024A3A', PhoneMake: 'Nokia' })).toEqual([]);
    expect(rules('sendmms', { ...base, Ringtone: 'not hex' })).toEqual([
      ['Ringtone', 'hex'],
      ['PhoneMake', 'required'],
    ]);
  });

  it('vCard and vCal must hold their objects', () => {
    expect(rules('sendmms', { ...base, vCard: 'hello' })).toEqual([['vCard', 'pattern']]);
    expect(rules('sendmms', { ...base, vCal: 'BEGIN:VCARD\nEND:VCARD' })).toEqual([['vCal', 'pattern']]);
  });

  it('MMS notification: library number and/or file name (.mms/.zip, ≤ 50) with hex data', () => {
    expect(rules('sendmms', { ...base, MMSFileMMS: '80001' })).toEqual([]);
    expect(rules('sendmms', { ...base, MMSFileMMS: '79999' })).toEqual([['MMSFileMMS', 'libraryRange']]);
    expect(
      rules('sendmms', {
        ...base,
        MMSNotificationFileName1: 'party.zip',
        MMSNotificationFileData1: '504B0304',
      }),
    ).toEqual([]);
    expect(
      rules('sendmms', { ...base, MMSNotificationFileName1: 'photo.jpg', MMSNotificationFileData1: 'ABC' }),
    ).toEqual([
      ['MMSNotificationFileName1', 'extension'],
      ['MMSNotificationFileData1', 'hex'],
    ]);
    expect(rules('sendmms', { ...base, MMSNotificationFileName1: `${'a'.repeat(47)}.mms` })).toEqual([
      ['MMSNotificationFileName1', 'maxLength'],
      ['MMSNotificationFileData1', 'required'],
    ]);
    expect(
      rules('sendmms', {
        ...base,
        MMSFileMMS: '80001',
        MMSNotificationFileName1: 'a.mms',
        MMSNotificationFileData1: '00',
      }),
    ).toEqual([]);
    expect(rules('sendmms', { ...base, MMSNotificationFileData1: '00' })).toEqual([
      ['MMSFileMMS', 'either'],
      ['MMSNotificationFileData1', 'requires'],
    ]);
  });

  it('Message on MMS or WAP push is at most 50 characters', () => {
    expect(rules('sendmms', { ...base, MMSFileMMS: '80001', Message: 'x'.repeat(50) })).toEqual([]);
    expect(validateRequest('sendmms', { ...base, MMSFileMMS: '80001', Message: 'é'.repeat(51) })).toEqual([
      expect.objectContaining({ field: 'Message', rule: 'maxLength', value: 'é'.repeat(51) }),
    ]);
  });

  it('WAP push file: library number or file name with an extension and hex data', () => {
    expect(rules('sendmms', { ...base, MMSFileWAP: '89999' })).toEqual([]);
    expect(rules('sendmms', { ...base, WAPPushFileName1: 'game.jar', WAPPushFileData1: 'CAFEBABE' })).toEqual(
      [],
    );
    expect(
      rules('sendmms', { ...base, WAPPushFileName1: 'noextension', WAPPushFileData1: 'CAFEBABE' }),
    ).toEqual([['WAPPushFileName1', 'extension']]);
  });

  it('service indication: si-href, dates, si-action (delete and signal-delete), one si-info pair', () => {
    const si = { ...base, 'si-href': 'https://example.com/a', 'si-id': 'a1', 'si-content': 'New!' };
    expect(rules('sendmms', { ...si, 'si-action': 'delete' })).toEqual([]);
    expect(rules('sendmms', { ...si, 'si-action': 'signal-delete' })).toEqual([]);
    expect(rules('sendmms', { ...si, 'si-action': 'signal-loud' })).toEqual([['si-action', 'enum']]);
    expect(
      rules('sendmms', {
        ...base,
        'si-content': 'x',
        'si-created': '2026-13-01T00:00:00',
        'si-expires': 'tomorrow',
      }),
    ).toEqual([
      ['si-created', 'date'],
      ['si-expires', 'pattern'],
      ['si-href', 'required'],
    ]);
    expect(rules('sendmms', { ...si, 'si-info-pcdata': 'x' })).toEqual([['si-info-class', 'requires']]);
    const twoPairs = decodeForm(
      encodeForm([
        ['Username', 'u'],
        ['PIN', 'p'],
        ['SendTo', '447700900123'],
        ['si-href', 'http://e.com/'],
        ['si-info-pcdata', 'a'],
        ['si-info-class', 'c'],
        ['si-info-pcdata', 'b'],
        ['si-info-class', 'd'],
      ]),
    );
    expect(validateRequest('sendmms', twoPairs).map((p) => [p.field, p.rule])).toEqual([
      ['si-info-pcdata', 'onePair'],
    ]);
  });

  it('SMS-SUBMIT PDU fields: hex, UDH length, user data or Message', () => {
    const pdu = {
      ...base,
      SmsSubmitPduDataCodingScheme: 'F5',
      SmsSubmitPduProtocolIdentifier: '00',
      SmsSubmitPduUserDataHeader: '060504158A0000',
    };
    expect(rules('sendmms', { ...pdu, SmsSubmitPduUserData: '0102' })).toEqual([]);
    expect(rules('sendmms', { ...pdu, Message: 'x'.repeat(100) })).toEqual([]);
    expect(rules('sendmms', pdu)).toEqual([['SmsSubmitPduUserData', 'either']]);
    expect(
      rules('sendmms', {
        ...pdu,
        SmsSubmitPduDataCodingScheme: 'F',
        SmsSubmitPduUserDataHeader: '070504158A0000',
        SmsSubmitPduUserData: 'zz',
      }),
    ).toEqual([
      ['SmsSubmitPduDataCodingScheme', 'hex'],
      ['SmsSubmitPduUserData', 'hex'],
      ['SmsSubmitPduUserDataHeader', 'udhLength'],
    ]);
  });

  it('checks the general flags and ContentType', () => {
    expect(
      rules('sendmms', {
        ...base,
        MMSFileMMS: '80001',
        DisableRepurposing: '2',
        DisableWalledGardenRule: '1',
        AddSMIL: '3',
        ContentType: 'image',
      }),
    ).toEqual([
      ['ContentType', 'pattern'],
      ['DisableRepurposing', 'enum'],
      ['AddSMIL', 'enum'],
    ]);
  });
});

describe('queryaccount', () => {
  it('exactly one empty operation tag', () => {
    expect(rules('queryaccount', { ...AUTH, AvailableCredit: '' })).toEqual([]);
    expect(validateRequest('queryaccount', decodeForm('Username=u&PIN=p&PermittedReplyTo'))).toEqual([]);
    expect(rules('queryaccount', AUTH)).toEqual([['AvailableCredit', 'oneOf']]);
    expect(rules('queryaccount', { ...AUTH, AvailableCredit: '', AvailableMessages: '' })).toEqual([
      ['AvailableMessages', 'oneOf'],
    ]);
    expect(rules('queryaccount', { ...AUTH, AvailableMessages: 'yes' })).toEqual([
      ['AvailableMessages', 'empty'],
    ]);
  });
});

describe('manageaccount', () => {
  const create = {
    ...AUTH,
    CreateChildAccountType: 'TRANSFER',
    CreateChildAccountEmail: 'child@example.com',
    CreateChildAccountTelephoneCountryCode: '44',
    CreateChildAccountMobileNumber: '447700900123',
  };

  it('create child: type enum, e-mail, country code without +, international mobile', () => {
    expect(rules('manageaccount', create)).toEqual([]);
    expect(rules('manageaccount', { ...create, CreateChildAccountGivenName: 'Ann' })).toEqual([]);
    expect(
      rules('manageaccount', {
        ...create,
        CreateChildAccountType: 'transfer',
        CreateChildAccountEmail: 'nope',
        CreateChildAccountTelephoneCountryCode: '+44',
        CreateChildAccountMobileNumber: '07700900123',
      }),
    ).toEqual([
      ['CreateChildAccountType', 'enum'],
      ['CreateChildAccountEmail', 'pattern'],
      ['CreateChildAccountTelephoneCountryCode', 'pattern'],
      ['CreateChildAccountMobileNumber', 'msisdn'],
    ]);
    expect(rules('manageaccount', { ...AUTH, CreateChildAccountType: 'SHARED' })).toEqual([
      ['CreateChildAccountEmail', 'required'],
      ['CreateChildAccountTelephoneCountryCode', 'required'],
      ['CreateChildAccountMobileNumber', 'required'],
    ]);
  });

  it('exactly one operation', () => {
    expect(rules('manageaccount', AUTH)).toEqual([['CreateChildAccountType', 'oneOf']]);
    expect(rules('manageaccount', { ...create, DeleteChildAccountUsername: 'child.1' })).toEqual([
      ['DeleteChildAccountUsername', 'oneOf'],
    ]);
    expect(rules('manageaccount', { ...AUTH, DeleteChildAccountUsername: 'child.1' })).toEqual([]);
  });

  it('transfer: exactly one of a decimal currency amount and an integer message count', () => {
    const t = { ...AUTH, TransferToAccountUsername: 'child.1' };
    expect(rules('manageaccount', { ...t, TransferCurrencyAmount: '10.50' })).toEqual([]);
    expect(rules('manageaccount', { ...t, TransferMessagesAmount: '100' })).toEqual([]);
    expect(rules('manageaccount', t)).toEqual([['TransferCurrencyAmount', 'oneOf']]);
    expect(
      rules('manageaccount', { ...t, TransferCurrencyAmount: '1', TransferMessagesAmount: '1' }),
    ).toEqual([['TransferMessagesAmount', 'oneOf']]);
    expect(rules('manageaccount', { ...t, TransferCurrencyAmount: '10,50' })).toEqual([
      ['TransferCurrencyAmount', 'decimal'],
    ]);
    expect(rules('manageaccount', { ...t, TransferMessagesAmount: '2.5' })).toEqual([
      ['TransferMessagesAmount', 'integer'],
    ]);
    expect(rules('manageaccount', { ...t, TransferMessagesAmount: '0' })).toEqual([
      ['TransferMessagesAmount', 'range'],
    ]);
  });

  it('a text longer than 255 concatenated parts is refused with the parts it needs', () => {
    const base = { ...AUTH, SendTo: '447700900123' };
    expect(rules('sendsms', { ...base, Message: 'a'.repeat(255 * 153) })).toEqual([]);
    expect(rules('sendsms', { ...base, FlashMessage: 'a'.repeat(255 * 153 + 1) })).toEqual([
      ['FlashMessage', 'maxParts'],
    ]);
    const [problem] = validateRequest('sendsms', { ...base, Message: 'Ж'.repeat(255 * 67 + 1) });
    expect(problem?.message).toContain('256 UCS-2 parts');
  });
});

// Issue 23: raw control characters (%00, %1E) were accepted in text fields and charged for.
describe('control characters', () => {
  const base = { Username: 'demo', PIN: 'abc123', SendTo: '447700900123' };
  const controls = (fields: Record<string, string>, op: Operation = 'sendsms') =>
    validateRequest(op, fields).filter((p) => p.rule === 'control');

  it('refuses C0, DEL and C1 controls in a text and names the field and the character', () => {
    for (const [ch, u] of [
      ['\u0000', 'U+0000'],
      ['\u001e', 'U+001E'],
      ['\u007f', 'U+007F'],
      ['\u0085', 'U+0085'],
    ] as const) {
      const p = controls({ ...base, Message: `ab${ch}c` });
      expect(p).toHaveLength(1);
      expect(p[0]!.field).toBe('Message');
      expect(p[0]!.message).toBe(`Message contains a control character (${u}) at character 3; remove it`);
    }
    expect(controls({ ...base, FlashMessage: '\u0001' })[0]?.field).toBe('FlashMessage');
    expect(
      controls({ UN: 'demo', PIN: 'abc123', N: '447700900123', M: 'x\u0000' }, 'sendsms-deprecated'),
    ).toHaveLength(1);
  });

  it('keeps line feed, carriage return, tab and form feed (GSM) in a text', () => {
    expect(controls({ ...base, Message: 'line one\r\nline two\tcol\fpage' })).toEqual([]);
    expect(validateRequest('sendsms', { ...base, Message: 'a\nb' })).toEqual([]);
  });

  it('refuses a line break in a one-line field', () => {
    expect(controls({ ...base, Message: 'x', ReplyTo: 'Shop\n' }).map((p) => p.field)).toEqual(['ReplyTo']);
  });
});
