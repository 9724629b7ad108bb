import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../../../protocol/smart/bytes.ts';
import { decodeMmsNotification, encodeMmsNotification } from '../../../../protocol/smart/mms-notification.ts';
import type { MmsNotification } from '../../../../protocol/smart/mms-notification.ts';
import { decodePdusToContent, encodeContentToPdus } from '../../../../protocol/smart/sms-submit.ts';
import { gammuAvailable, gammuDecode } from './gammu.ts';

const ascii = (s: string): string => bytesToHex(new TextEncoder().encode(s));

const NOTE: MmsNotification = {
  transactionId: 'T0001',
  version: '1.2',
  from: '+447700900999/TYPE=PLMN',
  subject: 'Holiday photos',
  messageClass: 'personal',
  messageSize: 34567,
  expirySeconds: 604800,
  contentLocation: 'http://mms.example.com/m/abc123',
};

describe('MMS m-notification-ind', () => {
  it('encodes the header fields in the OMA order with their binary codes', () => {
    const hex = bytesToHex(encodeMmsNotification(NOTE));
    expect(hex).toBe(
      '8C82' +
        '98' +
        ascii('T0001') +
        '00' +
        '8D92' +
        '89' +
        '19' +
        '80' +
        ascii('+447700900999/TYPE=PLMN') +
        '00' +
        '96' +
        ascii('Holiday photos') +
        '00' +
        '8A80' +
        '8E' +
        '028707' +
        '88' +
        '05' +
        '81' +
        '03093A80' +
        '83' +
        ascii('http://mms.example.com/m/abc123') +
        '00',
    );
  });

  it('round-trips, with a UTF-8 subject, an anonymous sender and an absolute expiry', () => {
    expect(decodeMmsNotification(encodeMmsNotification(NOTE))).toEqual(NOTE);
    const other: MmsNotification = {
      transactionId: 'x',
      version: '1.0',
      subject: 'Фото ☀',
      messageClass: 'advertisement',
      messageSize: 0,
      expiresAt: 1_800_000_000,
      contentLocation: 'https://mms.example.net/1',
    };
    expect(decodeMmsNotification(encodeMmsNotification(other))).toEqual(other);
  });

  it('refuses other PDUs and incomplete notifications', () => {
    expect(() => decodeMmsNotification(Uint8Array.of(0x8c, 0x80))).toThrow(/m-notification-ind/);
    expect(() => decodeMmsNotification(Uint8Array.of(0x8c, 0x82, 0x98, 0x41, 0))).toThrow(/lacks/);
  });

  it('travels as WAP push to port 2948 and decodes back on the virtual phone', () => {
    const pdus = encodeContentToPdus({ kind: 'mmsNotification', notification: NOTE }, '447700900123');
    expect(bytesToHex(pdus[0]!.udh)).toBe('0605040B8423F0');
    expect(decodePdusToContent(pdus.map((p) => p.pdu))).toEqual([
      {
        to: '447700900123',
        parts: 1,
        complete: true,
        content: { kind: 'mmsNotification', notification: NOTE },
      },
    ]);
  });

  it.skipIf(!gammuAvailable)('python-gammu reads location, subject, sender, size and class', () => {
    const long = { ...NOTE, contentLocation: 'http://mms.example.com/get?id=' + 'z'.repeat(120) };
    const pdus = encodeContentToPdus({ kind: 'mmsNotification', notification: long }, '447700900123', {
      concatRef: 5,
    });
    expect(pdus.length).toBe(2);
    const g = gammuDecode(pdus.map((p) => bytesToHex(p.pdu)));
    expect(g.messages[0].UDH.Type).toBe('MMSIndicatorLong');
    expect(g.decoded[0].Entries[0].MMSIndicator).toEqual({
      Address: long.contentLocation,
      Title: 'Holiday photos',
      Sender: '+447700900999/TYPE=PLMN',
      MessageSize: 34567,
      Class: 'Personal',
    });
  });
});
