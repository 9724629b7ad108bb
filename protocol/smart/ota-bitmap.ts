// OTA bitmap (Nokia Smart Messaging spec 3.0, section 3.3): the picture format of operator logos,
// group graphics (CLI icons) and picture messages.
//   infofield 0x00 | width (1 octet) | height (1 octet) | depth 0x01 | pixels
// Pixels are row by row, MSB first, 1 = black; the last octet is zero-padded.
import { SmartCodecError, bytesToHex, hexToBytes } from './bytes.ts';

export interface Bitmap {
  width: number;
  height: number;
  /** One entry per pixel, row-major, 1 = black, 0 = white. */
  pixels: Uint8Array;
}

/** Sizes the handsets expect. */
export const BITMAP_SIZES = {
  operatorLogo: { width: 72, height: 14 },
  groupGraphic: { width: 72, height: 14 },
  pictureMessage: { width: 72, height: 28 },
} as const;

export function createBitmap(width: number, height: number): Bitmap {
  checkSize(width, height);
  return { width, height, pixels: new Uint8Array(width * height) };
}

/** Builds a bitmap from rows of text: '#', 'X', '1' or '*' are black, anything else white. */
export function bitmapFromRows(rows: readonly string[]): Bitmap {
  const height = rows.length;
  const width = Math.max(0, ...rows.map((r) => r.length));
  const bmp = createBitmap(width, height);
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) if ('#X1*'.includes(row[x]!)) bmp.pixels[y * width + x] = 1;
  });
  return bmp;
}

/** The opposite of bitmapFromRows: '#' for black, '.' for white. */
export function bitmapToRows(bmp: Bitmap): string[] {
  const rows: string[] = [];
  for (let y = 0; y < bmp.height; y++) {
    let row = '';
    for (let x = 0; x < bmp.width; x++) row += bmp.pixels[y * bmp.width + x] ? '#' : '.';
    rows.push(row);
  }
  return rows;
}

function checkSize(width: number, height: number): void {
  if (!Number.isInteger(width) || width < 1 || width > 255) {
    throw new SmartCodecError(`bitmap width must be 1..255, got ${width}`);
  }
  if (!Number.isInteger(height) || height < 1 || height > 255) {
    throw new SmartCodecError(`bitmap height must be 1..255, got ${height}`);
  }
}

/** Number of octets of an OTA bitmap of this size (4 header octets + packed pixels). */
export function otaBitmapSize(width: number, height: number): number {
  return 4 + Math.ceil((width * height) / 8);
}

export function encodeOtaBitmap(bmp: Bitmap): Uint8Array {
  checkSize(bmp.width, bmp.height);
  if (bmp.pixels.length !== bmp.width * bmp.height) {
    throw new SmartCodecError(`bitmap has ${bmp.pixels.length} pixels, expected ${bmp.width * bmp.height}`);
  }
  const out = new Uint8Array(otaBitmapSize(bmp.width, bmp.height));
  out[0] = 0x00;
  out[1] = bmp.width;
  out[2] = bmp.height;
  out[3] = 0x01;
  for (let i = 0; i < bmp.pixels.length; i++) {
    if (bmp.pixels[i]) out[4 + (i >> 3)]! |= 0x80 >> (i & 7);
  }
  return out;
}

/**
 * Decodes an OTA bitmap at the start of `bytes`. Returns the bitmap and the number of octets
 * used, so callers that embed it (picture messages) can go on after it.
 */
export function decodeOtaBitmapAt(bytes: Uint8Array, offset = 0): { bitmap: Bitmap; length: number } {
  if (bytes.length - offset < 4) throw new SmartCodecError('OTA bitmap header is truncated', offset);
  const info = bytes[offset]!;
  if (info !== 0x00) {
    throw new SmartCodecError(
      `OTA bitmap infofield 0x${info.toString(16)} not supported (expected 0x00)`,
      offset,
    );
  }
  const width = bytes[offset + 1]!;
  const height = bytes[offset + 2]!;
  const depth = bytes[offset + 3]!;
  if (depth !== 1)
    throw new SmartCodecError(`OTA bitmap depth ${depth} not supported (expected 1)`, offset + 3);
  if (width === 0 || height === 0)
    throw new SmartCodecError('OTA bitmap has zero width or height', offset + 1);
  const length = otaBitmapSize(width, height);
  if (bytes.length - offset < length) {
    throw new SmartCodecError(
      `OTA bitmap ${width}x${height} needs ${length} octets, got ${bytes.length - offset}`,
      offset,
    );
  }
  const pixels = new Uint8Array(width * height);
  for (let i = 0; i < pixels.length; i++) {
    pixels[i] = (bytes[offset + 4 + (i >> 3)]! >> (7 - (i & 7))) & 1;
  }
  return { bitmap: { width, height, pixels }, length };
}

/** Decodes a whole OTA bitmap; trailing octets are an error. */
export function decodeOtaBitmap(bytes: Uint8Array): Bitmap {
  const { bitmap, length } = decodeOtaBitmapAt(bytes, 0);
  if (length !== bytes.length) {
    throw new SmartCodecError(`${bytes.length - length} unexpected octets after the OTA bitmap`, length);
  }
  return bitmap;
}

export function otaBitmapToHex(bmp: Bitmap): string {
  return bytesToHex(encodeOtaBitmap(bmp));
}

/** Parses the hex-encoded OTA bitmap of the gateway's PictureMessage/OperatorLogo/GroupGraphic fields. */
export function otaBitmapFromHex(hex: string): Bitmap {
  return decodeOtaBitmap(hexToBytes(hex));
}
