// MMS m-notification-ind (OMA-MMS-ENC 1.2, section 6.2), the PDU a handset receives by WAP push
// (content type application/vnd.wap.mms-message) before it fetches the MMS.
// Header fields (name octet = 0x80 | field code):
//   X-Mms-Message-Type 0x8C = 0x82 m-notification-ind | X-Mms-Transaction-ID 0x98 text
//   X-Mms-MMS-Version 0x8D short int (0x90 = 1.0, 0x92 = 1.2) | From 0x89 | Subject 0x96
//   X-Mms-Message-Class 0x8A | X-Mms-Message-Size 0x8E long int | X-Mms-Expiry 0x88
//   X-Mms-Content-Location 0x83 text
import { SmartCodecError } from './bytes.ts';
import { decodeUintvar, encodeUintvar } from './wsp-push.ts';

export const MMS_MESSAGE_CLASSES = ['personal', 'advertisement', 'informational', 'auto'] as const;
export type MmsMessageClass = (typeof MMS_MESSAGE_CLASSES)[number];

export interface MmsNotification {
  transactionId: string;
  /** "1.0", "1.1", "1.2", ... */
  version?: string;
  /** Sender address, e.g. "+447700900123/TYPE=PLMN"; absent = insert-address-token. */
  from?: string;
  subject?: string;
  messageClass: MmsMessageClass;
  messageSize: number;
  /** Relative expiry in seconds (what the encoder writes unless expiresAt is given). */
  expirySeconds?: number;
  /** Absolute expiry, seconds since 1970-01-01 UTC. */
  expiresAt?: number;
  contentLocation: string;
}

const F = {
  contentLocation: 0x83,
  expiry: 0x88,
  from: 0x89,
  messageClass: 0x8a,
  messageType: 0x8c,
  version: 0x8d,
  messageSize: 0x8e,
  subject: 0x96,
  transactionId: 0x98,
} as const;
const M_NOTIFICATION_IND = 0x82;
const enc = new TextEncoder();

function textString(s: string): number[] {
  const b = Array.from(enc.encode(s));
  if (b.includes(0)) throw new SmartCodecError('MMS header text cannot contain NUL');
  return (b[0] ?? 0) >= 0x80 ? [0x7f, ...b, 0] : [...b, 0];
}

function longInteger(n: number): number[] {
  if (!Number.isInteger(n) || n < 0) throw new SmartCodecError(`${n} is not a non-negative integer`);
  const b: number[] = [];
  let v = n;
  do {
    b.unshift(v & 0xff);
    v = Math.floor(v / 256);
  } while (v > 0);
  return [b.length, ...b];
}

function valueLength(n: number): number[] {
  return n <= 30 ? [n] : [0x1f, ...encodeUintvar(n)];
}

export function encodeMmsNotification(n: MmsNotification): Uint8Array {
  const out: number[] = [F.messageType, M_NOTIFICATION_IND, F.transactionId, ...textString(n.transactionId)];
  const [maj, min] = (n.version ?? '1.2').split('.').map(Number) as [number, number | undefined];
  out.push(F.version, 0x80 | ((maj & 7) << 4) | ((min ?? 0) & 15));
  if (n.from !== undefined) {
    const v = [0x80, ...textString(n.from)];
    out.push(F.from, ...valueLength(v.length), ...v);
  } else out.push(F.from, 1, 0x81);
  if (n.subject !== undefined) {
    // Encoded-string-value: a plain text string when ASCII, else with the UTF-8 charset (106 → 0xEA)
    if (/^[\x20-\x7e]*$/.test(n.subject)) out.push(F.subject, ...textString(n.subject));
    else {
      const v = [0xea, ...textString(n.subject)];
      out.push(F.subject, ...valueLength(v.length), ...v);
    }
  }
  out.push(F.messageClass, 0x80 + MMS_MESSAGE_CLASSES.indexOf(n.messageClass));
  out.push(F.messageSize, ...longInteger(n.messageSize));
  if (n.expiresAt === undefined && n.expirySeconds === undefined) {
    throw new SmartCodecError('m-notification-ind needs expirySeconds or expiresAt');
  }
  const exp =
    n.expiresAt !== undefined
      ? [0x80, ...longInteger(n.expiresAt)]
      : [0x81, ...longInteger(n.expirySeconds!)];
  out.push(F.expiry, ...valueLength(exp.length), ...exp);
  out.push(F.contentLocation, ...textString(n.contentLocation));
  return Uint8Array.from(out);
}

