// SMS text: GSM 03.38 (3GPP TS 23.038) default alphabet and its extension table, UCS-2 fallback,
// segment counting for concatenated messages, and septet packing.
//
// Hand-written on purpose: the tables are fixed by the standard, small, and we need exact
// control over what counts as one segment (an escape pair or a surrogate pair is never split),
// in code that also runs in the renderer; the npm packages for this either bundle their own
// UI-oriented counters or do not pack septets with UDH fill bits.

import { LIMITS } from './limits.ts';

/** The encoding an SMS text is sent in: the 7-bit default alphabet, or UCS-2 (UTF-16BE). */
export type TextEncoding = 'GSM-7' | 'UCS-2';

/** Capacity of one SMS (140 octets) and of one part of a concatenated SMS (6-octet UDH). */
export const SMS_SEGMENT = {
  gsm7Single: 160,
  gsm7Concat: 153,
  ucs2Single: 70,
  ucs2Concat: 67,
} as const;

/** The escape septet that switches one character to the extension table. */
export const GSM7_ESCAPE = 0x1b;

/**
 * GSM 03.38 default alphabet, indexed by septet value. 0x1B is the escape (not a character);
 * it is written here as '\x1b' only to keep the positions, and is never encoded from text.
 */
const DEFAULT_ALPHABET =
  '@£$¥èéùìòÇ\nØø\rÅå' +
  'Δ_ΦΓΛΩΠΨΣΘΞ\x1bÆæßÉ' +
  ' !"#¤%&\'()*+,-./' +
  '0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNO' +
  'PQRSTUVWXYZÄÖÑÜ§' +
  '¿abcdefghijklmno' +
  'pqrstuvwxyzäöñüà';

/** GSM 03.38 extension table: character → septet that follows the escape (each costs 2 septets). */
const EXTENSION: ReadonlyArray<readonly [string, number]> = [
  ['\f', 0x0a],
  ['^', 0x14],
  ['{', 0x28],
  ['}', 0x29],
  ['\\', 0x2f],
  ['[', 0x3c],
  ['~', 0x3d],
  [']', 0x3e],
  ['|', 0x40],
  ['€', 0x65],
];

const BASIC_TO_SEPTET = new Map<string, number>();
for (let i = 0; i < DEFAULT_ALPHABET.length; i++) {
  if (i !== GSM7_ESCAPE) BASIC_TO_SEPTET.set(DEFAULT_ALPHABET[i] as string, i);
}
const EXT_TO_SEPTET = new Map<string, number>(EXTENSION);
const SEPTET_TO_EXT = new Map<number, string>(EXTENSION.map(([char, septet]) => [septet, char]));

/** Septets one character costs in GSM-7: 1 (default alphabet), 2 (extension table), or undefined (not GSM-7). */
function gsmCost(char: string): 1 | 2 | undefined {
  if (BASIC_TO_SEPTET.has(char)) return 1;
  if (EXT_TO_SEPTET.has(char)) return 2;
  return undefined;
}

/** True when every character of `text` is in the GSM 03.38 default alphabet or its extension table. */
export function isGsm7(text: string): boolean {
  for (const char of text) if (gsmCost(char) === undefined) return false;
  return true;
}

/** Septet values of `text` (extension characters as 0x1B + code), or null if a character is not GSM-7. */
export function encodeGsm7(text: string): number[] | null {
  const septets: number[] = [];
  for (const char of text) {
    const basic = BASIC_TO_SEPTET.get(char);
    if (basic !== undefined) {
      septets.push(basic);
      continue;
    }
    const ext = EXT_TO_SEPTET.get(char);
    if (ext === undefined) return null;
    septets.push(GSM7_ESCAPE, ext);
  }
  return septets;
}

/**
 * Text of GSM-7 septets. As TS 23.038 asks of a receiver: an escape followed by a code the
 * extension table does not define shows that code's default-alphabet character; an escape
 * followed by another escape, or at the very end, shows a space.
 */
