/**
 * application/x-www-form-urlencoded codec as the gateway wants it (spec 1, 4):
 * tag=value pairs joined by '&', one continuous string, every UTF-8 octet of a reserved or
 * non-ASCII character percent-encoded separately (uppercase hex), space as %20.
 *
 * Hand-written rather than URLSearchParams because URLSearchParams writes space as '+', leaves
 * '*' unencoded, silently replaces malformed input with U+FFFD and cannot tell where a body is
 * broken; the gateway must refuse such bodies and say where (FormDecodeError.position), and the
 * client must keep repeated and unknown tags in order.
 */

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded; charset=utf-8';

/** Decoded form: all pairs in body order, repeated and unknown tags kept, empty values kept. */
export class FormFields implements Iterable<readonly [string, string]> {
  readonly entries: ReadonlyArray<readonly [string, string]>;

  constructor(entries: Array<[string, string]> | ReadonlyArray<readonly [string, string]>) {
    this.entries = entries.map(([k, v]) => [k, v] as const);
  }

  /** First value of the tag (tag names are case-sensitive), or undefined when absent. */
  get(name: string): string | undefined {
    for (const [k, v] of this.entries) if (k === name) return v;
    return undefined;
  }

  /** Every value of the tag, in body order. */
  getAll(name: string): string[] {
    const out: string[] = [];
    for (const [k, v] of this.entries) if (k === name) out.push(v);
    return out;
  }

  has(name: string): boolean {
    return this.entries.some(([k]) => k === name);
  }

  /** Distinct tag names in order of first appearance. */
  names(): string[] {
    return [...new Set(this.entries.map(([k]) => k))];
  }

  /** Tag → first value. */
  toRecord(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of this.entries) if (!Object.hasOwn(out, k)) out[k] = v;
    return out;
  }

  get size(): number {
    return this.entries.length;
  }

  [Symbol.iterator](): Iterator<readonly [string, string]> {
    return this.entries[Symbol.iterator]();
  }
}

/** A body that is not well-formed: bad percent-encoding or invalid UTF-8. */
export class FormDecodeError extends Error {
  /** Offset in the body (UTF-16 code units) where the problem starts. */
  readonly position: number;

