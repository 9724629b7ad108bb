// WAP Push Service Indication (WAP-167-ServiceInd) encoded in WBXML 1.2 (WAP-192-WBXML).
//   header: version 0x02 | public id 0x05 (-//WAPFORUM//DTD SI 1.0//EN) | charset 0x6A (UTF-8)
//           | string table length (mb_u_int32) + table
//   body:   <si> <indication href si-id created si-expires action> text </indication>
//           [<info> <item class="..."> text </item>... </info>] </si>
// Dates (created, si-expires) go as OPAQUE: the 14 digits YYYYMMDDhhmmss packed two per octet,
// trailing zero octets dropped (SI spec 8.2.2). Hand-written: the SI vocabulary is small and
// no maintained JavaScript WBXML library exists.
import { SmartCodecError } from './bytes.ts';

export const SI_ACTIONS = ['signal-none', 'signal-low', 'signal-medium', 'signal-high', 'delete'] as const;
export type SiAction = (typeof SI_ACTIONS)[number];

/** The gateway's si-action field; the SOAP enumeration spells delete as signal-delete. */
export function parseSiAction(value: string): SiAction | undefined {
  const v = value.trim().toLowerCase();
  if (v === 'signal-delete') return 'delete';
  return (SI_ACTIONS as readonly string[]).includes(v) ? (v as SiAction) : undefined;
}

export interface ServiceIndication {
  href: string;
  siId?: string;
  /** UTC date-time, YYYY-MM-DDThh:mm:ss with optional trailing Z. */
  created?: string;
  expires?: string;
  action?: SiAction;
  /** Text shown on the handset (content of <indication>). */
  text?: string;
  info?: Array<{ class: string; text?: string }>;
}

const WBXML = { SWITCH_PAGE: 0x00, END: 0x01, STR_I: 0x03, STR_T: 0x83, OPAQUE: 0xc3 } as const;
const TAG = { si: 0x05, indication: 0x06, info: 0x07, item: 0x08 } as const;
const HAS_ATTR = 0x80;
const HAS_CONTENT = 0x40;
const ATTR_ACTION: Record<SiAction, number> = {
  'signal-none': 0x05,
  'signal-low': 0x06,
  'signal-medium': 0x07,
  'signal-high': 0x08,
  delete: 0x09,
};
const ATTR = { created: 0x0a, href: 0x0b, siExpires: 0x10, siId: 0x11, class: 0x12 } as const;
/** href attribute-start tokens with their value prefix, longest first for encoding. */
const HREF_PREFIXES: ReadonlyArray<readonly [number, string]> = [
  [0x0f, 'https://www.'],
  [0x0d, 'http://www.'],
  [0x0e, 'https://'],
  [0x0c, 'http://'],
  [0x0b, ''],
];
const ATTR_VALUES: ReadonlyArray<readonly [number, string]> = [
  [0x85, '.com/'],
  [0x86, '.edu/'],
  [0x87, '.net/'],
  [0x88, '.org/'],
];

export const SI_PUBLIC_ID = 0x05;
export const CHARSET_UTF8 = 0x6a;

const utf8 = new TextEncoder();

function inlineString(out: number[], s: string): void {
  if (s.includes('\0')) throw new SmartCodecError('SI strings cannot contain NUL');
  out.push(WBXML.STR_I, ...utf8.encode(s), 0x00);
}