export function decodeGsm7(septets: number[]): string {
  let text = '';
  for (let i = 0; i < septets.length; i++) {
    const septet = checkSeptet(septets[i], i);
    if (septet !== GSM7_ESCAPE) {
      text += DEFAULT_ALPHABET[septet];
      continue;
    }
    const next = septets[i + 1];
    if (next === undefined || next === GSM7_ESCAPE) {
      text += ' ';
      i += next === undefined ? 0 : 1;
      continue;
    }
    i++;
    const code = checkSeptet(next, i);
    text += SEPTET_TO_EXT.get(code) ?? DEFAULT_ALPHABET[code];
  }
  return text;
}

function checkSeptet(value: number | undefined, index: number): number {
  if (value === undefined || !Number.isInteger(value) || value < 0 || value > 0x7f) {
    throw new RangeError(`septet ${index} is ${String(value)}, not 0..127`);
  }
  return value;
}

function checkFillBits(fillBits: number): void {
  if (!Number.isInteger(fillBits) || fillBits < 0 || fillBits > 6) {
    throw new RangeError(`fillBits is ${fillBits}, not 0..6`);
  }
}

/**
 * Pack septets into octets as TS 23.038 6.1.2.1: septet i occupies bits fillBits + 7i upward,
 * least significant bit first. `fillBits` (0..6) zero bits come first, so that user data after
 * a user data header starts on a septet boundary (e.g. 1 fill bit after a 6-octet UDH).
 */
export function packSeptets(septets: number[], fillBits = 0): Uint8Array {
  checkFillBits(fillBits);
  const totalBits = fillBits + septets.length * 7;
  const out = new Uint8Array(Math.ceil(totalBits / 8));
  let bit = fillBits;
  for (let i = 0; i < septets.length; i++) {
    const septet = checkSeptet(septets[i], i);
    const byte = bit >> 3;
    const shift = bit & 7;
    out[byte] = (out[byte] ?? 0) | ((septet << shift) & 0xff);
    if (shift > 1) out[byte + 1] = (out[byte + 1] ?? 0) | (septet >> (8 - shift));
    bit += 7;
  }
  return out;
}

