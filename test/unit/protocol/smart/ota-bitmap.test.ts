import { describe, expect, it } from 'vitest';
import {
  bitmapFromRows,
  bitmapToRows,
  createBitmap,
  decodeOtaBitmap,
  encodeOtaBitmap,
  otaBitmapFromHex,
  otaBitmapSize,
  otaBitmapToHex,
} from '../../../../protocol/smart/ota-bitmap.ts';
import { SmartCodecError } from '../../../../protocol/smart/bytes.ts';

describe('OTA bitmap', () => {
  it('encodes header 00 width height 01 and rows MSB first with 1 = black', () => {
    const bmp = bitmapFromRows(['#.......#', '.#######.']);
    // 18 pixels: 10000000 | 10111111 | 10 (padded)
    expect(otaBitmapToHex(bmp)).toBe('00090201' + '80' + 'BF' + '80');
  });

  it('a 72x14 logo takes 130 octets and round-trips', () => {
    const bmp = createBitmap(72, 14);
    for (let i = 0; i < bmp.pixels.length; i += 3) bmp.pixels[i] = 1;
    const bytes = encodeOtaBitmap(bmp);
    expect(bytes.length).toBe(130);
    expect(otaBitmapSize(72, 28)).toBe(256);
    const back = decodeOtaBitmap(bytes);
    expect(back.width).toBe(72);
    expect(back.height).toBe(14);
    expect(Array.from(back.pixels)).toEqual(Array.from(bmp.pixels));
  });

  it('rows text round-trips through hex', () => {
    const rows = ['#..#..#.', '.##..##.', '########'];
    expect(bitmapToRows(otaBitmapFromHex(otaBitmapToHex(bitmapFromRows(rows))))).toEqual(rows);
  });

  it('refuses truncated data, wrong depth, trailing bytes and bad hex', () => {
    expect(() => decodeOtaBitmap(Uint8Array.of(0, 8, 2, 1, 0xff))).toThrow(/needs 6 octets/);
    expect(() => decodeOtaBitmap(Uint8Array.of(0, 8, 1, 2, 0xff))).toThrow(/depth 2/);
    expect(() => decodeOtaBitmap(Uint8Array.of(0, 8, 1, 1, 0xff, 0))).toThrow(/unexpected octets/);
    expect(() => otaBitmapFromHex('00080101F')).toThrow(SmartCodecError);
    expect(() => otaBitmapFromHex('0008010ZFF')).toThrow(/invalid hex/);
  });
});
