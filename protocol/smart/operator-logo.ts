// Nokia operator logo (Smart Messaging, port 5506): the network code in BCD, then an OTA bitmap.
//   MCC: 2 octets, semi-octets swapped with an F filler (262 → 62 F2)
//   MNC: 1 octet, semi-octets swapped (01 → 10; a third MNC digit does not fit and is refused)
//   OTA bitmap, 72x14 on the handsets.
// This is the layout gammu writes and reads (no version octet). Some old encoders put a '0'
// version octet (0x30) first and a line feed 0x0A after the network code; the decoder accepts both.
import { SmartCodecError, concatBytes } from './bytes.ts';
import { BITMAP_SIZES, decodeOtaBitmapAt, encodeOtaBitmap } from './ota-bitmap.ts';
import type { Bitmap } from './ota-bitmap.ts';

export interface OperatorLogo {
  /** Mobile Country Code, e.g. 262. */
  mcc: number;
  /** Mobile Network Code, e.g. 1 (two digits at most). */
  mnc: number;
  bitmap: Bitmap;
}

export function encodeNetworkCode(mcc: number, mnc: number): Uint8Array {
  if (!Number.isInteger(mcc) || mcc < 0 || mcc > 999) throw new SmartCodecError(`MCC ${mcc} is not 0..999`);
  if (!Number.isInteger(mnc) || mnc < 0 || mnc > 99)
    throw new SmartCodecError(`MNC ${mnc} is not 0..99 (two digits)`);
  const c = String(mcc).padStart(3, '0');
  const n = String(mnc).padStart(2, '0');
  return Uint8Array.of(
    (Number(c[1]) << 4) | Number(c[0]),
    0xf0 | Number(c[2]),
    (Number(n[1]) << 4) | Number(n[0]),
  );
}

/** ITU-T E.212: a Mobile Country Code has three digits, a Mobile Network Code two or three. */
const MCC_PATTERN = /^\d{3}$/;
const MNC_PATTERN = /^\d{2,3}$/;

/**
 * Why an MCC/MNC pair, as typed, cannot go in a Nokia operator logo ([] when it can): the digits
 * E.212 gives them, then what the logo's network code carries (a three-digit MNC does not fit in
 * its one octet, see encodeNetworkCode). An empty value is the caller's to report (it is missing,
 * not malformed), and then the pair is not checked further.
 */
export function networkCodeProblems(mcc: string, mnc: string): string[] {
  const out: string[] = [];
  if (mcc !== '' && !MCC_PATTERN.test(mcc)) out.push(`MCC must be 3 digits (got “${mcc}”).`);
  if (mnc !== '' && !MNC_PATTERN.test(mnc)) out.push(`MNC must be 2 or 3 digits (got “${mnc}”).`);
  if (out.length > 0 || mcc === '' || mnc === '') return out;
  if (mnc.length === 3)
    return [
      `MNC ${mnc} has three digits; a Nokia operator logo carries a two-digit MNC only, so handsets on this network cannot show it.`,
    ];
  try {
    encodeNetworkCode(Number(mcc), Number(mnc));
  } catch (err) {
    out.push(`Network code ${mcc} ${mnc}: ${err instanceof Error ? err.message : String(err)}.`);
  }
  return out;
}

export function decodeNetworkCode(bytes: Uint8Array, offset = 0): { mcc: number; mnc: number } {
  if (bytes.length - offset < 3) throw new SmartCodecError('network code is truncated', offset);
  const d = (b: number, at: number): number => {
    if (b > 9) throw new SmartCodecError(`network code digit 0x${b.toString(16)} is not BCD`, at);
    return b;
  };
  const b0 = bytes[offset]!;
  const b1 = bytes[offset + 1]!;
  const b2 = bytes[offset + 2]!;
  const mcc = d(b0 & 15, offset) * 100 + d(b0 >> 4, offset) * 10 + d(b1 & 15, offset + 1);
  const mnc = d(b2 & 15, offset + 2) * 10 + d(b2 >> 4, offset + 2);
  return { mcc, mnc };
}

export function encodeOperatorLogo(logo: OperatorLogo): Uint8Array {
  return concatBytes(encodeNetworkCode(logo.mcc, logo.mnc), encodeOtaBitmap(logo.bitmap));
}

export function decodeOperatorLogo(bytes: Uint8Array): OperatorLogo {
  let at = 0;
  if (bytes[0] === 0x30 && bytes.length > 4 && bytes[4] === 0x0a) at = 1; // '0' version variant
  const { mcc, mnc } = decodeNetworkCode(bytes, at);
  at += 3;
  if (bytes[at] === 0x0a) at++;
  const { bitmap, length } = decodeOtaBitmapAt(bytes, at);
  if (at + length !== bytes.length) {
    throw new SmartCodecError(`${bytes.length - at - length} unexpected octets after the logo`, at + length);
  }
  return { mcc, mnc, bitmap };
}

/** True when the bitmap has the size handsets show as an operator logo (72x14). */
export function isOperatorLogoSize(bmp: Bitmap): boolean {
  return bmp.width === BITMAP_SIZES.operatorLogo.width && bmp.height === BITMAP_SIZES.operatorLogo.height;
}