/** Value with the .com/ .edu/ .net/ .org/ tokens in place of their text. */
function attrValue(out: number[], value: string): void {
  let rest = value;
  while (rest.length) {
    let best: { at: number; token: number; text: string } | undefined;
    for (const [token, text] of ATTR_VALUES) {
      const at = rest.indexOf(text);
      if (at >= 0 && (!best || at < best.at)) best = { at, token, text };
    }
    if (!best) {
      inlineString(out, rest);
      return;
    }
    if (best.at > 0) inlineString(out, rest.slice(0, best.at));
    out.push(best.token);
    rest = rest.slice(best.at + best.text.length);
  }
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z?$/;

/** OPAQUE date: 7 BCD octets YYYY MM DD hh mm ss, trailing zero octets removed. */
export function encodeSiDate(date: string): Uint8Array {
  const m = DATE_RE.exec(date);
  if (!m) throw new SmartCodecError(`date "${date}" is not YYYY-MM-DDThh:mm:ss`);
  const digits = m.slice(1).join('');
  const octets: number[] = [];
  for (let i = 0; i < 14; i += 2) octets.push((Number(digits[i]) << 4) | Number(digits[i + 1]));
  while (octets.length && octets[octets.length - 1] === 0) octets.pop();
  return Uint8Array.from(octets);
}

export function decodeSiDate(bytes: Uint8Array): string {
  if (bytes.length > 7) throw new SmartCodecError(`date of ${bytes.length} octets (at most 7)`);
  let digits = '';
  for (let i = 0; i < 7; i++) {
    const b = bytes[i] ?? 0;
    if (b >> 4 > 9 || (b & 15) > 9) throw new SmartCodecError(`date octet 0x${b.toString(16)} is not BCD`, i);
    digits += String(b >> 4) + String(b & 15);
  }
  return `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}T${digits.slice(8, 10)}:${digits.slice(10, 12)}:${digits.slice(12, 14)}Z`;
}

export function encodeSi(si: ServiceIndication): Uint8Array {
  const out: number[] = [0x02, SI_PUBLIC_ID, CHARSET_UTF8, 0x00];
  out.push(TAG.si | HAS_CONTENT);
  const hasText = si.text !== undefined && si.text !== '';
  out.push(TAG.indication | HAS_ATTR | (hasText ? HAS_CONTENT : 0));
  const [token, prefix] = HREF_PREFIXES.find(([, p]) => si.href.startsWith(p))!;
  out.push(token);
  const rest = si.href.slice(prefix.length);
  if (rest) attrValue(out, rest);
  if (si.siId !== undefined) {
    out.push(ATTR.siId);
    inlineString(out, si.siId);
  }
  for (const [attr, date] of [
    [ATTR.created, si.created],
    [ATTR.siExpires, si.expires],
  ] as const) {
    if (date === undefined) continue;
    const bytes = encodeSiDate(date);
    out.push(attr, WBXML.OPAQUE, bytes.length, ...bytes);
  }
  if (si.action !== undefined) out.push(ATTR_ACTION[si.action]);
  out.push(WBXML.END);
  if (hasText) {
    inlineString(out, si.text!);
    out.push(WBXML.END);
  }
  if (si.info?.length) {
    out.push(TAG.info | HAS_CONTENT);
    for (const it of si.info) {
      const hasItemText = it.text !== undefined && it.text !== '';
      out.push(TAG.item | HAS_ATTR | (hasItemText ? HAS_CONTENT : 0), ATTR.class);
      inlineString(out, it.class);
      out.push(WBXML.END);
      if (hasItemText) {
        inlineString(out, it.text!);
        out.push(WBXML.END);
      }
    }
    out.push(WBXML.END);
  }
  out.push(WBXML.END);
  return Uint8Array.from(out);
}

class Reader {
  readonly bytes: Uint8Array;
  at = 0;
  stringTable = new Uint8Array(0);
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }
  byte(): number {
    const b = this.bytes[this.at];
    if (b === undefined) throw new SmartCodecError('unexpected end of WBXML', this.at);
    this.at++;
    return b;
  }
  peek(): number | undefined {
    return this.bytes[this.at];
  }
  mbUint(): number {
    let v = 0;
    for (let i = 0; i < 5; i++) {
      const b = this.byte();
      v = v * 128 + (b & 0x7f);
      if (!(b & 0x80)) return v;
    }
    throw new SmartCodecError('mb_u_int32 longer than 5 octets', this.at);
  }
  cstring(): string {
    const start = this.at;
    const end = this.bytes.indexOf(0, start);
    if (end < 0) throw new SmartCodecError('unterminated inline string', start);
    this.at = end + 1;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(this.bytes.subarray(start, end));
    } catch {
      throw new SmartCodecError('inline string is not valid UTF-8', start);
    }
  }
  tableString(offset: number): string {
    const end = this.stringTable.indexOf(0, offset);
    if (offset >= this.stringTable.length || end < 0) {
      throw new SmartCodecError(`string table reference ${offset} out of range`, this.at);
    }
    return new TextDecoder().decode(this.stringTable.subarray(offset, end));
  }
  /** A string value: STR_I or STR_T. */
  text(): string | undefined {
    const b = this.peek();
    if (b === WBXML.STR_I) {
      this.at++;
      return this.cstring();
    }
    if (b === WBXML.STR_T) {
      this.at++;
      return this.tableString(this.mbUint());
    }
    return undefined;
  }
}

