// SMS-SUBMIT TPDU (3GPP TS 23.040 9.2.2.2) with User Data Header (9.2.3.24): what the gateway's
// simulated SMSC receives and what the app's virtual phone decodes.
//
// The PDUs here are bare TPDUs (no leading SMSC address octet), exactly the bytes of TP-MTI..TP-UD.
//   first octet: MTI=01 | RD | VPF | SRR | UDHI | RP
//   TP-MR | TP-DA (digit count, TON/NPI, semi-octets) | TP-PID | TP-DCS | [TP-VP] | TP-UDL | TP-UD
// TP-UDL counts septets for GSM-7 (UDH and fill bits included) and octets otherwise.
import { SmartCodecError, concatBytes, hexToBytes } from './bytes.ts';
import {
  decodeGsm7,
  decodeUcs2,
  encodeGsm7,
  encodeUcs2,
  packSeptets,
  splitText,
  unpackSeptets,
} from '../sms.ts';
import { DCS, buildUdh, concatIe, describeDcs, parseUdh, portIe } from './udh.ts';
import type { Alphabet, ParsedUdh } from './udh.ts';

export interface SubmitPduPart {
  dcs: number;
  pid: number;
  /** Whole UDH including its length octet; empty when there is none. */
  udh: Uint8Array;
  /** TP-UD after the UDH: packed septets (with fill bits) for GSM-7, octets otherwise. */
  userData: Uint8Array;
  /** The complete TPDU. */
  pdu: Uint8Array;
}

export interface CommonOptions {
  /** Recipient, international digits (a leading '+' is accepted). */
  to: string;
  /** TP-MR, default 0. */
  messageReference?: number;
  /** TP-PID, default 0. */
  pid?: number;
  /** Relative validity period octet (TP-VPF=10); absent = no VP. */
  validityPeriod?: number;
  statusReportRequest?: boolean;
  /** Concatenation reference; by default a module counter. */
  concatRef?: number;
  /**
   * Binary messages only: use the 16-bit reference IE (0x08) instead of 0x00. Text always uses
   * 0x00, whose 6-octet UDH is what the 153/67 split of protocol/sms.ts allows for.
   */
  concat16?: boolean;
}

export type SubmitMessage =
  | (CommonOptions & { kind: 'text'; text: string; flash?: boolean })
  | (CommonOptions & {
      kind: 'binary';
      data: Uint8Array;
      destPort?: number;
      srcPort?: number;
      /** Default 0xF5 (8-bit, class 1). */
      dcs?: number;
    })
  | (CommonOptions & {
      kind: 'raw';
      dcs: number;
      /** UDH including its length octet (may be empty). */
      udh: Uint8Array;
      /** TP-UD after the UDH, in the form the DCS calls for (octets; for GSM-7, septet values unpacked). */
      userData?: Uint8Array;
      /** Text placed as user data (GSM-7 or UCS-2 according to the DCS) instead of userData. */
      text?: string;
    });

let refCounter = 0;
function nextRef(): number {
  refCounter = (refCounter + 1) & 0xff;
  return refCounter;
}

function encodeAddress(to: string): Uint8Array {
  const digits = to.startsWith('+') ? to.slice(1) : to;
  if (!/^\d{1,20}$/.test(digits))
    throw new SmartCodecError(`destination "${to}" is not international digits`);
  const out = [digits.length, 0x91];
  for (let i = 0; i < digits.length; i += 2) {
    const lo = Number(digits[i]);
    const hi = i + 1 < digits.length ? Number(digits[i + 1]) : 0xf;
    out.push((hi << 4) | lo);
  }
  return Uint8Array.from(out);
}

/** protocol/sms.ts throws RangeError on bad input; here it becomes a SmartCodecError with a position. */
function codecGuard<T>(position: number, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof RangeError || e instanceof TypeError) throw new SmartCodecError(e.message, position);
    throw e;
  }
}

function decodeAddress(pdu: Uint8Array, at: number): { address: string; toa: number; length: number } {
  const digits = pdu[at];
  const toa = pdu[at + 1];
  if (digits === undefined || toa === undefined)
    throw new SmartCodecError('destination address is truncated', at);
  const octets = Math.ceil(digits / 2);
  if (at + 2 + octets > pdu.length) throw new SmartCodecError('destination address is truncated', at);
  let address = '';
  if ((toa & 0x70) === 0x50) {
    // alphanumeric (GSM-7 packed); only for completeness, SMS-SUBMIT normally has digits
    address = codecGuard(at, () =>
      decodeGsm7(unpackSeptets(pdu.slice(at + 2, at + 2 + octets), Math.floor((digits * 4) / 7))),
    );
  } else {
    for (let i = 0; i < digits; i++) {
      const b = pdu[at + 2 + (i >> 1)]!;
      const d = i & 1 ? b >> 4 : b & 0xf;
      address += d < 10 ? String(d) : ('*#abc'[d - 10] ?? '');
    }
  }
  return { address, toa, length: 2 + octets };
}

