// Every decoder, fed truncated or corrupted bytes, either decodes something or throws
// SmartCodecError with a reason: never a TypeError/RangeError from deep inside, never a hang.
import { describe, expect, it } from 'vitest';
import * as smart from '../../../../protocol/smart/index.ts';

/** Small deterministic PRNG (mulberry32) so that failures reproduce. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutations(valid: Uint8Array, seed: number): Uint8Array[] {
  const r = rng(seed);
  const out: Uint8Array[] = [];
  for (let cut = 0; cut < valid.length; cut += Math.max(1, Math.floor(valid.length / 25)))
    out.push(valid.slice(0, cut));
  for (let i = 0; i < 500; i++) {
    const m = valid.slice();
    const flips = 1 + Math.floor(r() * 3);
    for (let f = 0; f < flips; f++) m[Math.floor(r() * m.length)] = Math.floor(r() * 256);
    out.push(m);
  }
  return out;
}

function expectOnlyCodecErrors(name: string, inputs: Uint8Array[], decode: (b: Uint8Array) => unknown): void {
  for (const input of inputs) {
    try {
      decode(input);
    } catch (e) {
      if (!(e instanceof smart.SmartCodecError)) {
        throw new Error(`${name}(${smart.bytesToHex(input)}) threw ${String(e)}`, { cause: e });
      }
    }
  }
}

const bitmap = smart.bitmapFromRows(Array.from({ length: 28 }, (_, y) => '#.'.repeat(36).slice(y % 2)));
const logoBitmap = smart.bitmapFromRows(Array.from({ length: 14 }, () => '##..'.repeat(18)));

describe('decoders under corruption', () => {
  it('each decoder throws SmartCodecError or returns', () => {
    const song = smart.parseRtttl('Fuzz:d=8,o=5,b=140,s=c,v=9,l=2:c,d#6.,4p,g7,32a4');
    const cases: Array<[string, Uint8Array, (b: Uint8Array) => unknown]> = [
      ['decodeNokiaRingtone', smart.encodeNokiaRingtone(song), smart.decodeNokiaRingtone],
      ['decodeOtaBitmap', smart.encodeOtaBitmap(bitmap), smart.decodeOtaBitmap],
      [
        'decodeOperatorLogo',
        smart.encodeOperatorLogo({ mcc: 262, mnc: 1, bitmap: logoBitmap }),
        smart.decodeOperatorLogo,
      ],
      [
        'decodePictureMessage',
        smart.encodePictureMessage({ bitmap, text: 'Hi ☺' }),
        smart.decodePictureMessage,
      ],
      [
        'decodeSi',
        smart.encodeSi({
          href: 'http://www.a.com/x',
          siId: 'i',
          created: '2026-01-02T03:04:05Z',
          action: 'signal-high',
          text: 't',
          info: [{ class: 'c', text: 'x' }],
        }),
        smart.decodeSi,
      ],
      [
        'decodeWspPush',
        smart.encodeWspPush({
          transactionId: 1,
          contentType: 'application/vnd.wap.sic',
          charset: 106,
          body: Uint8Array.of(1),
        }),
        smart.decodeWspPush,
      ],
      [
        'decodeMmsNotification',
        smart.encodeMmsNotification({
          transactionId: 't',
          from: '+44/TYPE=PLMN',
          subject: 'Ü',
          messageClass: 'personal',
          messageSize: 5,
          expirySeconds: 9,
          contentLocation: 'http://x',
        }),
        smart.decodeMmsNotification,
      ],
    ];
    for (const [name, valid, decode] of cases) {
      expect(() => decode(valid), name).not.toThrow();
      expectOnlyCodecErrors(name, mutations(valid, name.length * 3), decode);
    }
  });

  it('SMS-SUBMIT decoding and reassembly never fail with anything but SmartCodecError', () => {
    const pdus = [
      ...smart.encodeContentToPdus({ kind: 'text', text: 'Grüße ' + 'x'.repeat(200) }, '447700900123', {
        concatRef: 1,
      }),
      ...smart.encodeContentToPdus({ kind: 'pictureMessage', bitmap }, '447700900123', { concatRef: 2 }),
      ...smart.encodeContentToPdus({ kind: 'wapPushSi', si: { href: 'https://a.org/' } }, '447700900123'),
    ].map((p) => p.pdu);
    for (const [i, pdu] of pdus.entries()) {
      expectOnlyCodecErrors('decodeSubmitPdu', mutations(pdu, i + 1 + 5 * 1000), (b) =>
        smart.decodeSubmitPdu(b),
      );
      expectOnlyCodecErrors('decodePdusToContent', mutations(pdu, i + 1 + 5 * 1000), (b) =>
        smart.decodePdusToContent([b]),
      );
    }
  });

  it('text parsers report errors instead of crashing', () => {
    const r = rng(7);
    const alphabet = 'abcdefghp#.:,=0123456789 dobslv';
    for (let i = 0; i < 2000; i++) {
      const text = Array.from(
        { length: Math.floor(r() * 30) },
        () => alphabet[Math.floor(r() * alphabet.length)],
      ).join('');
      try {
        smart.parseRtttl(text);
      } catch (e) {
        expect(e, text).toBeInstanceOf(smart.RtttlError);
      }
    }
    for (const text of [
      '',
      'BEGIN:VCARD',
      'BEGIN:VCARD\r\nN\r\nEND:VCARD',
      'BEGIN:VCALENDAR\r\nEND:VCALENDAR',
      'x:y',
    ]) {
      for (const parse of [smart.parseVCard, smart.parseVCalendar]) {
        try {
          parse(text);
        } catch (e) {
          expect(e, text).toBeInstanceOf(smart.SmartCodecError);
        }
      }
    }
  });

  it('vCard and vCalendar parsers answer corrupted text with SmartCodecError only', () => {
    const cal = smart.buildVCalendar({
      events: [
        {
          summary: 'Tëam; x',
          start: '2026-11-23T09:30:00Z',
          end: '2026-11-23T10:00:00Z',
          description: 'a\nb',
          alarm: '2026-11-23T09:15:00Z',
        },
      ],
    });
    const card = smart.buildVCard({
      name: { family: 'Müller', given: 'J' },
      phones: [{ number: '+44', types: ['CELL'] }],
      emails: [],
      note: 'n',
    });
    const r = rng(3);
    const chars = ':;=\r\n ,"\\ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789TZ-';
    for (const [text, parse] of [
      [cal, smart.parseVCalendar],
      [card, smart.parseVCard],
    ] as const) {
      for (let i = 0; i < 1500; i++) {
        const a = text.split('');
        for (let k = 0; k < 1 + Math.floor(r() * 4); k++) {
          const pos = Math.floor(r() * a.length);
          const c = chars[Math.floor(r() * chars.length)]!;
          const op = r();
          if (op < 0.4) a[pos] = c;
          else if (op < 0.7) a.splice(pos, 1);
          else a.splice(pos, 0, c);
        }
        const mutated = a.join('');
        try {
          (parse as (t: string) => unknown)(mutated);
        } catch (e) {
          expect(e, mutated).toBeInstanceOf(smart.SmartCodecError);
        }
      }
    }
  });
});
