// A field-by-field breakdown of an SMS-SUBMIT TPDU for the app's PDU expert mode: every octet range
// with its hex and what it means, in the order it appears on the wire.
import { SmartCodecError, bytesToHex, hexToBytes } from './bytes.ts';
import { IEI, SMART_PORTS, decodeSubmitPdu, describeDcs } from './sms-submit.ts';

export interface PduField {
  /** Short field name, e.g. "TP-DCS". */
  field: string;
  /** Octet offset in the TPDU. */
  offset: number;
  hex: string;
  meaning: string;
}

const PORT_NAMES: Record<number, string> = {
  [SMART_PORTS.ringtone]: 'Nokia ringtone',
  [SMART_PORTS.operatorLogo]: 'Nokia operator logo',
  [SMART_PORTS.groupGraphic]: 'Nokia group graphic (CLI icon)',
  [SMART_PORTS.pictureMessage]: 'Nokia picture message',
  [SMART_PORTS.vcard]: 'vCard',
  [SMART_PORTS.vcalendar]: 'vCalendar',
  [SMART_PORTS.wapPush]: 'WAP push (WSP)',
  [SMART_PORTS.wapSource]: 'WAP connectionless session',
};

const IEI_NAMES: Record<number, string> = {
  [IEI.concat8]: 'concatenated SMS, 8-bit reference',
  [IEI.ports8]: 'application ports, 8-bit',
  [IEI.ports16]: 'application ports, 16-bit',
  [IEI.concat16]: 'concatenated SMS, 16-bit reference',
};

function portName(p: number): string {
  return PORT_NAMES[p] ? `${p} (${PORT_NAMES[p]})` : String(p);
}

/** Explains a bare SMS-SUBMIT TPDU (bytes or hex). Throws SmartCodecError when it does not decode. */
export function explainSubmitPdu(input: Uint8Array | string): PduField[] {
  const pdu = typeof input === 'string' ? hexToBytes(input) : input;
  const d = decodeSubmitPdu(pdu);
  const out: PduField[] = [];
  const add = (field: string, offset: number, length: number, meaning: string): void => {
    out.push({ field, offset, hex: bytesToHex(pdu.subarray(offset, offset + length)), meaning });
  };
  const first = pdu[0]!;
  const vpf = (first >> 3) & 3;
  const flags = [
    'SMS-SUBMIT',
    first & 0x04 ? 'reject duplicates' : '',
    [
      'no validity period',
      'enhanced validity period',
      'relative validity period',
      'absolute validity period',
    ][vpf]!,
    first & 0x20 ? 'status report requested' : '',
    first & 0x40 ? 'user data header present' : '',
    first & 0x80 ? 'reply path' : '',
  ].filter(Boolean);
  add('first octet', 0, 1, flags.join(', '));
  add('TP-MR', 1, 1, `message reference ${d.messageReference}`);
  const addrOctets = Math.ceil(pdu[2]! / 2);
  add(
    'TP-DA',
    2,
    2 + addrOctets,
    `${d.toInternational ? 'international ' : ''}number ${d.to} (${pdu[2]} digits)`,
  );
  let at = 4 + addrOctets;
  add('TP-PID', at, 1, d.pid === 0 ? 'plain short message' : `protocol identifier 0x${d.pid.toString(16)}`);
  at++;
  const dcs = describeDcs(d.dcs);
  add(
    'TP-DCS',
    at,
    1,
    `${dcs.alphabet}${dcs.messageClass !== undefined ? `, class ${dcs.messageClass}${dcs.messageClass === 0 ? ' (flash)' : ''}` : ''}`,
  );
  at++;
  if (vpf === 2) {
    add('TP-VP', at, 1, `relative validity period 0x${pdu[at]!.toString(16)}`);
    at++;
  } else if (vpf !== 0) {
    add('TP-VP', at, 7, 'validity period');
    at += 7;
  }
  add('TP-UDL', at, 1, `${pdu[at]} ${d.alphabet === 'GSM-7' ? 'septets' : 'octets'} of user data`);
  at++;
  if (d.udhBytes.length) {
    add('UDHL', at, 1, `user data header of ${d.udhBytes.length - 1} octets`);
    let ie = at + 1;
    for (const e of d.udh.elements) {
      let meaning = IEI_NAMES[e.iei] ?? `information element 0x${e.iei.toString(16)}`;
      if (e.iei === IEI.ports16 || e.iei === IEI.ports8) {
        meaning += `: to ${portName(d.udh.ports!.dest)} from ${portName(d.udh.ports!.src)}`;
      } else if ((e.iei === IEI.concat8 || e.iei === IEI.concat16) && d.udh.concat) {
        meaning += `: reference ${d.udh.concat.ref}, part ${d.udh.concat.seq} of ${d.udh.concat.total}`;
      }
      add(`IEI 0x${e.iei.toString(16).padStart(2, '0')}`, ie, 2 + e.data.length, meaning);
      ie += 2 + e.data.length;
    }
    at += d.udhBytes.length;
  }
  if (at > pdu.length) throw new SmartCodecError('PDU ends inside its header', pdu.length);
  const ud = d.text !== undefined ? `text "${d.text}"` : `${d.userData.length} octets of data`;
  add('TP-UD', at, pdu.length - at, ud);
  return out;
}
