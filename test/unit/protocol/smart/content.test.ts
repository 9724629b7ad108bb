// The path the gateway's network simulator and the app's virtual phone share:
// content → SMS-SUBMIT PDUs → (shuffled, interleaved) → content.
import { describe, expect, it } from 'vitest';
import * as smart from '../../../../protocol/smart/index.ts';
import type { SmartContent } from '../../../../protocol/smart/index.ts';

const TO = '447700900123';
const rows = (h: number): string[] =>
  Array.from({ length: h }, (_, y) =>
    Array.from({ length: 72 }, (_, x) => ((x ^ y) & 4 ? '#' : '.')).join(''),
  );

describe('encodeContentToPdus / decodePdusToContent', () => {
  const song = smart.parseRtttl('Tune:d=8,o=5,b=140:c,e,g,c6,4p,g.,2c');
  const cases: Array<{ content: SmartContent; expected?: smart.DecodedContent; port?: number }> = [
    { content: { kind: 'text', text: 'Hello {world} €' } },
    { content: { kind: 'text', text: 'Long text '.repeat(40) } },
    { content: { kind: 'flash', text: 'Сейчас же!' } },
    {
      content: { kind: 'ringtone', song: smart.formatRtttl(song) },
      expected: { kind: 'ringtone', song },
      port: 5505,
    },
    {
      content: { kind: 'operatorLogo', mcc: 234, mnc: 15, bitmap: smart.bitmapFromRows(rows(14)) },
      port: 5506,
    },
    { content: { kind: 'groupGraphic', bitmap: smart.bitmapFromRows(rows(14)) }, port: 5507 },
    { content: { kind: 'pictureMessage', bitmap: smart.bitmapFromRows(rows(28)), text: 'Hi' }, port: 5514 },
    {
      content: {
        kind: 'vcard',
        vcard: smart.buildVCard({
          name: { family: 'Doe', given: 'Jo' },
          phones: [{ number: '+447700900123', types: ['CELL'] }],
          emails: [],
        }),
      },
      port: 9204,
    },
    {
      content: {
        kind: 'vcalendar',
        vcalendar: smart.buildVCalendar({ events: [{ summary: 'Lunch', start: '2026-11-23T12:00:00Z' }] }),
      },
      port: 9205,
    },
    {
      content: {
        kind: 'wapPushSi',
        si: { href: 'https://example.com/offer', siId: 'o1', action: 'signal-medium', text: 'New offer' },
      },
      port: 2948,
    },
    {
      content: {
        kind: 'mmsNotification',
        notification: {
          transactionId: 't',
          messageClass: 'personal',
          messageSize: 1000,
          expirySeconds: 3600,
          contentLocation: 'http://m.example.com/1',
          version: '1.2',
        },
      },
      port: 2948,
    },
  ];

  it('every kind comes back as it went, even with all PDUs interleaved and reversed', () => {
    const all: Uint8Array[] = [];
    cases.forEach((c, i) => {
      const pdus = smart.encodeContentToPdus(c.content, TO, { concatRef: i + 1 });
      for (const p of pdus) {
        const d = smart.decodeSubmitPdu(p.pdu);
        expect(d.to).toBe(TO);
        if (c.port !== undefined) {
          expect(d.udh.ports?.dest, c.content.kind).toBe(c.port);
          expect(d.alphabet).toBe('8-bit');
        }
      }
      all.push(...pdus.map((p) => p.pdu));
    });
    const received = smart.decodePdusToContent(all.reverse());
    const byKind = received.map((r) => r.content);
    expect(received.every((r) => r.complete && r.error === undefined)).toBe(true);
    expect(byKind).toHaveLength(cases.length);
    for (const c of cases) expect(byKind).toContainEqual(c.expected ?? c.content);
  });

  it('flash text is class 0 and stays flash; raw PDUs keep their DCS, PID and ports', () => {
    const [flash] = smart.decodePdusToContent(
      smart.encodeContentToPdus({ kind: 'flash', text: 'x' }, TO).map((p) => p.pdu),
    );
    expect(flash?.content.kind).toBe('flash');
    const raw = smart.encodeContentToPdus(
      {
        kind: 'raw',
        dcs: 0xf5,
        pid: 0x00,
        udh: smart.buildPortUdh(1234, 5678),
        userData: Uint8Array.of(1, 2, 3),
      },
      TO,
    );
    expect(smart.decodePdusToContent(raw.map((p) => p.pdu))).toEqual([
      {
        to: TO,
        parts: 1,
        complete: true,
        content: {
          kind: 'binary',
          dcs: 0xf5,
          pid: 0,
          destPort: 1234,
          srcPort: 5678,
          data: Uint8Array.of(1, 2, 3),
        },
      },
    ]);
  });

  it('a payload that does not decode as its port says comes back as binary with the reason', () => {
    const bad = smart.buildSubmitPdus({
      kind: 'binary',
      to: TO,
      data: Uint8Array.of(9, 9, 9),
      destPort: 5505,
    });
    const [msg] = smart.decodePdusToContent(bad.map((p) => p.pdu));
    expect(msg?.content).toMatchObject({ kind: 'binary', destPort: 5505 });
    expect(msg?.error).toMatch(/command length/);
  });

  it('accepts hex strings for PDUs', () => {
    const hex = smart
      .encodeContentToPdus({ kind: 'text', text: 'hex' }, TO)
      .map((p) => smart.bytesToHex(p.pdu));
    expect(smart.decodePdusToContent(hex)[0]?.content).toEqual({ kind: 'text', text: 'hex' });
  });
});
