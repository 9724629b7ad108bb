// The SMS-SUBMIT user data header (3GPP TS 23.040 9.2.3.24) and data coding scheme (23.038 4):
// the smart-messaging ports, the information elements the codecs use, UDH building and parsing.
import { SmartCodecError } from './bytes.ts';

/** Destination ports of the smart messages (Nokia Smart Messaging, WAP/WDP). */
export const SMART_PORTS = {
  ringtone: 5505,
  operatorLogo: 5506,
  groupGraphic: 5507,
  pictureMessage: 5514,
  vcard: 9204,
  vcalendar: 9205,
  wapPush: 2948,
  /** WAP connectionless session source port (WSP). */
  wapSource: 9200,
} as const;

export const IEI = {
  concat8: 0x00,
  ports8: 0x04,
  ports16: 0x05,
  concat16: 0x08,
} as const;

export const DCS = {
  gsm7: 0x00,
  ucs2: 0x08,
  flashGsm7: 0x10,
  flashUcs2: 0x18,
  /** 8-bit data, message class 1 (ME-specific): what Nokia smart messages use. */
  data8Class1: 0xf5,
  /** 8-bit data, no message class. */
  data8: 0x04,
} as const;

export type Alphabet = 'GSM-7' | '8-bit' | 'UCS-2';

export interface InformationElement {
  iei: number;
  data: Uint8Array;
}

export interface ParsedUdh {
  elements: InformationElement[];
  ports?: { dest: number; src: number };
  concat?: { ref: number; total: number; seq: number };
}

/** A UDH with a 16-bit application port addressing IE: 06 05 04 dd dd ss ss. */
export function buildPortUdh(destPort: number, srcPort = 0): Uint8Array {
  return buildUdh([portIe(destPort, srcPort)]);
}

export function portIe(destPort: number, srcPort: number): InformationElement {
  for (const p of [destPort, srcPort]) {
    if (!Number.isInteger(p) || p < 0 || p > 0xffff) throw new SmartCodecError(`port ${p} is not 0..65535`);
  }
  return {
    iei: IEI.ports16,
    data: Uint8Array.of(destPort >> 8, destPort & 0xff, srcPort >> 8, srcPort & 0xff),
  };
}

export function concatIe(ref: number, total: number, seq: number, wide: boolean): InformationElement {
  return wide
    ? { iei: IEI.concat16, data: Uint8Array.of((ref >> 8) & 0xff, ref & 0xff, total, seq) }
    : { iei: IEI.concat8, data: Uint8Array.of(ref & 0xff, total, seq) };
}

/** Serialises IEs into a UDH with its leading length octet (empty array → empty UDH). */
export function buildUdh(elements: readonly InformationElement[]): Uint8Array {
  if (elements.length === 0) return new Uint8Array(0);
  const body: number[] = [];
  for (const ie of elements) body.push(ie.iei, ie.data.length, ...ie.data);
  if (body.length > 139) throw new SmartCodecError('UDH longer than 139 octets');
  return Uint8Array.of(body.length, ...body);
}

/** Parses a UDH (with its leading length octet). */
export function parseUdh(udh: Uint8Array): ParsedUdh {
  const out: ParsedUdh = { elements: [] };
  if (udh.length === 0) return out;
  const len = udh[0]!;
  if (len + 1 > udh.length) throw new SmartCodecError(`UDH length ${len} exceeds the data`, 0);
  let i = 1;
  while (i < len + 1) {
    const iei = udh[i]!;
    const l = udh[i + 1];
    if (l === undefined || i + 2 + l > len + 1)
      throw new SmartCodecError(`UDH element 0x${iei.toString(16)} is truncated`, i);
    const data = udh.slice(i + 2, i + 2 + l);
    out.elements.push({ iei, data });
    if (iei === IEI.ports16 && l === 4)
      out.ports = { dest: (data[0]! << 8) | data[1]!, src: (data[2]! << 8) | data[3]! };
    else if (iei === IEI.ports8 && l === 2) out.ports = { dest: data[0]!, src: data[1]! };
    else if (iei === IEI.concat8 && l === 3) out.concat = { ref: data[0]!, total: data[1]!, seq: data[2]! };
    else if (iei === IEI.concat16 && l === 4)
      out.concat = { ref: (data[0]! << 8) | data[1]!, total: data[2]!, seq: data[3]! };
    i += 2 + l;
  }
  return out;
}

/** Alphabet and message class of a TP-DCS (23.038 section 4). */
export function describeDcs(dcs: number): {
  alphabet: Alphabet;
  messageClass?: 0 | 1 | 2 | 3;
  compressed: boolean;
} {
  const cls = (dcs & 3) as 0 | 1 | 2 | 3;
  if ((dcs & 0xc0) === 0x00 || (dcs & 0xc0) === 0x40) {
    const alpha = (dcs >> 2) & 3;
    const alphabet: Alphabet = alpha === 1 ? '8-bit' : alpha === 2 ? 'UCS-2' : 'GSM-7';
    const res: { alphabet: Alphabet; messageClass?: 0 | 1 | 2 | 3; compressed: boolean } = {
      alphabet,
      compressed: (dcs & 0x20) !== 0,
    };
    if (dcs & 0x10) res.messageClass = cls;
    return res;
  }
  if ((dcs & 0xf0) === 0xf0)
    return { alphabet: dcs & 4 ? '8-bit' : 'GSM-7', messageClass: cls, compressed: false };
  if ((dcs & 0xf0) === 0xe0) return { alphabet: 'UCS-2', compressed: false };
  return { alphabet: 'GSM-7', compressed: false };
}
