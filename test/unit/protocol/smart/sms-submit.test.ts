import { describe, expect, it } from 'vitest';
import {
  DCS,
  buildPortUdh,
  buildSubmitPdus,
  bytesToHex,
  decodeSubmitPdu,
  describeDcs,
  parseUdh,
  withEmptySmsc,
} from '../../../../protocol/smart/sms-submit.ts';
import { gammuAvailable, gammuDecode } from './gammu.ts';

const TO = '447700900123';

describe('SMS-SUBMIT PDU', () => {
  it('builds a single GSM-7 PDU with the known 23.038 packing of "hellohello"', () => {
    const [part, ...rest] = buildSubmitPdus({ kind: 'text', to: '+' + TO, text: 'hellohello' });
    expect(rest).toHaveLength(0);
    // first octet 01, MR 00, DA 12 digits 91 semi-octets, PID 00, DCS 00, UDL 0A, UD
    expect(bytesToHex(part!.pdu)).toBe('01000C914477000910320000' + '0A' + 'E8329BFD4697D9EC37');
    const back = decodeSubmitPdu(part!.pdu);
    expect(back).toMatchObject({
      to: TO,
      toInternational: true,
      dcs: 0,
      pid: 0,
      alphabet: 'GSM-7',
      text: 'hellohello',
    });
    expect(back.messageClass).toBeUndefined();
  });

  it('encodes odd-length numbers with an F filler, validity period and status report flag', () => {
    const [part] = buildSubmitPdus({
      kind: 'text',
      to: '4477009001234',
      text: 'A',
      validityPeriod: 0xa7,
      statusReportRequest: true,
      messageReference: 5,
    });
    expect(bytesToHex(part!.pdu)).toBe('3105' + '0D91447700091032F4' + '0000A7' + '01' + '41');
    expect(decodeSubmitPdu(part!.pdu)).toMatchObject({
      to: '4477009001234',
      validityPeriod: 0xa7,
      statusReportRequest: true,
      messageReference: 5,
      text: 'A',
    });
  });

  it('splits long GSM-7 text into 153-septet parts with an 8-bit concatenation UDH and 1 fill bit', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(5) + '{€}';
    const parts = buildSubmitPdus({ kind: 'text', to: TO, text, concatRef: 0x42 });
    expect(parts).toHaveLength(2);
    parts.forEach((p, i) => {
      expect(bytesToHex(p.udh)).toBe(`0500034202${i === 0 ? '01' : '02'}`);
      expect(p.pdu[0]).toBe(0x41);
    });
    // first part: 7 UDH septets + 153 text septets = 160
    expect(parts[0]!.pdu[12]).toBe(160);
    expect(parts.map((p) => decodeSubmitPdu(p.pdu).text).join('')).toBe(text);
  });

  it('uses UCS-2 with 67 characters per part', () => {
    const text = 'Привет, мир! '.repeat(8);
    const parts = buildSubmitPdus({ kind: 'text', to: TO, text, concatRef: 0x34 });
    expect(parts).toHaveLength(2);
    expect(bytesToHex(parts[1]!.udh)).toBe('0500033402' + '02');
    const decoded = parts.map((p) => decodeSubmitPdu(p.pdu));
    expect(decoded[0]!.alphabet).toBe('UCS-2');
    expect(decoded[0]!.text).toHaveLength(67);
    expect(decoded.map((d) => d.text).join('')).toBe(text);
  });

  it('flash messages are class 0 (0x10 GSM, 0x18 UCS-2)', () => {
    expect(buildSubmitPdus({ kind: 'text', to: TO, text: 'Now!', flash: true })[0]!.dcs).toBe(DCS.flashGsm7);
    const ucs = buildSubmitPdus({ kind: 'text', to: TO, text: 'Сейчас!', flash: true })[0]!;
    expect(ucs.dcs).toBe(0x18);
    expect(decodeSubmitPdu(ucs.pdu)).toMatchObject({ messageClass: 0, text: 'Сейчас!' });
    expect(describeDcs(0xf5)).toEqual({ alphabet: '8-bit', messageClass: 1, compressed: false });
  });

  it('port-addressed binary data: 8-bit DCS F5, 06 05 04 port UDH, concatenated at 128 octets', () => {
    expect(bytesToHex(buildPortUdh(5505, 5505))).toBe('06050415811581');
    const data = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff);
    const parts = buildSubmitPdus({
      kind: 'binary',
      to: TO,
      data,
      destPort: 5505,
      srcPort: 5505,
      concatRef: 9,
    });
    expect(parts.map((p) => p.userData.length)).toEqual([128, 128, 44]);
    expect(bytesToHex(parts[2]!.udh)).toBe('0B0504158115810003090303');
    const decoded = parts.map((p) => decodeSubmitPdu(p.pdu));
    expect(decoded[0]!.udh.ports).toEqual({ dest: 5505, src: 5505 });
    expect(decoded[0]!.udh.concat).toEqual({ ref: 9, total: 3, seq: 1 });
    expect(decoded[0]!.dcs).toBe(0xf5);
    const joined = new Uint8Array(decoded.flatMap((d) => Array.from(d.userData)));
    expect(joined).toEqual(data);
    const wide = buildSubmitPdus({
      kind: 'binary',
      to: TO,
      data,
      destPort: 2948,
      srcPort: 9200,
      concatRef: 0x1234,
      concat16: true,
    });
    expect(bytesToHex(wide[0]!.udh)).toBe('0C05040B8423F008041234' + '0301');
    expect(wide.map((p) => p.userData.length)).toEqual([127, 127, 46]);
    const single = buildSubmitPdus({ kind: 'binary', to: TO, data: data.slice(0, 133), destPort: 9204 });
    expect(single).toHaveLength(1);
  });

  it('raw PDUs carry the caller DCS, PID and UDH, with text in place of user data', () => {
    const [p] = buildSubmitPdus({
      kind: 'raw',
      to: TO,
      dcs: 0x00,
      pid: 0x7f,
      udh: buildPortUdh(1234, 0),
      text: 'hi',
    });
    const d = decodeSubmitPdu(p!.pdu);
    expect(d).toMatchObject({ pid: 0x7f, dcs: 0, text: 'hi' });
    expect(d.udh.ports).toEqual({ dest: 1234, src: 0 });
    expect(() =>
      buildSubmitPdus({
        kind: 'raw',
        to: TO,
        dcs: 4,
        udh: Uint8Array.of(9, 5, 4),
        userData: new Uint8Array(1),
      }),
    ).toThrow(/UDH length octet/);
  });

  it('reads PDUs with an SMSC prefix as AT+CMGS uses them', () => {
    const [part] = buildSubmitPdus({ kind: 'text', to: TO, text: 'hellohello' });
    const prefixed = withEmptySmsc(part!.pdu);
    expect(bytesToHex(prefixed).startsWith('0001000C91')).toBe(true);
    expect(decodeSubmitPdu(prefixed, { withSmsc: true }).text).toBe('hellohello');
    const withAddress = '07914477000000F0' + bytesToHex(part!.pdu);
    expect(decodeSubmitPdu(withAddress, { withSmsc: true }).to).toBe(TO);
  });

  it('refuses malformed PDUs with a clear error', () => {
    expect(() => decodeSubmitPdu('00000C91447700091032')).toThrow(/SMS-SUBMIT/);
    expect(() => decodeSubmitPdu('01000C914477000910320000FF41')).toThrow(/TP-UDL/);
    expect(() => parseUdh(Uint8Array.of(5, 0, 3, 1))).toThrow(/exceeds/);
    expect(() => buildSubmitPdus({ kind: 'text', to: 'ACME', text: 'x' })).toThrow(/international digits/);
  });

  it.skipIf(!gammuAvailable)('python-gammu decodes the same number, text and concatenation', () => {
    const text = 'Grüße from the gateway — ' + 'x'.repeat(60);
    const parts = buildSubmitPdus({ kind: 'text', to: TO, text, concatRef: 77 });
    const gsm = buildSubmitPdus({
      kind: 'text',
      to: TO,
      text: 'Price: 10€ [ok] ' + 'y'.repeat(200),
      concatRef: 78,
    });
    const flash = buildSubmitPdus({ kind: 'text', to: TO, text: 'Flash!', flash: true });
    const g = gammuDecode([...parts, ...gsm, ...flash].map((p) => bytesToHex(p.pdu)));
    expect(g.messages[0].Number).toBe('+' + TO);
    expect(g.messages[0].Type).toBe('Submit');
    expect(g.messages[0].UDH.ID8bit).toBe(77);
    expect(g.messages.at(-1).Class).toBe(0);
    // DecodeSMS answers null for a single message without UDH: its text is on the message itself
    expect(g.decoded.at(-1)).toBeNull();
    expect(g.messages.at(-1).Text).toBe('Flash!');
    const texts = g.decoded
      .filter(Boolean)
      .map((d: { Entries: Array<{ Buffer: string }> }) => d.Entries[0]!.Buffer);
    expect(texts).toEqual([text, 'Price: 10€ [ok] ' + 'y'.repeat(200)]);
  });
});