  constructor(message: string, position: number) {
    super(`${message} at position ${position}`);
    this.name = 'FormDecodeError';
    this.position = position;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');
const HEX = '0123456789ABCDEF';

function isUnreserved(b: number): boolean {
  return (
    (b >= 0x41 && b <= 0x5a) || // A-Z
    (b >= 0x61 && b <= 0x7a) || // a-z
    (b >= 0x30 && b <= 0x39) || // 0-9
    b === 0x2d || // -
    b === 0x5f || // _
    b === 0x2e || // .
    b === 0x7e // ~
  );
}

const SUB_DELIMS: Record<string, string> = { '!': '%21', "'": '%27', '(': '%28', ')': '%29', '*': '%2A' };

/** Percent-encodes one tag or value: unreserved characters kept, every other UTF-8 octet as %XX. */
export function encodeFormComponent(value: string): string {
  // encodeURIComponent already writes each UTF-8 octet as uppercase %XX (and is ~20x faster than a
  // loop on multi-megabyte hex uploads); it leaves !'()* as they are, which the gateway wants
  // encoded. It throws on a lone surrogate: the octet loop then writes U+FFFD as TextEncoder does.
  try {
    return encodeURIComponent(value).replace(/[!'()*]/g, (c) => SUB_DELIMS[c] ?? c);
  } catch {
    return encodeFormComponentSlow(value);
  }
}

/** Reference encoder, octet by octet (also the fallback for lone surrogates). */
export function encodeFormComponentSlow(value: string): string {
  let out = '';
  for (const b of encoder.encode(value)) {
    out += isUnreserved(b) ? String.fromCharCode(b) : `%${HEX[b >> 4]}${HEX[b & 15]}`;
  }
  return out;
}

export type FormInput =
  Iterable<readonly [string, string]> | Record<string, string | number | boolean | undefined>;

/**
 * Encodes pairs (order kept, repeats kept) or a record (undefined values skipped, numbers as
 * decimal, booleans as 1/0 — the spec's flag convention).
 */
export function encodeForm(fields: FormInput): string {
  const parts: string[] = [];
  if (isIterable(fields)) {
    for (const [k, v] of fields) parts.push(`${encodeFormComponent(k)}=${encodeFormComponent(v)}`);
  } else {
    for (const [k, v] of Object.entries(fields)) {
      if (v === undefined) continue;
      const s = typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
      parts.push(`${encodeFormComponent(k)}=${encodeFormComponent(s)}`);
    }
  }
  return parts.join('&');
}

function isIterable(x: unknown): x is Iterable<readonly [string, string]> {
  return typeof x === 'object' && x !== null && Symbol.iterator in x;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

/** Index of the first byte that does not start a well-formed UTF-8 sequence, or -1 (RFC 3629). */
function firstInvalidUtf8(bytes: readonly number[]): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min = 0x80;
    let max = 0xbf;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) min = 0xa0; // overlong
      if (b === 0xed) max = 0x9f; // surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) min = 0x90; // overlong
      if (b === 0xf4) max = 0x8f; // > U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i;
      const lo = k === 1 ? min : 0x80;
      const hi = k === 1 ? max : 0xbf;
      if (c < lo || c > hi) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** Decodes one component of `body` between [start, end). */
function decodeComponent(body: string, start: number, end: number): string {
  const piece = body.slice(start, end);
  if (!/[%+]/.test(piece)) return piece;
  try {
    // Fast path: decodeURIComponent refuses malformed escapes and invalid UTF-8 (ECMA-262 Decode).
    return decodeURIComponent(piece.replace(/\+/g, ' '));
  } catch {
    // Fall through to the octet-by-octet decoder, which says where the body is broken.
  }
  return decodeComponentSlow(body, start, end);
}

function decodeComponentSlow(body: string, start: number, end: number): string {
  const bytes: number[] = [];
  const positions: number[] = [];
  let i = start;
  while (i < end) {
    const c = body.charCodeAt(i);
    if (c === 0x25 /* % */) {
      const h = i + 2 < end ? hexValue(body.charCodeAt(i + 1)) : -1;
      const l = i + 2 < end ? hexValue(body.charCodeAt(i + 2)) : -1;
      if (h < 0 || l < 0) throw new FormDecodeError('malformed percent-encoding', i);
      bytes.push((h << 4) | l);
      positions.push(i);
      i += 3;
    } else if (c === 0x2b /* + */) {
      bytes.push(0x20);
      positions.push(i);
      i++;
    } else if (c < 0x80) {
      bytes.push(c);
      positions.push(i);
      i++;
    } else {
      // A raw non-ASCII character (clients should not send one, but a string cannot hold a
      // broken octet): take its UTF-8 form as is.
      const cp = body.codePointAt(i)!;
      const width = cp > 0xffff ? 2 : 1;
      for (const b of encoder.encode(body.slice(i, i + width))) {
        bytes.push(b);
        positions.push(i);
      }
      i += width;
    }
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) throw new FormDecodeError('invalid UTF-8', positions[bad]!);
  return decoder.decode(new Uint8Array(bytes));
}

/** Decodes one percent-encoded tag or value ('+' is a space); FormDecodeError.position is relative to it. */
export function decodeFormComponent(value: string): string {
  return decodeComponent(value, 0, value.length);
}

/** Splits a body into raw (still encoded) tag/value pairs without decoding the values. */
export function splitRawForm(body: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const piece of body.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    out.push(eq < 0 ? [piece, ''] : [piece.slice(0, eq), piece.slice(eq + 1)]);
  }
  return out;
}

/**
 * Decodes a form body. '+' and %20 are spaces; a bare tag (`AvailableCredit`) has the empty value;
 * empty pieces between '&&' are ignored. Throws FormDecodeError on malformed percent-encoding or
 * invalid UTF-8.
 */
export function decodeForm(body: string): FormFields {
  const entries: Array<[string, string]> = [];
  let start = 0;
  while (start <= body.length) {
    let end = body.indexOf('&', start);
    if (end < 0) end = body.length;
    if (end > start) {
      const eq = body.indexOf('=', start);
      if (eq >= 0 && eq < end) {
        entries.push([decodeComponent(body, start, eq), decodeComponent(body, eq + 1, end)]);
      } else {
        entries.push([decodeComponent(body, start, end), '']);
      }
    }
    start = end + 1;
  }
  return new FormFields(entries);
}