export function decodeMmsNotification(bytes: Uint8Array): MmsNotification {
  let at = 0;
  const dec = new TextDecoder();
  const readText = (): string => {
    if (bytes[at] === 0x7f) at++;
    const z = bytes.indexOf(0, at);
    if (z < 0) throw new SmartCodecError('unterminated text string', at);
    const s = dec.decode(bytes.subarray(at, z));
    at = z + 1;
    return s;
  };
  const readValueLength = (): number => {
    const b = bytes[at++];
    if (b === undefined) throw new SmartCodecError('value length is truncated', at);
    if (b <= 30) return b;
    if (b === 0x1f) {
      const u = decodeUintvar(bytes, at);
      at += u.length;
      return u.value;
    }
    throw new SmartCodecError(`0x${b.toString(16)} is not a value length`, at - 1);
  };
  const readLong = (): number => {
    const len = bytes[at++]!;
    if (len > 8 || at + len > bytes.length) throw new SmartCodecError('long integer is malformed', at - 1);
    let v = 0;
    for (let i = 0; i < len; i++) v = v * 256 + bytes[at + i]!;
    at += len;
    return v;
  };
  const n: Partial<MmsNotification> = {};
  if (bytes[0] !== F.messageType || bytes[1] !== M_NOTIFICATION_IND) {
    throw new SmartCodecError('not an m-notification-ind (X-Mms-Message-Type 0x82 expected first)', 0);
  }
  at = 2;
  while (at < bytes.length) {
    const field = bytes[at++]!;
    switch (field) {
      case F.transactionId:
        n.transactionId = readText();
        break;
      case F.version: {
        const v = bytes[at++]!;
        n.version = `${(v >> 4) & 7}.${v & 15}`;
        break;
      }
      case F.from: {
        const len = readValueLength();
        const end = at + len;
        if (bytes[at] === 0x80) {
          at++;
          n.from = readText();
        }
        at = end;
        break;
      }
      case F.subject: {
        if ((bytes[at] ?? 0x20) <= 0x1f) {
          const len = readValueLength();
          const end = at + len;
          const cs = bytes[at]!;
          if (cs >= 0x80) at++;
          else at += 1 + cs; // long charset
          n.subject = readText();
          at = end;
        } else n.subject = readText();
        break;
      }
      case F.messageClass: {
        const c = bytes[at++]!;
        if (c >= 0x80 && c <= 0x83) n.messageClass = MMS_MESSAGE_CLASSES[c - 0x80]!;
        else {
          at--;
          n.messageClass = readText() as MmsMessageClass;
        }
        break;
      }
      case F.messageSize:
        n.messageSize = readLong();
        break;
      case F.expiry: {
        const len = readValueLength();
        const end = at + len;
        const token = bytes[at++];
        const v = readLong();
        if (token === 0x81) n.expirySeconds = v;
        else n.expiresAt = v;
        at = end;
        break;
      }
      case F.contentLocation:
        n.contentLocation = readText();
        break;
      default:
        throw new SmartCodecError(`unsupported MMS header field 0x${field.toString(16)}`, at - 1);
    }
  }
  if (n.expirySeconds === undefined && n.expiresAt === undefined) {
    throw new SmartCodecError('m-notification-ind lacks X-Mms-Expiry', bytes.length);
  }
  for (const k of ['transactionId', 'messageClass', 'messageSize', 'contentLocation'] as const) {
    if (n[k] === undefined) throw new SmartCodecError(`m-notification-ind lacks ${k}`, bytes.length);
  }
  return n as MmsNotification;
}