interface RawPart {
  dcs: number;
  udh: Uint8Array;
  /** Octets (8-bit/UCS-2) or unpacked septets (GSM-7). */
  body: Uint8Array | number[];
}

function assemble(opts: CommonOptions, pid: number, part: RawPart): SubmitPduPart {
  const alphabet = describeDcs(part.dcs).alphabet;
  let userData: Uint8Array;
  let udl: number;
  if (alphabet === 'GSM-7') {
    const udhBits = part.udh.length * 8;
    const fill = part.udh.length ? (7 - (udhBits % 7)) % 7 : 0;
    const septets = Array.from(part.body);
    userData = packSeptets(septets, fill);
    udl = (udhBits + fill) / 7 + septets.length;
    if (udl > 160) throw new SmartCodecError(`user data of ${udl} septets exceeds 160`);
  } else {
    userData = Uint8Array.from(part.body);
    udl = part.udh.length + userData.length;
    if (udl > 140) throw new SmartCodecError(`user data of ${udl} octets exceeds 140`);
  }
  let first = 0x01;
  if (opts.validityPeriod !== undefined) first |= 0x10;
  if (opts.statusReportRequest) first |= 0x20;
  if (part.udh.length) first |= 0x40;
  const header = [first, (opts.messageReference ?? 0) & 0xff];
  const tail = [pid & 0xff, part.dcs & 0xff];
  if (opts.validityPeriod !== undefined) tail.push(opts.validityPeriod & 0xff);
  tail.push(udl);
  const pdu = concatBytes(header, encodeAddress(opts.to), tail, part.udh, userData);
  return { dcs: part.dcs, pid: pid & 0xff, udh: part.udh, userData, pdu };
}

/** The PDU as AT+CMGS and gammu expect it: an empty SMSC address octet (00) before the TPDU. */
export function withEmptySmsc(pdu: Uint8Array): Uint8Array {
  return concatBytes([0x00], pdu);
}

/** Builds the SMS-SUBMIT PDUs of one message, concatenated when it does not fit one SMS. */
export function buildSubmitPdus(msg: SubmitMessage): SubmitPduPart[] {
  const pid = msg.pid ?? 0;
  if (msg.kind === 'raw') {
    let body: Uint8Array | number[];
    if (msg.text !== undefined) {
      const alphabet = describeDcs(msg.dcs).alphabet;
      if (alphabet === 'GSM-7') {
        const s = encodeGsm7(msg.text);
        if (!s)
          throw new SmartCodecError('text has characters outside the GSM 03.38 alphabet for a GSM-7 DCS');
        body = s;
      } else if (alphabet === 'UCS-2') body = encodeUcs2(msg.text);
      else body = new TextEncoder().encode(msg.text);
    } else body = msg.userData ?? new Uint8Array(0);
    if (msg.udh.length && msg.udh[0] !== msg.udh.length - 1) {
      throw new SmartCodecError(
        `UDH length octet ${msg.udh[0]} does not match its ${msg.udh.length - 1} following octets`,
        0,
      );
    }
    return [assemble(msg, pid, { dcs: msg.dcs, udh: msg.udh, body })];
  }
  if (msg.kind === 'text') {
    const split = splitText(msg.text);
    const ucs2 = split.encoding === 'UCS-2';
    const dcs = msg.flash ? (ucs2 ? DCS.flashUcs2 : DCS.flashGsm7) : ucs2 ? DCS.ucs2 : DCS.gsm7;
    const bodies = split.parts.map((p) => {
      if (ucs2) return encodeUcs2(p);
      const s = encodeGsm7(p);
      if (!s) throw new SmartCodecError('text part is not GSM-7 encodable');
      return s;
    });
    if (bodies.length <= 1)
      return [assemble(msg, pid, { dcs, udh: new Uint8Array(0), body: bodies[0] ?? [] })];
    const ref = msg.concatRef ?? nextRef();
    return bodies.map((body, i) =>
      assemble(msg, pid, { dcs, udh: buildUdh([concatIe(ref, bodies.length, i + 1, false)]), body }),
    );
  }
  // binary
  const dcs = msg.dcs ?? DCS.data8Class1;
  if (describeDcs(dcs).alphabet !== '8-bit')
    throw new SmartCodecError(`DCS 0x${dcs.toString(16)} is not an 8-bit data coding`);
  const baseIes = msg.destPort !== undefined ? [portIe(msg.destPort, msg.srcPort ?? 0)] : [];
  const single = buildUdh(baseIes);
  if (msg.data.length + single.length <= 140)
    return [assemble(msg, pid, { dcs, udh: single, body: msg.data })];
  const concatLen = msg.concat16 ? 6 : 5;
  const room = 140 - (single.length || 1) - concatLen;
  const total = Math.ceil(msg.data.length / room);
  if (total > 255) throw new SmartCodecError('message needs more than 255 parts');
  const ref = msg.concatRef ?? nextRef();
  const parts: SubmitPduPart[] = [];
  for (let i = 0; i < total; i++) {
    const udh = buildUdh([...baseIes, concatIe(ref, total, i + 1, Boolean(msg.concat16))]);
    parts.push(assemble(msg, pid, { dcs, udh, body: msg.data.slice(i * room, (i + 1) * room) }));
  }
  return parts;
}

