// Operator logo, group graphic and picture message: round trips, known bytes, and python-gammu
// decoding the same SMS PDUs (network code, bitmap rows, picture text).
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../../../protocol/smart/bytes.ts';
import { decodeGroupGraphic, encodeGroupGraphic } from '../../../../protocol/smart/group-graphic.ts';
import {
  decodeNetworkCode,
  decodeOperatorLogo,
  encodeNetworkCode,
  encodeOperatorLogo,
  networkCodeProblems,
} from '../../../../protocol/smart/operator-logo.ts';
import { bitmapFromRows, bitmapToRows, encodeOtaBitmap } from '../../../../protocol/smart/ota-bitmap.ts';
import { decodePictureMessage, encodePictureMessage } from '../../../../protocol/smart/picture-message.ts';
import { decodePdusToContent, encodeContentToPdus } from '../../../../protocol/smart/sms-submit.ts';
import { gammuAvailable, gammuBitmapRows, gammuDecode, gammuEncodeBitmap } from './gammu.ts';

function pattern(height: number, seed: number): string[] {
  return Array.from({ length: height }, (_, y) =>
    Array.from({ length: 72 }, (_, x) => ((x * seed + y * 7) % 11 < 4 ? '#' : '.')).join(''),
  );
}
const TO = '447700900123';

describe('operator logo', () => {
  it('encodes MCC/MNC as swapped BCD: 262 01 → 62 F2 10; 234 15 → 32 F4 51', () => {
    expect(bytesToHex(encodeNetworkCode(262, 1))).toBe('62F210');
    expect(bytesToHex(encodeNetworkCode(234, 15))).toBe('32F451');
    expect(decodeNetworkCode(Uint8Array.of(0x32, 0xf4, 0x51))).toEqual({ mcc: 234, mnc: 15 });
    expect(() => encodeNetworkCode(1000, 1)).toThrow(/MCC/);
    expect(() => encodeNetworkCode(310, 150)).toThrow(/two digits/);
  });

  it('says why an MCC/MNC as typed cannot go in a logo: E.212 digits, then the two-digit MNC of the network code', () => {
    expect(networkCodeProblems('262', '01')).toEqual([]);
    expect(networkCodeProblems('234', '15')).toEqual([]);
    expect(networkCodeProblems('26', '2x')).toEqual([
      'MCC must be 3 digits (got “26”).',
      'MNC must be 2 or 3 digits (got “2x”).',
    ]);
    expect(networkCodeProblems('2620', '1')).toEqual([
      'MCC must be 3 digits (got “2620”).',
      'MNC must be 2 or 3 digits (got “1”).',
    ]);
    // a three-digit MNC is valid E.212 but does not fit the logo's one-octet network code
    expect(networkCodeProblems('310', '260')).toEqual([
      'MNC 260 has three digits; a Nokia operator logo carries a two-digit MNC only, so handsets on this network cannot show it.',
    ]);
    expect(networkCodeProblems('310', '099')).toHaveLength(1);
    // a missing value is the caller's to report; the other one is still checked
    expect(networkCodeProblems('', '')).toEqual([]);
    expect(networkCodeProblems('', '2x')).toEqual(['MNC must be 2 or 3 digits (got “2x”).']);
    expect(networkCodeProblems('26', '')).toEqual(['MCC must be 3 digits (got “26”).']);
    // whatever it accepts, the encoder can write
    for (const [mcc, mnc] of [
      ['000', '00'],
      ['999', '99'],
      ['262', '01'],
    ] as const) {
      expect(networkCodeProblems(mcc, mnc)).toEqual([]);
      expect(encodeNetworkCode(Number(mcc), Number(mnc))).toHaveLength(3);
    }
  });

  it('round-trips and accepts the old "0" version + line feed layout', () => {
    const bitmap = bitmapFromRows(pattern(14, 3));
    const bytes = encodeOperatorLogo({ mcc: 234, mnc: 15, bitmap });
    expect(bytes.length).toBe(3 + 130);
    expect(bytesToHex(bytes.slice(0, 7))).toBe('32F451' + '00480E01');
    expect(bitmapToRows(decodeOperatorLogo(bytes).bitmap)).toEqual(pattern(14, 3));
    const old = Uint8Array.of(0x30, 0x32, 0xf4, 0x51, 0x0a, ...encodeOtaBitmap(bitmap));
    expect(decodeOperatorLogo(old)).toMatchObject({ mcc: 234, mnc: 15 });
  });

  it.skipIf(!gammuAvailable)('python-gammu reads the network code and every pixel', () => {
    const pdus = encodeContentToPdus(
      { kind: 'operatorLogo', mcc: 262, mnc: 1, bitmap: bitmapFromRows(pattern(14, 5)) },
      TO,
    );
    const g = gammuDecode(pdus.map((p) => bytesToHex(p.pdu)));
    expect(g.messages[0].UDH.Type).toBe('NokiaOperatorLogo');
    const entry = g.decoded[0].Entries[0];
    expect(entry.ID).toBe('NokiaOperatorLogo');
    expect(entry.Bitmap[0].NetworkCode).toBe('262 01');
    expect(gammuBitmapRows(entry.Bitmap[0])).toEqual(pattern(14, 5));
  });
});

