import { describe, expect, it } from 'vitest';
import { CONTENT_KINDS } from '../../../protocol/content.ts';
import {
  FIELDS,
  OPERATIONS,
  PHONE_MAKE_REQUIRED,
  fieldSpec,
  requiredPhoneMake,
} from '../../../protocol/fields.ts';
import { validateRequest } from '../../../protocol/validate.ts';
import {
  LIBRARY_RANGES,
  LIMITS,
  PHONE_MAKES,
  SI_ACTIONS,
  inLibraryRange,
  parseLibraryNumber,
} from '../../../protocol/limits.ts';

// Field names as the spec lists them (2.2, 2.3, 2.4, 4.3, 4.4).
const SPEC_FIELDS = {
  sendsms: [
    'Username',
    'PIN',
    'SendTo',
    'SendToAddressBook',
    'ReplyTo',
    'Message',
    'FlashMessage',
    'SendTimeDelay',
    'SendTimeAbsolute',
    'ResponseFormat',
    'DeliveryServiceOption',
  ],
  'sendsms-deprecated': ['UN', 'PIN', 'M', 'N'],
  sendmms: [
    'Username',
    'PIN',
    'ReplyTo',
    'SendTo',
    'SendToAddressBook',
    'SendCc',
    'SendBcc',
    'SendCcAddressBook',
    'SendBccAddressBook',
    'SendTimeDelay',
    'SendTimeAbsolute',
    'ResponseFormat',
    'PhoneMake',
    'PhoneModel',
    'Message',
    'ContentType',
    'DisableRepurposing',
    'DisableWalledGardenRule',
    'AddSMIL',
    'PictureMessage',
    'GroupGraphic',
    'OperatorLogo',
    'MCC',
    'MNC',
    'Ringtone',
    'vCard',
    'vCal',
    'MMSFileMMS',
    'MMSNotificationFileName1',
    'MMSNotificationFileData1',
    'MMSFileWAP',
    'WAPPushFileName1',
    'WAPPushFileData1',
    'si-href',
    'si-id',
    'si-created',
    'si-expires',
    'si-action',
    'si-content',
    'si-info-pcdata',
    'si-info-class',
    'SmsSubmitPduDataCodingScheme',
    'SmsSubmitPduProtocolIdentifier',
    'SmsSubmitPduUserDataHeader',
    'SmsSubmitPduUserData',
  ],
  queryaccount: ['Username', 'PIN', 'AvailableCredit', 'AvailableMessages', 'PermittedReplyTo'],
  manageaccount: [
    'Username',
    'PIN',
    'CreateChildAccountType',
    'CreateChildAccountEmail',
    'CreateChildAccountTelephoneCountryCode',
    'CreateChildAccountMobileNumber',
    'CreateChildAccountGivenName',
    'CreateChildAccountFamilyName',
    'CreateChildAccountCompanyName',
    'DeleteChildAccountUsername',
    'TransferToAccountUsername',
    'TransferCurrencyAmount',
    'TransferMessagesAmount',
  ],
} as const;

describe('field catalogue', () => {
  it('has exactly the fields of the spec for every operation', () => {
    expect([...OPERATIONS].sort()).toEqual(Object.keys(SPEC_FIELDS).sort());
    for (const op of OPERATIONS) {
      expect(FIELDS[op].map((f) => f.name).sort(), op).toEqual([...SPEC_FIELDS[op]].sort());
    }
  });

  it('names each field once per operation, with a spec section and description', () => {
    for (const op of OPERATIONS) {
      const names = FIELDS[op].map((f) => f.name);
      expect(new Set(names).size, op).toBe(names.length);
      for (const f of FIELDS[op]) {
        expect(f.section, `${op} ${f.name}`).toMatch(/^[24]\.\d$/);
        expect(f.description.length, `${op} ${f.name}`).toBeGreaterThan(3);
      }
    }
  });

  it('carries the limits of spec 8', () => {
    expect(fieldSpec('sendsms', 'Username')?.maxLength).toBe(20);
    expect(fieldSpec('sendsms', 'PIN')?.maxLength).toBe(20);
    expect(fieldSpec('sendsms', 'SendTimeDelay')).toMatchObject({ min: 1, max: 10080 });
    expect(fieldSpec('sendmms', 'MMSNotificationFileName1')).toMatchObject({
      maxLength: 50,
      extensions: ['.mms', '.zip'],
    });
    expect(fieldSpec('sendmms', 'WAPPushFileName1')?.maxLength).toBe(LIMITS.fileNameMax);
    expect(fieldSpec('sendmms', 'Message')?.maxLength).toBe(50);
    expect(fieldSpec('sendmms', 'PictureMessage')?.library).toBe('pictureMessage');
    expect(LIBRARY_RANGES.pictureMessage).toEqual([20000, 29999]);
    expect(LIBRARY_RANGES.groupGraphic).toEqual([10000, 19999]);
    expect(LIBRARY_RANGES.mmsFile).toEqual([80000, 89999]);
  });

  it('marks the either groups of the spec', () => {
    expect(fieldSpec('sendsms', 'Message')).toMatchObject({ required: 'either', group: 'text' });
    expect(fieldSpec('sendsms', 'FlashMessage')).toMatchObject({ required: 'either', group: 'text' });
    expect(fieldSpec('sendmms', 'MMSFileMMS')).toMatchObject({ required: 'either', group: 'mmsFile' });
    expect(fieldSpec('sendmms', 'MMSNotificationFileName1')).toMatchObject({
      required: 'either',
      group: 'mmsFile',
    });
    expect(fieldSpec('sendmms', 'SmsSubmitPduUserData')).toMatchObject({ required: 'either' });
    expect(fieldSpec('manageaccount', 'TransferCurrencyAmount')).toMatchObject({ group: 'amount' });
    expect(fieldSpec('manageaccount', 'TransferMessagesAmount')).toMatchObject({ group: 'amount' });
  });

  it('uses the enumerations of limits.ts', () => {
    expect(fieldSpec('sendmms', 'PhoneMake')?.values).toEqual(PHONE_MAKES);
    expect(fieldSpec('sendmms', 'si-action')?.values).toEqual(SI_ACTIONS);
    expect(SI_ACTIONS).toContain('delete');
    expect(SI_ACTIONS).toContain('signal-delete');
    expect(fieldSpec('sendsms', 'DeliveryServiceOption')?.values).toEqual([
      'Default',
      'Premier',
      'LeastCost',
      'Economy',
    ]);
    expect(fieldSpec('manageaccount', 'CreateChildAccountType')?.values).toEqual(['TRANSFER', 'SHARED']);
  });

  it('returns undefined for a tag the operation does not define', () => {
    expect(fieldSpec('sendsms', 'Ringtone')).toBeUndefined();
  });
});

