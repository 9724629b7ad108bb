// WSP connectionless Push PDU (WAP-230-WSP 8.2.4.1), as carried to WDP port 2948 over SMS:
//   TID (1 octet) | PDU type 0x06 (Push) | headers length (uintvar) | content type | headers | body
// Content types are the well-known short integers (0x80 | code): application/vnd.wap.sic 0xAE,
// application/vnd.wap.mms-message 0xBE; others are sent as text. X-Wap-Application-Id (0xAF) is
// added when given (4 = x-wap-application:mms.ua, needed for MMS notifications).
import { SmartCodecError, concatBytes } from './bytes.ts';

export const WSP_PDU_PUSH = 0x06;
export const WSP_CONTENT_TYPES = {
  'application/vnd.wap.sic': 0x2e,
  'application/vnd.wap.slc': 0x30,
  'application/vnd.wap.mms-message': 0x3e,
} as const;
export const WAP_APPLICATION_ID = { wmlUa: 0x02, mmsUa: 0x04 } as const;
const HEADER_APPLICATION_ID = 0x2f;
const PARAM_CHARSET = 0x01;
const CHARSET_UTF8 = 106;

export interface WspPush {
  transactionId: number;
  contentType: string;
  /** Charset parameter of the content type (MIBenum, 106 = UTF-8). */
  charset?: number;
  applicationId?: number;
  body: Uint8Array;
}

export function encodeUintvar(value: number): number[] {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff)
    throw new SmartCodecError(`uintvar ${value} out of range`);
  const out = [value & 0x7f];
  let v = Math.floor(value / 128);
  while (v > 0) {
    out.unshift((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  return out;
}

export function decodeUintvar(bytes: Uint8Array, at: number): { value: number; length: number } {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const b = bytes[at + i];
    if (b === undefined) throw new SmartCodecError('uintvar is truncated', at + i);
    value = value * 128 + (b & 0x7f);
    if (!(b & 0x80)) return { value, length: i + 1 };
  }
  throw new SmartCodecError('uintvar longer than 5 octets', at);
}

function contentTypeBytes(type: string, charset?: number): number[] {
  const code = (WSP_CONTENT_TYPES as Record<string, number>)[type];
  const media = code !== undefined ? [0x80 | code] : [...new TextEncoder().encode(type), 0];
  if (charset === undefined) return media;
  const param =
    charset === CHARSET_UTF8 || charset < 128
      ? [0x80 | PARAM_CHARSET, 0x80 | charset]
      : [0x80 | PARAM_CHARSET, 2, charset >> 8, charset & 0xff];
  const value = [...media, ...param];
  if (value.length > 30) throw new SmartCodecError('content type too long');
  return [value.length, ...value];
}

export function encodeWspPush(push: WspPush): Uint8Array {
  const headers = contentTypeBytes(push.contentType, push.charset);
  if (push.applicationId !== undefined)
    headers.push(0x80 | HEADER_APPLICATION_ID, 0x80 | (push.applicationId & 0x7f));
  return concatBytes(
    [push.transactionId & 0xff, WSP_PDU_PUSH, ...encodeUintvar(headers.length), ...headers],
    push.body,
  );
}

function typeName(code: number): string {
  const hit = Object.entries(WSP_CONTENT_TYPES).find(([, c]) => c === code);
  return hit ? hit[0] : `0x${code.toString(16)}`;
}

export function decodeWspPush(bytes: Uint8Array): WspPush {
  if (bytes.length < 3) throw new SmartCodecError('WSP push PDU is truncated', 0);
  const transactionId = bytes[0]!;
  if (bytes[1] !== WSP_PDU_PUSH)
    throw new SmartCodecError(`WSP PDU type 0x${bytes[1]!.toString(16)} is not Push (0x06)`, 1);
  const hl = decodeUintvar(bytes, 2);
  const start = 2 + hl.length;
  const end = start + hl.value;
  if (end > bytes.length) throw new SmartCodecError('WSP headers run past the PDU', start);
  const h = bytes.subarray(start, end);
  let at: number;
  let contentType: string;
  let charset: number | undefined;
  const first = h[0];
  if (first === undefined) throw new SmartCodecError('WSP push has no content type', start);
  if (first >= 0x80) {
    contentType = typeName(first & 0x7f);
    at = 1;
  } else if (first <= 0x1f) {
    let len = first;
    at = 1;
    if (first === 0x1f) {
      const u = decodeUintvar(h, 1);
      len = u.value;
      at = 1 + u.length;
    }
    const valueEnd = at + len;
    const m = h[at]!;
    if (m >= 0x80) {
      contentType = typeName(m & 0x7f);
      at++;
    } else {
      const z = h.indexOf(0, at);
      contentType = new TextDecoder().decode(h.subarray(at, z));
      at = z + 1;
    }
    while (at < valueEnd) {
      const p = h[at++]!;
      if (p === (0x80 | PARAM_CHARSET)) {
        const v = h[at]!;
        if (v >= 0x80) {
          charset = v & 0x7f;
          at++;
        } else {
          charset = 0;
          for (let i = 0; i < v; i++) charset = charset * 256 + h[at + 1 + i]!;
          at += 1 + v;
        }
      } else at = valueEnd; // other parameters are skipped
    }
    at = valueEnd;
  } else {
    const z = h.indexOf(0);
    contentType = new TextDecoder().decode(h.subarray(0, z));
    at = z + 1;
  }
  const push: WspPush = { transactionId, contentType, body: bytes.slice(end) };
  if (charset !== undefined) push.charset = charset;
  while (at < h.length) {
    const name = h[at++]!;
    const v = h[at];
    if (name === (0x80 | HEADER_APPLICATION_ID) && v !== undefined && v >= 0x80) {
      push.applicationId = v & 0x7f;
      at++;
    } else break; // other headers are not needed by the virtual phone
  }
  return push;
}