export interface DecodedSubmitPdu {
  /** Destination digits (no '+'); see toInternational. */
  to: string;
  /** TON of the destination is international (TON/NPI 0x91). */
  toInternational: boolean;
  messageReference: number;
  pid: number;
  dcs: number;
  alphabet: Alphabet;
  messageClass?: 0 | 1 | 2 | 3;
  validityPeriod?: number;
  statusReportRequest: boolean;
  /** Raw UDH (with length octet), empty when absent. */
  udhBytes: Uint8Array;
  udh: ParsedUdh;
  /** User data after the UDH: octets for 8-bit/UCS-2, unpacked septet values for GSM-7. */
  userData: Uint8Array;
  /** Decoded text for GSM-7 and UCS-2. */
  text?: string;
}

/** Decodes a bare SMS-SUBMIT TPDU (accepts a hex string too). */
export function decodeSubmitPdu(
  input: Uint8Array | string,
  opts: { withSmsc?: boolean } = {},
): DecodedSubmitPdu {
  let pdu = typeof input === 'string' ? hexToBytes(input) : input;
  if (opts.withSmsc) {
    // AT+CMGS style: SMSC address length octet (0 = use the phone's default) and the address first
    const smscLength = pdu[0];
    if (smscLength === undefined || smscLength + 1 > pdu.length) {
      throw new SmartCodecError('SMSC address is truncated', 0);
    }
    pdu = pdu.slice(smscLength + 1);
  }
  if (pdu.length < 7) throw new SmartCodecError('PDU too short for an SMS-SUBMIT', 0);
  const first = pdu[0]!;
  if ((first & 3) !== 1) throw new SmartCodecError(`TP-MTI ${first & 3} is not SMS-SUBMIT (1)`, 0);
  const vpf = (first >> 3) & 3;
  const udhi = (first & 0x40) !== 0;
  const mr = pdu[1]!;
  const addr = decodeAddress(pdu, 2);
  let at = 2 + addr.length;
  const pid = pdu[at++];
  const dcs = pdu[at++];
  if (pid === undefined || dcs === undefined) throw new SmartCodecError('PDU truncated before TP-DCS', at);
  let validityPeriod: number | undefined;
  if (vpf === 2) validityPeriod = pdu[at++];
  else if (vpf === 1 || vpf === 3) at += 7;
  const udl = pdu[at++];
  if (udl === undefined) throw new SmartCodecError('PDU truncated before TP-UDL', at);
  const ud = pdu.slice(at);
  const info = describeDcs(dcs);
  let udhBytes: Uint8Array = new Uint8Array(0);
  if (udhi) {
    const l = ud[0];
    if (l === undefined || l + 1 > ud.length) throw new SmartCodecError('UDH truncated', at);
    udhBytes = ud.slice(0, l + 1);
  }
  const udh = parseUdh(udhBytes);
  const result: DecodedSubmitPdu = {
    to: addr.address,
    toInternational: (addr.toa & 0x70) === 0x10,
    messageReference: mr,
    pid,
    dcs,
    alphabet: info.alphabet,
    statusReportRequest: (first & 0x20) !== 0,
    udhBytes,
    udh,
    userData: new Uint8Array(0),
  };
  if (info.messageClass !== undefined) result.messageClass = info.messageClass;
  if (validityPeriod !== undefined) result.validityPeriod = validityPeriod;
  if (info.alphabet === 'GSM-7') {
    const udhBits = udhBytes.length * 8;
    const fill = udhBytes.length ? (7 - (udhBits % 7)) % 7 : 0;
    const udhSeptets = (udhBits + fill) / 7;
    const count = udl - udhSeptets;
    if (count < 0 || Math.ceil((udl * 7) / 8) > ud.length) {
      throw new SmartCodecError(
        `TP-UDL ${udl} septets does not match ${ud.length} octets of user data`,
        at - 1,
      );
    }
    const septets = codecGuard(at, () => unpackSeptets(ud.slice(udhBytes.length), count, fill));
    result.userData = Uint8Array.from(septets);
    result.text = codecGuard(at, () => decodeGsm7(septets));
  } else {
    if (udl > ud.length)
      throw new SmartCodecError(`TP-UDL ${udl} octets exceeds ${ud.length} octets present`, at - 1);
    result.userData = ud.slice(udhBytes.length, udl);
    if (info.alphabet === 'UCS-2') {
      const ucs2 = result.userData;
      result.text = codecGuard(at, () => decodeUcs2(ucs2));
    }
  }
  return result;
}
