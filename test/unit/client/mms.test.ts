// sendmms form fields of every content type (spec 2.4): names, hex encoding of files and bitmaps,
// library numbers as decimal, RTTTL kept as text (protocol/form.ts percent-encodes it on the wire).
import { describe, expect, it } from 'vitest';
import { contentFields, optionFields, addressBookFields } from '../../../main/client/mms.ts';

describe('contentFields', () => {
  it('library number or hex OTA bitmap for picture message, group graphic and operator logo', () => {
    expect(contentFields({ type: 'pictureMessage', picture: 20001 })).toEqual({ PictureMessage: '20001' });
    expect(
      contentFields({ type: 'pictureMessage', picture: new Uint8Array([0x00, 0x48, 0x1c, 0x01, 0xff]) }),
    ).toEqual({
      PictureMessage: '00481C01FF',
    });
    expect(contentFields({ type: 'groupGraphic', graphic: 10002 })).toEqual({ GroupGraphic: '10002' });
    expect(contentFields({ type: 'operatorLogo', logo: new Uint8Array([0xab]), mcc: 234, mnc: 5 })).toEqual({
      OperatorLogo: 'AB',
      MCC: '234',
      MNC: '5',
    });
  });

  it('ringtone as RTTTL text, library number or hex bytes', () => {
    const rtttl = 'Beep:d=4,o=5,b=120:c,e,g';
    expect(contentFields({ type: 'ringtone', ringtone: rtttl })).toEqual({ Ringtone: rtttl });
    expect(contentFields({ type: 'ringtone', ringtone: 30001 })).toEqual({ Ringtone: '30001' });
    expect(contentFields({ type: 'ringtone', ringtone: new Uint8Array([0x02, 0x4a]) })).toEqual({
      Ringtone: '024A',
    });
  });

  it('vCard and vCal as text', () => {
    const vcard = 'BEGIN:VCARD\r\nVERSION:2.1\r\nN:Smith;Jo\r\nEND:VCARD\r\n';
    expect(contentFields({ type: 'vCard', vcard })).toEqual({ vCard: vcard });
    expect(contentFields({ type: 'vCal', vcal: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR' })).toEqual({
      vCal: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR',
    });
  });

  it('MMS notification and WAP push: library number, or file name plus hex data', () => {
    expect(contentFields({ type: 'mmsNotification', libraryNumber: 80001 })).toEqual({ MMSFileMMS: '80001' });
    expect(
      contentFields({
        type: 'mmsNotification',
        file: { name: 'hello.zip', data: new Uint8Array([0x50, 0x4b]) },
      }),
    ).toEqual({ MMSNotificationFileName1: 'hello.zip', MMSNotificationFileData1: '504B' });
    expect(contentFields({ type: 'wapPush', libraryNumber: 80002 })).toEqual({ MMSFileWAP: '80002' });
    expect(contentFields({ type: 'wapPush', file: { name: 'a.gif', data: new Uint8Array([0x47]) } })).toEqual(
      {
        WAPPushFileName1: 'a.gif',
        WAPPushFileData1: '47',
      },
    );
  });

  it('service indication with every si- field and one info pair', () => {
    expect(
      contentFields({
        type: 'serviceIndication',
        href: 'https://example.com/app.jad',
        id: 'sale-1',
        created: '2026-11-22T08:00:00',
        expires: '2026-11-29T08:00:00',
        action: 'signal-high',
        content: 'New game',
        info: { pcdata: 'Level 2', class: 'game' },
      }),
    ).toEqual({
      'si-href': 'https://example.com/app.jad',
      'si-id': 'sale-1',
      'si-created': '2026-11-22T08:00:00',
      'si-expires': '2026-11-29T08:00:00',
      'si-action': 'signal-high',
      'si-content': 'New game',
      'si-info-pcdata': 'Level 2',
      'si-info-class': 'game',
    });
  });

  it('raw PDU parts as hex, with user data or a text', () => {
    expect(
      contentFields({
        type: 'pdu',
        dataCodingScheme: 0xf5,
        protocolIdentifier: 0,
        userDataHeader: new Uint8Array([0x06, 0x05, 0x04, 0x15, 0x81, 0x15, 0x81]),
        userData: new Uint8Array([0x01, 0x02]),
      }),
    ).toEqual({
      SmsSubmitPduDataCodingScheme: 'F5',
      SmsSubmitPduProtocolIdentifier: '00',
      SmsSubmitPduUserDataHeader: '06050415811581',
      SmsSubmitPduUserData: '0102',
    });
    expect(
      contentFields({
        type: 'pdu',
        dataCodingScheme: '00',
        protocolIdentifier: '00',
        userDataHeader: '00',
        text: 'hi',
      }),
    ).toMatchObject({ Message: 'hi' });
  });
});

describe('optionFields', () => {
  it('maps the general sendmms options to their fields', () => {
    expect(
      optionFields({
        phoneMake: 'Nokia',
        phoneModel: '3310',
        message: 'Subject',
        contentType: 'image/png',
        disableRepurposing: true,
        disableWalledGardenRule: false,
        addSmil: '2',
        sendCcAddressBook: 'Friends::Team',
      }),
    ).toEqual({
      PhoneMake: 'Nokia',
      PhoneModel: '3310',
      Message: 'Subject',
      ContentType: 'image/png',
      DisableRepurposing: '1',
      DisableWalledGardenRule: '0',
      AddSMIL: '2',
    });
    expect(optionFields({})).toEqual({});
    // the Cc/Bcc books are not general options: they go with one request of a send only
    expect(addressBookFields({ sendCcAddressBook: 'Friends::Team', sendBccAddressBook: 'Board' })).toEqual({
      SendCcAddressBook: 'Friends::Team',
      SendBccAddressBook: 'Board',
    });
  });
});
