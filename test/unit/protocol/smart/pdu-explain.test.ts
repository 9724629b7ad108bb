import { describe, expect, it } from 'vitest';
import { bitmapFromRows, encodeContentToPdus, explainSubmitPdu } from '../../../../protocol/smart/index.ts';

describe('explainSubmitPdu', () => {
  it('names every field of a plain text PDU with its octets', () => {
    expect(explainSubmitPdu('01000C9144770009103200000AE8329BFD4697D9EC37')).toEqual([
      { field: 'first octet', offset: 0, hex: '01', meaning: 'SMS-SUBMIT, no validity period' },
      { field: 'TP-MR', offset: 1, hex: '00', meaning: 'message reference 0' },
      {
        field: 'TP-DA',
        offset: 2,
        hex: '0C91447700091032',
        meaning: 'international number 447700900123 (12 digits)',
      },
      { field: 'TP-PID', offset: 10, hex: '00', meaning: 'plain short message' },
      { field: 'TP-DCS', offset: 11, hex: '00', meaning: 'GSM-7' },
      { field: 'TP-UDL', offset: 12, hex: '0A', meaning: '10 septets of user data' },
      { field: 'TP-UD', offset: 13, hex: 'E8329BFD4697D9EC37', meaning: 'text "hellohello"' },
    ]);
  });

  it('explains ports and concatenation of a smart message', () => {
    const rows = Array.from({ length: 28 }, () => '#'.repeat(72));
    const [first] = encodeContentToPdus(
      { kind: 'pictureMessage', bitmap: bitmapFromRows(rows) },
      '447700900123',
      { concatRef: 9 },
    );
    const fields = explainSubmitPdu(first!.pdu);
    expect(fields.map((f) => f.field)).toEqual([
      'first octet',
      'TP-MR',
      'TP-DA',
      'TP-PID',
      'TP-DCS',
      'TP-UDL',
      'UDHL',
      'IEI 0x05',
      'IEI 0x00',
      'TP-UD',
    ]);
    expect(fields[0]!.meaning).toContain('user data header present');
    expect(fields[4]!.meaning).toBe('8-bit, class 1');
    expect(fields[7]).toMatchObject({
      hex: '0504158A0000',
      meaning: expect.stringContaining('to 5514 (Nokia picture message) from 0'),
    });
    expect(fields[8]).toMatchObject({
      hex: '0003090301',
      meaning: expect.stringContaining('reference 9, part 1 of 3'),
    });
    expect(fields[9]!.meaning).toBe('128 octets of data');
  });

  it('marks flash messages', () => {
    const [flash] = encodeContentToPdus({ kind: 'flash', text: 'now' }, '447700900123');
    expect(explainSubmitPdu(flash!.pdu).find((f) => f.field === 'TP-DCS')?.meaning).toBe(
      'GSM-7, class 0 (flash)',
    );
  });
});