describe('group graphic', () => {
  it('is a bare 72x14 OTA bitmap', () => {
    const bitmap = bitmapFromRows(pattern(14, 2));
    const bytes = encodeGroupGraphic(bitmap);
    expect(bytesToHex(bytes.slice(0, 4))).toBe('00480E01');
    expect(bitmapToRows(decodeGroupGraphic(bytes))).toEqual(pattern(14, 2));
    expect(() => encodeGroupGraphic(bitmapFromRows(pattern(28, 2)))).toThrow(/72x14/);
  });

  it.skipIf(!gammuAvailable)('python-gammu decodes it as a caller (group) logo', () => {
    const pdus = encodeContentToPdus({ kind: 'groupGraphic', bitmap: bitmapFromRows(pattern(14, 9)) }, TO);
    const g = gammuDecode(pdus.map((p) => bytesToHex(p.pdu)));
    const entry = g.decoded[0].Entries[0];
    expect(entry.ID).toBe('NokiaCallerLogo');
    expect(gammuBitmapRows(entry.Bitmap[0])).toEqual(pattern(14, 9));
  });
});

describe('picture message', () => {
  it('is "0" then a text item and a 72x28 bitmap item with 16-bit lengths', () => {
    const bytes = encodePictureMessage({ bitmap: bitmapFromRows(pattern(28, 4)), text: 'Hi' });
    expect(bytesToHex(bytes.slice(0, 10))).toBe('30' + '000002' + '4869' + '020100' + '00');
    expect(bytes.length).toBe(1 + 5 + 3 + 256);
  });

  it('round-trips Latin-1 text, UCS-2 text and no text', () => {
    const bitmap = bitmapFromRows(pattern(28, 6));
    for (const text of ['Grüße', 'Привет ☺', undefined]) {
      const msg = text === undefined ? { bitmap } : { bitmap, text };
      const back = decodePictureMessage(encodePictureMessage(msg));
      expect(back.text).toBe(text);
      expect(bitmapToRows(back.bitmap)).toEqual(pattern(28, 6));
    }
    expect(encodePictureMessage({ bitmap, text: 'Привет' })[1]).toBe(0x01);
    expect(() => decodePictureMessage(Uint8Array.of(0x30, 0x00, 0x00, 0x01, 0x41))).toThrow(/no bitmap/);
    expect(() => decodePictureMessage(Uint8Array.of(0x31))).toThrow(/version/);
  });

  it('goes as 3 concatenated SMS to port 5514 and comes back whole, parts in any order', () => {
    const bitmap = bitmapFromRows(pattern(28, 8));
    const pdus = encodeContentToPdus({ kind: 'pictureMessage', bitmap, text: 'See you' }, TO, {
      concatRef: 200,
    });
    expect(pdus).toHaveLength(3);
    const [msg] = decodePdusToContent([pdus[2]!.pdu, pdus[0]!.pdu, pdus[1]!.pdu]);
    expect(msg).toMatchObject({
      complete: true,
      parts: 3,
      content: { kind: 'pictureMessage', text: 'See you' },
    });
    if (msg?.content.kind !== 'pictureMessage') throw new Error('wrong kind');
    expect(bitmapToRows(msg.content.bitmap)).toEqual(pattern(28, 8));
    const partial = decodePdusToContent([pdus[0]!.pdu, pdus[2]!.pdu]);
    expect(partial[0]).toMatchObject({
      complete: false,
      parts: 2,
      content: { kind: 'binary', destPort: 5514 },
    });
  });

  it.skipIf(!gammuAvailable)('python-gammu links the parts and reads the text and the picture', () => {
    const pdus = encodeContentToPdus(
      { kind: 'pictureMessage', bitmap: bitmapFromRows(pattern(28, 10)), text: 'Picture text' },
      TO,
      { concatRef: 31 },
    );
    const g = gammuDecode(pdus.map((p) => bytesToHex(p.pdu)));
    expect(g.decoded).toHaveLength(1);
    const entry = g.decoded[0].Entries[0];
    expect(entry.ID).toBe('NokiaPictureImageLong');
    expect(entry.Bitmap[0].Text).toBe('Picture text');
    expect(gammuBitmapRows(entry.Bitmap[0])).toEqual(pattern(28, 10));
  });
});

// gammu's own encoder as a second reference: for the same picture it must produce our bytes.
describe.skipIf(!gammuAvailable)('byte for byte the same as gammu.EncodeSMS', () => {
  const parts = (pdus: ReturnType<typeof encodeContentToPdus>): Array<{ udh: string; data: string }> =>
    pdus.map((p) => ({ udh: bytesToHex(p.udh), data: bytesToHex(p.userData) }));

  it('operator logo', () => {
    const rows = pattern(14, 7);
    const ours = encodeContentToPdus(
      { kind: 'operatorLogo', mcc: 234, mnc: 15, bitmap: bitmapFromRows(rows) },
      TO,
    );
    expect(parts(ours)).toEqual(
      gammuEncodeBitmap({ id: 'NokiaOperatorLogo', type: 'OperatorLogo', rows, networkCode: '234 15' }),
    );
  });

  it('group graphic', () => {
    const rows = pattern(14, 4);
    const ours = encodeContentToPdus({ kind: 'groupGraphic', bitmap: bitmapFromRows(rows) }, TO);
    expect(parts(ours)).toEqual(gammuEncodeBitmap({ id: 'NokiaCallerLogo', type: 'CallerGroupLogo', rows }));
  });

  it('picture message without text (3 parts, concatenation reference aside)', () => {
    const rows = pattern(28, 3);
    const theirs = gammuEncodeBitmap({ id: 'NokiaPictureImageLong', type: 'PictureImage', rows });
    const ref = parseInt(theirs[0]!.udh.slice(18, 20), 16);
    const ours = encodeContentToPdus({ kind: 'pictureMessage', bitmap: bitmapFromRows(rows) }, TO, {
      concatRef: ref,
    });
    expect(parts(ours)).toEqual(theirs);
  });
});