/** Reads attribute value tokens until the next attribute start or END. */
function readAttrValue(r: Reader): { text: string; opaque?: Uint8Array } {
  let text = '';
  let opaque: Uint8Array | undefined;
  for (;;) {
    const b = r.peek();
    if (b === undefined) throw new SmartCodecError('unexpected end of WBXML in an attribute', r.at);
    if (b === WBXML.STR_I || b === WBXML.STR_T) text += r.text()!;
    else if (b === WBXML.OPAQUE) {
      r.at++;
      const len = r.mbUint();
      opaque = r.bytes.slice(r.at, r.at + len);
      if (opaque.length !== len) throw new SmartCodecError('OPAQUE data is truncated', r.at);
      r.at += len;
    } else if (b >= 0x80) {
      const v = ATTR_VALUES.find(([t]) => t === b);
      if (!v) throw new SmartCodecError(`unknown attribute value token 0x${b.toString(16)}`, r.at);
      text += v[1];
      r.at++;
    } else break;
  }
  const res: { text: string; opaque?: Uint8Array } = { text };
  if (opaque) res.opaque = opaque;
  return res;
}

function readContent(r: Reader): string {
  let text = '';
  for (;;) {
    const b = r.peek();
    if (b === WBXML.END) {
      r.at++;
      return text;
    }
    const t = r.text();
    if (t === undefined)
      throw new SmartCodecError(`unexpected token 0x${(b ?? 0).toString(16)} in text content`, r.at);
    text += t;
  }
}

export function decodeSi(bytes: Uint8Array): ServiceIndication {
  const r = new Reader(bytes);
  const version = r.byte();
  if (version > 0x03) throw new SmartCodecError(`WBXML version 0x${version.toString(16)} not supported`, 0);
  const publicId = r.mbUint();
  if (publicId === 0)
    r.mbUint(); // public id given as a string table index
  else if (publicId !== SI_PUBLIC_ID)
    throw new SmartCodecError(`public id 0x${publicId.toString(16)} is not SI 1.0`, 1);
  const charset = r.mbUint();
  if (charset !== CHARSET_UTF8)
    throw new SmartCodecError(`charset ${charset} not supported (UTF-8 only)`, r.at - 1);
  const tableLength = r.mbUint();
  r.stringTable = bytes.slice(r.at, r.at + tableLength);
  r.at += tableLength;

  const siTag = r.byte();
  if ((siTag & 0x3f) !== TAG.si)
    throw new SmartCodecError(`root tag 0x${siTag.toString(16)} is not <si>`, r.at - 1);
  const si: ServiceIndication = { href: '' };
  let hrefSeen = false;
  while (r.peek() !== WBXML.END) {
    const tag = r.byte();
    const tagAt = r.at - 1;
    const id = tag & 0x3f;
    if (id === TAG.indication) {
      if (tag & HAS_ATTR) {
        for (;;) {
          const a = r.byte();
          if (a === WBXML.END) break;
          const prefix = HREF_PREFIXES.find(([t]) => t === a);
          const action = (Object.keys(ATTR_ACTION) as SiAction[]).find((k) => ATTR_ACTION[k] === a);
          const value = readAttrValue(r);
          if (prefix) {
            si.href = prefix[1] + value.text;
            hrefSeen = true;
          } else if (action) si.action = action;
          else if (a === ATTR.siId) si.siId = value.text;
          else if (a === ATTR.created || a === ATTR.siExpires) {
            const date = value.opaque ? decodeSiDate(value.opaque) : value.text;
            if (a === ATTR.created) si.created = date;
            else si.expires = date;
          } else
            throw new SmartCodecError(`unknown <indication> attribute token 0x${a.toString(16)}`, r.at - 1);
        }
      }
      if (tag & HAS_CONTENT) si.text = readContent(r);
    } else if (id === TAG.info) {
      si.info = [];
      if (tag & HAS_CONTENT) {
        while (r.peek() !== WBXML.END) {
          const itemTag = r.byte();
          if ((itemTag & 0x3f) !== TAG.item)
            throw new SmartCodecError(`<info> holds tag 0x${itemTag.toString(16)}`, r.at - 1);
          const it: { class: string; text?: string } = { class: '' };
          if (itemTag & HAS_ATTR) {
            for (;;) {
              const a = r.byte();
              if (a === WBXML.END) break;
              const value = readAttrValue(r);
              if (a === ATTR.class) it.class = value.text;
            }
          }
          if (itemTag & HAS_CONTENT) it.text = readContent(r);
          si.info.push(it);
        }
        r.byte();
      }
    } else throw new SmartCodecError(`unknown tag 0x${tag.toString(16)} in <si>`, tagAt);
  }
  r.byte();
  if (!hrefSeen) throw new SmartCodecError('<indication> has no href', r.at);
  return si;
}