describe('library numbers (spec 8)', () => {
  it('reads a typed number of exactly 5 digits, and checks it against the range of its kind', () => {
    expect(parseLibraryNumber('80000')).toBe(80000);
    expect(parseLibraryNumber(' 10001 ')).toBe(10001);
    for (const bad of ['', '8000', '800000', '8e004', '8000.', '-8000', '80 00', '８００００'])
      expect(parseLibraryNumber(bad)).toBeNull();
    expect(inLibraryRange('wapFile', 80000)).toBe(true);
    expect(inLibraryRange('wapFile', 79999)).toBe(false);
    expect(inLibraryRange('pictureMessage', 29999)).toBe(true);
    expect(inLibraryRange('groupGraphic', 20000)).toBe(false);
    // validateRequest's range check is inLibraryRange: in range → no problem; out → libraryRange
    const base = { Username: 'u', PIN: 'p', SendTo: '447700900001' };
    expect(validateRequest('sendmms', { ...base, MMSFileWAP: '89999' })).toEqual([]);
    expect(validateRequest('sendmms', { ...base, MMSFileWAP: '90000' }).map((p) => p.rule)).toEqual([
      'libraryRange',
    ]);
  });
});

describe('requiredPhoneMake', () => {
  it('fixes Nokia for group graphics only (spec 2.4), for protocol and app kind names alike', () => {
    expect(requiredPhoneMake('groupGraphic')).toEqual({ make: 'Nokia', what: 'Group graphics' });
    for (const kind of ['ringtone', 'operatorLogo', 'pictureMessage', 'vcard', 'mms', 'text', 'flash'])
      expect(requiredPhoneMake(kind)).toBeUndefined();
    // inherited names of a plain object are no content kinds
    expect(requiredPhoneMake('toString')).toBeUndefined();
    expect(requiredPhoneMake('constructor')).toBeUndefined();
  });

  it('is what validateRequest enforces: a kind with a fixed make needs PhoneMake and refuses another one', () => {
    // the content field of each kind with a fixed make (a new one must be added here)
    const content: Partial<Record<string, Record<string, string>>> = {
      groupGraphic: { GroupGraphic: '10000' },
    };
    const fixedKinds = CONTENT_KINDS.filter((k) => requiredPhoneMake(k) !== undefined);
    expect(fixedKinds).toEqual(['groupGraphic']);
    for (const kind of fixedKinds) {
      const fixed = requiredPhoneMake(kind)!;
      const base = { Username: 'u', PIN: 'p', SendTo: '447700900001', ...content[kind] };
      expect(PHONE_MAKE_REQUIRED).toContain(kind);
      expect(PHONE_MAKES).toContain(fixed.make);
      expect(validateRequest('sendmms', { ...base, PhoneMake: fixed.make })).toEqual([]);
      const other = PHONE_MAKES.find((m) => m !== fixed.make)!;
      expect(validateRequest('sendmms', { ...base, PhoneMake: other })).toEqual([
        expect.objectContaining({
          field: 'PhoneMake',
          message: `${fixed.what} need PhoneMake=${fixed.make} (got "${other}")`,
        }),
      ]);
    }
  });
});

describe('protocol/index.ts', () => {
  it('is one import point for every protocol module', async () => {
    const protocol = await import('../../../protocol/index.ts');
    for (const name of [
      'LIMITS',
      'encodeForm',
      'decodeForm',
      'REPORT_CODES',
      'describeReport',
      'parseAnyResponse',
      'FIELDS',
      'validateRequest',
      'normalizeMsisdn',
      'analyzeText',
      'buildWsdl',
      'buildSubmitPdus',
    ]) {
      expect(protocol, name).toHaveProperty(name);
    }
  });
});