/** Inverse of packSeptets: read `count` septets starting after `fillBits` bits. */
export function unpackSeptets(bytes: Uint8Array, count: number, fillBits = 0): number[] {
  checkFillBits(fillBits);
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count is ${count}, not a whole number`);
  const needed = fillBits + count * 7;
  if (needed > bytes.length * 8) {
    throw new RangeError(`${count} septets need ${Math.ceil(needed / 8)} octets, only ${bytes.length} given`);
  }
  const septets: number[] = [];
  let bit = fillBits;
  for (let i = 0; i < count; i++) {
    const byte = bit >> 3;
    const shift = bit & 7;
    let value = (bytes[byte] ?? 0) >> shift;
    if (shift > 1) value |= (bytes[byte + 1] ?? 0) << (8 - shift);
    septets.push(value & 0x7f);
    bit += 7;
  }
  return septets;
}

/**
 * UCS-2 as phones send it: UTF-16 big-endian code units. Characters outside the BMP (emoji)
 * go as surrogate pairs, which every current handset shows as the one character.
 */
export function encodeUcs2(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    out[2 * i] = unit >> 8;
    out[2 * i + 1] = unit & 0xff;
  }
  return out;
}

/** Inverse of encodeUcs2. An odd number of octets is malformed and throws a RangeError. */
export function decodeUcs2(bytes: Uint8Array): string {
  if (bytes.length % 2 !== 0) throw new RangeError(`UCS-2 data has an odd length (${bytes.length} octets)`);
  const units: number[] = [];
  for (let i = 0; i < bytes.length; i += 2) units.push(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0));
  // Chunked so that a long text does not exceed the engine's argument limit.
  let text = '';
  for (let i = 0; i < units.length; i += 4096) text += String.fromCharCode(...units.slice(i, i + 4096));
  return text;
}

/** What a text costs as SMS: encoding, units, segments, and what is left in the last segment. */
export interface TextAnalysis {
  encoding: TextEncoding;
  /** Characters as a user counts them (Unicode code points; an emoji is 1). */
  characters: number;
  /** Septets (GSM-7, extension characters count 2) or UTF-16 code units (UCS-2, an emoji counts 2). */
  units: number;
  /** SMS segments the text is sent as; 0 for an empty text. */
  segments: number;
  /** Units one segment holds: 160 or 153 (GSM-7), 70 or 67 (UCS-2) once the text is concatenated. */
  perSegment: number;
  /** Units left in the last segment before another segment is needed. */
  remaining: number;
  /** The distinct characters that force UCS-2, in order of first appearance. */
  nonGsm: string[];
  /** A flash message (spec 2.2 FlashMessage): same limits, carried for the caller. */
  flash: boolean;
  /** Spec section 8: "Single message in UTF-8 at most 70 characters". */
  fitsSingleUtf8: boolean;
}

interface Split {
  encoding: TextEncoding;
  units: number;
  parts: string[];
  /** Units in each part, parallel to `parts`. */
  partUnits: number[];
}

/** Units a character costs in the encoding (GSM-7: 1 or 2 septets; UCS-2: 1 or 2 UTF-16 units). */
function unitCost(char: string, encoding: TextEncoding): number {
  return encoding === 'GSM-7' ? (gsmCost(char) ?? 2) : char.length;
}

function split(text: string): Split {
  const encoding: TextEncoding = isGsm7(text) ? 'GSM-7' : 'UCS-2';
  const single = encoding === 'GSM-7' ? SMS_SEGMENT.gsm7Single : SMS_SEGMENT.ucs2Single;
  const concat = encoding === 'GSM-7' ? SMS_SEGMENT.gsm7Concat : SMS_SEGMENT.ucs2Concat;
  // Iterating a string yields code points, so a surrogate pair is one step, and a GSM
  // extension character is one step costing 2 septets: neither can be cut in half.
  const chars = Array.from(text);
  let units = 0;
  for (const char of chars) units += unitCost(char, encoding);
  if (units === 0) return { encoding, units, parts: [], partUnits: [] };
  if (units <= single) return { encoding, units, parts: [text], partUnits: [units] };

  const parts: string[] = [];
  const partUnits: number[] = [];
  let current = '';
  let used = 0;
  for (const char of chars) {
    const cost = unitCost(char, encoding);
    if (used + cost > concat) {
      parts.push(current);
      partUnits.push(used);
      current = '';
      used = 0;
    }
    current += char;
    used += cost;
  }
  parts.push(current);
  partUnits.push(used);
  return { encoding, units, parts, partUnits };
}

/**
 * Encoding and segment count of an SMS text: GSM-7 when every character is in the GSM 03.38
 * alphabet (extension characters € [ ] { } \ ~ ^ | and form feed cost 2 septets), else UCS-2.
 * One segment holds 160 septets / 70 UTF-16 units; a concatenated part 153 / 67, and a part
 * ends early rather than split an escape pair or a surrogate pair.
 */
export function analyzeText(text: string, opts?: { flash?: boolean }): TextAnalysis {
  const { encoding, units, parts, partUnits } = split(text);
  const multi = parts.length > 1;
  const perSegment =
    encoding === 'GSM-7'
      ? multi
        ? SMS_SEGMENT.gsm7Concat
        : SMS_SEGMENT.gsm7Single
      : multi
        ? SMS_SEGMENT.ucs2Concat
        : SMS_SEGMENT.ucs2Single;
  const nonGsm: string[] = [];
  if (encoding === 'UCS-2') {
    for (const char of text) if (gsmCost(char) === undefined && !nonGsm.includes(char)) nonGsm.push(char);
  }
  const characters = Array.from(text).length;
  return {
    encoding,
    characters,
    units,
    segments: parts.length,
    perSegment,
    remaining: perSegment - (partUnits[partUnits.length - 1] ?? 0),
    nonGsm,
    flash: opts?.flash ?? false,
    fitsSingleUtf8: characters <= LIMITS.utf8SingleMessageMax,
  };
}

/**
 * The parts of `text` as a concatenated SMS (one part when it fits a single SMS, none when
 * empty). Joining the parts gives back `text`; no part ends inside an escape pair or a
 * surrogate pair.
 */
export function splitText(text: string): { encoding: TextEncoding; parts: string[] } {
  const { encoding, parts } = split(text);
  return { encoding, parts };
}
