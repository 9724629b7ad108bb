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

/** Index of the first byte of bytes[0, length) that does not start a well-formed UTF-8 sequence, or -1 (RFC 3629). */
function firstInvalidUtf8(bytes: Uint8Array, length: number): number {
  let i = 0;
  while (i < length) {
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
      if (i + k >= length) return i;
      const c = bytes[i + k]!;
      const lo = k === 1 ? min : 0x80;
      const hi = k === 1 ? max : 0xbf;
      if (c < lo || c > hi) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * Above this length a component is decoded octet by octet into a buffer: String.replace of every '+'
 * in a megabyte of them builds the result piece by piece (about 60 ms for 2 MB, issue 23), the
 * buffer pass about 10 ms. Below it decodeURIComponent is the faster.
 */
const LONG_COMPONENT = 4096;

/** Decodes one component of `body` between [start, end). */
function decodeComponent(body: string, start: number, end: number): string {
  if (end - start > LONG_COMPONENT) return decodeComponentSlow(body, start, end);
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

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Writes the octets of body[i] (one character, or a surrogate pair) to `out` at `n`; returns the
 * number of UTF-16 units read. A lone surrogate becomes U+FFFD, as TextEncoder writes it.
 */
function writeUtf8(body: string, i: number, out: Uint8Array, n: number): { units: number; bytes: number } {
  let cp = body.codePointAt(i)!;
  const units = cp > 0xffff ? 2 : 1;
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
  if (cp < 0x80) {
    out[n] = cp;
    return { units, bytes: 1 };
  }
  if (cp < 0x800) {
    out[n] = 0xc0 | (cp >> 6);
    out[n + 1] = 0x80 | (cp & 63);
    return { units, bytes: 2 };
  }
  if (cp < 0x10000) {
    out[n] = 0xe0 | (cp >> 12);
    out[n + 1] = 0x80 | ((cp >> 6) & 63);
    out[n + 2] = 0x80 | (cp & 63);
    return { units, bytes: 3 };
  }
  out[n] = 0xf0 | (cp >> 18);
  out[n + 1] = 0x80 | ((cp >> 12) & 63);
  out[n + 2] = 0x80 | ((cp >> 6) & 63);
  out[n + 3] = 0x80 | (cp & 63);
  return { units, bytes: 4 };
}

/**
 * The octet-by-octet decoder: one pass into a byte buffer (linear in the piece; issue 23 measured the
 * former per-character TextEncoder call at 0.4 s for a megabyte of raw non-ASCII text), then one
 * strict UTF-8 decode. Where the body is broken is worked out only when it is.
 */
function decodeComponentSlow(body: string, start: number, end: number): string {
  // The common long value (hex content, plain text) has nothing to decode.
  let plain = true;
  for (let i = start; i < end && plain; i++) {
    const c = body.charCodeAt(i);
    plain = c !== 0x25 && c !== 0x2b;
  }
  if (plain) return body.slice(start, end);
  // At most 4 octets per UTF-16 unit (a raw character), at most 1 per "%XX" or "+".
  const bytes = new Uint8Array((end - start) * 4);
  let n = 0;
  let i = start;
  while (i < end) {
    const c = body.charCodeAt(i);
    if (c === 0x25 /* % */) {
      const h = i + 2 < end ? hexValue(body.charCodeAt(i + 1)) : -1;
      const l = i + 2 < end ? hexValue(body.charCodeAt(i + 2)) : -1;
      if (h < 0 || l < 0) throw new FormDecodeError('malformed percent-encoding', i);
      bytes[n++] = (h << 4) | l;
      i += 3;
    } else if (c === 0x2b /* + */) {
      bytes[n++] = 0x20;
      i++;
    } else if (c < 0x80) {
      bytes[n++] = c;
      i++;
    } else {
      // A raw non-ASCII character (clients should not send one, but a string cannot hold a
      // broken octet): take its UTF-8 form as is.
      const w = writeUtf8(body, i, bytes, n);
      n += w.bytes;
      i += w.units;
    }
  }
  try {
    return strictDecoder.decode(bytes.subarray(0, n));
  } catch {
    throw new FormDecodeError('invalid UTF-8', positionOfOctet(body, start, firstInvalidUtf8(bytes, n)));
  }
}

/** Offset in `body` of the octet numbered `octet` of the component starting at `start` (error path only). */
function positionOfOctet(body: string, start: number, octet: number): number {
  const scratch = new Uint8Array(4);
  let n = 0;
  let i = start;
  while (n < octet) {
    const c = body.charCodeAt(i);
    if (c === 0x25) {
      n++;
      i += 3;
    } else if (c < 0x80) {
      n++;
      i++;
    } else {
      const w = writeUtf8(body, i, scratch, 0);
      if (n + w.bytes > octet) break;
      n += w.bytes;
      i += w.units;
    }
  }
  return i;
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
 * A body of more fields than a request can mean (LIMITS.maxFormFields): refused before its pieces
 * are decoded, so a hostile body of a million empty fields costs the same as a short one.
 */
export class FormFieldLimitError extends FormDecodeError {
  readonly limit: number;

  constructor(limit: number, position: number) {
    super(`more than ${limit} fields in one request`, position);
    this.name = 'FormFieldLimitError';
    this.limit = limit;
  }
}

/**
 * Octet offset in a raw (still encoded) form body where its field number `max + 1` starts, or -1
 * when it has at most `max` fields (non-empty pieces between '&'). A server counts before it
 * decodes anything: a body of a million empty fields is refused after reading a few thousand octets,
 * with nothing allocated (issue 23).
 */
export function fieldBeyond(body: Uint8Array, max: number): number {
  let fields = 0;
  let inPiece = false;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === 0x26 /* & */) {
      inPiece = false;
    } else if (!inPiece) {
      inPiece = true;
      if (++fields > max) return i;
    }
  }
  return -1;
}

/**
 * Decodes a form body. '+' and %20 are spaces; a bare tag (`AvailableCredit`) has the empty value;
 * empty pieces between '&&' are ignored. Throws FormDecodeError on malformed percent-encoding or
 * invalid UTF-8, and FormFieldLimitError when the body holds more than `maxFields` fields.
 *
 * Linear in the body (issue 23): each piece is scanned once, for its '&' and then for its '='
 * within the piece only (an indexOf('=') from the piece's start would run to the body's end for
 * every bare tag: quadratic on a body of `a&a&a&…`).
 */
export function decodeForm(body: string, maxFields = Number.POSITIVE_INFINITY): FormFields {
  const entries: Array<[string, string]> = [];
  let start = 0;
  while (start <= body.length) {
    // a run of '&' (empty pieces) is skipped in one tight pass
    while (body.charCodeAt(start) === 0x26 /* & */) start++;
    let end = body.indexOf('&', start);
    if (end < 0) end = body.length;
    if (end > start) {
      if (entries.length >= maxFields) throw new FormFieldLimitError(maxFields, start);
      let eq = start;
      while (eq < end && body.charCodeAt(eq) !== 0x3d /* = */) eq++;
      if (eq < end) {
        entries.push([decodeComponent(body, start, eq), decodeComponent(body, eq + 1, end)]);
      } else {
        entries.push([decodeComponent(body, start, end), '']);
      }
    }
    start = end + 1;
  }
  return new FormFields(entries);
}
