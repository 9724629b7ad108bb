import { describe, expect, it } from 'vitest';
import {
  GSM7_ESCAPE,
  analyzeText,
  decodeGsm7,
  decodeUcs2,
  encodeGsm7,
  encodeUcs2,
  isGsm7,
  packSeptets,
  splitText,
  unpackSeptets,
} from '../../../protocol/sms.ts';

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const CYRILLIC = 'Ж';
const EMOJI = '😀'; // U+1F600, a surrogate pair in UTF-16

/** Reference packer written the slow, obvious way: a bit string, least significant bit first. */
function referencePack(septets: number[], fillBits: number): string {
  let bits = '0'.repeat(fillBits);
  for (const s of septets) for (let b = 0; b < 7; b++) bits += (s >> b) & 1;
  while (bits.length % 8 !== 0) bits += '0';
  let out = '';
  for (let i = 0; i < bits.length; i += 8) {
    let byte = 0;
    for (let b = 0; b < 8; b++) byte |= Number(bits[i + b]) << b;
    out += byte.toString(16).padStart(2, '0');
  }
  return out;
}

/** Small deterministic generator so that failures are reproducible. */
function* lcg(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2147483648;
    yield x;
  }
}

describe('GSM 03.38 alphabet', () => {
  it('maps the well-known positions of the default alphabet', () => {
    expect(encodeGsm7('@£$¥')).toEqual([0x00, 0x01, 0x02, 0x03]);
    expect(encodeGsm7('¤')).toEqual([0x24]);
    expect(encodeGsm7('¡¿à§ßÉΔ_')).toEqual([0x40, 0x60, 0x7f, 0x5f, 0x1e, 0x1f, 0x10, 0x11]);
    expect(encodeGsm7('\n\r')).toEqual([0x0a, 0x0d]);
    expect(encodeGsm7('Az09 ')).toEqual([0x41, 0x7a, 0x30, 0x39, 0x20]);
  });

  it('encodes extension characters as escape + code', () => {
    expect(encodeGsm7('€')).toEqual([GSM7_ESCAPE, 0x65]);
    expect(encodeGsm7('^{}\\[~]|')).toEqual([
      0x1b, 0x14, 0x1b, 0x28, 0x1b, 0x29, 0x1b, 0x2f, 0x1b, 0x3c, 0x1b, 0x3d, 0x1b, 0x3e, 0x1b, 0x40,
    ]);
    expect(encodeGsm7('\f')).toEqual([0x1b, 0x0a]);
  });

  it('decodes every default-alphabet septet to a distinct character and back', () => {
    const septets = Array.from({ length: 128 }, (_, i) => i).filter((i) => i !== GSM7_ESCAPE);
    const text = decodeGsm7(septets);
    expect(new Set(text).size).toBe(127);
    expect(encodeGsm7(text)).toEqual(septets);
  });

  it('round-trips text with both tables', () => {
    const text = 'Price: 5€ {approx} [ok] a|b ~x^ \\ Øre Ñandu ÄÖÜäöü è é ù ì ò Ç';
    expect(isGsm7(text)).toBe(true);
    expect(decodeGsm7(encodeGsm7(text) ?? [])).toBe(text);
  });

  it('refuses characters outside both tables', () => {
    expect(encodeGsm7('ç')).toBeNull(); // only the capital Ç is in the table
    expect(encodeGsm7('hi 😀')).toBeNull();
    expect(isGsm7('Привет')).toBe(false);
    expect(isGsm7('`')).toBe(false);
  });

  it('decodes undefined escapes as a receiver must (default character, or a space)', () => {
    expect(decodeGsm7([0x1b, 0x41])).toBe('A');
    expect(decodeGsm7([0x41, 0x1b])).toBe('A ');
    expect(decodeGsm7([0x1b, 0x1b, 0x42])).toBe(' B');
  });

  it('throws on values that are not septets', () => {
    expect(() => decodeGsm7([128])).toThrow(RangeError);
    expect(() => decodeGsm7([-1])).toThrow(RangeError);
  });
});

describe('septet packing', () => {
  it("packs the classic 'hellohello' vector", () => {
    const septets = encodeGsm7('hellohello') ?? [];
    expect(hex(packSeptets(septets))).toBe('e8329bfd4697d9ec37');
    expect(
      decodeGsm7(unpackSeptets(Uint8Array.from([0xe8, 0x32, 0x9b, 0xfd, 0x46, 0x97, 0xd9, 0xec, 0x37]), 10)),
    ).toBe('hellohello');
  });

  it('packs with one fill bit after a 6-octet UDH exactly as gammu does', () => {
    // User data of the first part of a concatenated SMS produced by python-gammu's EncodeSMS/EncodePDU
    // for 'hellohello ' * 20 + '€[x]' (after the UDH 05 00 03 d1 02 01).
    const gammuPart1 =
      'd06536fb8d2eb3d96f10bacc66bfd16536fb0d4297d9ec37bacc66bf41e8329bfd4697d9ec37085d66b3dfe8329bfd06a1cb6cf61b5d66b3df207499cd7ea3cb6cf61b842eb3d96f7499cd7e83d06536fb8d2eb3d96f10bacc66bfd16536fb0d4297d9ec37bacc66bf41e8329bfd4697d9ec37085d66b3dfe8329bfd06a1cb6cf61b5d66b3df';
    const gammuPart2 =
      '40e8329bfd4697d9ec37085d66b3dfe8329bfd06a1cb6cf61b5d66b3df207499cd7ea3cb6cf61b842eb3d96f7499cd7e83d06536fb8d2eb3d96fd0a6bce1e1373e';
    const { encoding, parts } = splitText('hellohello '.repeat(20) + '€[x]');
    expect(encoding).toBe('GSM-7');
    expect(parts).toHaveLength(2);
    expect(hex(packSeptets(encodeGsm7(parts[0] ?? '') ?? [], 1))).toBe(gammuPart1);
    expect(hex(packSeptets(encodeGsm7(parts[1] ?? '') ?? [], 1))).toBe(gammuPart2);
  });

  it('agrees with a bit-by-bit reference for every fill and length, and round-trips', () => {
    const random = lcg(42);
    for (let fill = 0; fill <= 6; fill++) {
      for (let length = 0; length <= 24; length++) {
        const septets = Array.from({ length }, () => (random.next().value as number) % 128);
        const packed = packSeptets(septets, fill);
        expect(hex(packed)).toBe(referencePack(septets, fill));
        expect(packed.length).toBe(Math.ceil((fill + 7 * length) / 8));
        expect(unpackSeptets(packed, length, fill)).toEqual(septets);
      }
    }
  });

  it('fills a 160-septet single SMS into exactly 140 octets', () => {
    const septets = encodeGsm7('x'.repeat(160)) ?? [];
    expect(packSeptets(septets)).toHaveLength(140);
    // 153 septets + 1 fill bit + 6-octet UDH = 140 octets as well.
    expect(packSeptets(septets.slice(0, 153), 1).length + 6).toBe(140);
  });

  it('refuses bad input', () => {
    expect(() => packSeptets([0x80])).toThrow(RangeError);
    expect(() => packSeptets([1], 7)).toThrow(RangeError);
    expect(() => unpackSeptets(new Uint8Array(7), 9)).toThrow(RangeError);
    expect(unpackSeptets(new Uint8Array(7), 8)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('UCS-2', () => {
  it('is big-endian UTF-16, an emoji as a surrogate pair', () => {
    expect(hex(encodeUcs2('A€😀'))).toBe('004120acd83dde00');
    expect(hex(encodeUcs2('Привет'))).toBe('041f04400438043204350442');
  });

  it('round-trips, also for long text', () => {
    const text = `Привет ${EMOJI} 你好 `.repeat(2000);
    expect(decodeUcs2(encodeUcs2(text))).toBe(text);
  });

  it('refuses an odd number of octets', () => {
    expect(() => decodeUcs2(Uint8Array.from([0x00, 0x41, 0x00]))).toThrow(RangeError);
  });
});

describe('analyzeText: segments', () => {
  it('160 GSM characters are 1 segment, 161 are 2', () => {
    const one = analyzeText('a'.repeat(160));
    expect(one).toMatchObject({
      encoding: 'GSM-7',
      characters: 160,
      units: 160,
      segments: 1,
      perSegment: 160,
    });
    expect(one.remaining).toBe(0);
    const two = analyzeText('a'.repeat(161));
    expect(two).toMatchObject({ segments: 2, perSegment: 153, units: 161, remaining: 153 * 2 - 161 });
  });

  it("'€' costs 2 septets", () => {
    expect(analyzeText('€')).toMatchObject({ encoding: 'GSM-7', characters: 1, units: 2, remaining: 158 });
    expect(analyzeText('€'.repeat(80)).segments).toBe(1);
    expect(analyzeText('€'.repeat(81)).segments).toBe(2);
    expect(analyzeText('a'.repeat(159) + '€')).toMatchObject({ units: 161, segments: 2 });
  });

  it('70 Cyrillic characters are 1 UCS-2 segment, 71 are 2', () => {
    const one = analyzeText(CYRILLIC.repeat(70));
    expect(one).toMatchObject({ encoding: 'UCS-2', units: 70, segments: 1, perSegment: 70, remaining: 0 });
    const two = analyzeText(CYRILLIC.repeat(71));
    expect(two).toMatchObject({ encoding: 'UCS-2', units: 71, segments: 2, perSegment: 67, remaining: 63 });
  });

  it('one non-GSM character turns the whole text into UCS-2', () => {
    const a = analyzeText('a'.repeat(100) + 'ç');
    expect(a).toMatchObject({ encoding: 'UCS-2', units: 101, segments: 2 });
    expect(a.nonGsm).toEqual(['ç']);
  });

  it('an emoji counts 2 UTF-16 units but 1 character', () => {
    expect(analyzeText(EMOJI)).toMatchObject({ encoding: 'UCS-2', characters: 1, units: 2, remaining: 68 });
    expect(analyzeText(EMOJI.repeat(35))).toMatchObject({ units: 70, segments: 1, remaining: 0 });
    // 36 emoji: 33 fit a 67-unit part (66 units), the 34th would be cut in half, so it moves.
    expect(analyzeText(EMOJI.repeat(36))).toMatchObject({
      units: 72,
      segments: 2,
      perSegment: 67,
      remaining: 61,
    });
  });

  it('an extension character at a segment boundary moves whole to the next segment', () => {
    // 152 + 2 + 152 = 306 septets = 2 × 153, but '€' cannot straddle parts: 152 | € + 151 | 1.
    const text = 'a'.repeat(152) + '€' + 'b'.repeat(152);
    expect(analyzeText(text)).toMatchObject({ units: 306, segments: 3, remaining: 152 });
    const { parts } = splitText(text);
    expect(parts.map((p) => (encodeGsm7(p) ?? []).length)).toEqual([152, 153, 1]);
    expect(parts[1]?.startsWith('€')).toBe(true);
  });

  it('a surrogate pair at a segment boundary moves whole to the next segment', () => {
    const text = CYRILLIC.repeat(66) + EMOJI + CYRILLIC.repeat(66);
    expect(analyzeText(text)).toMatchObject({ units: 134, segments: 3 });
    const { encoding, parts } = splitText(text);
    expect(encoding).toBe('UCS-2');
    expect(parts.map((p) => p.length)).toEqual([66, 67, 1]);
    expect(parts[1]?.startsWith(EMOJI)).toBe(true);
  });

  it('lists distinct non-GSM characters in order of appearance', () => {
    expect(analyzeText('Hello ç and 😀 ç, Ç is fine').nonGsm).toEqual(['ç', EMOJI]);
    expect(analyzeText('plain [text] €').nonGsm).toEqual([]);
  });

  it('flash messages have the same limits and carry the flag', () => {
    const text = 'a'.repeat(161);
    const flash = analyzeText(text, { flash: true });
    expect(flash.flash).toBe(true);
    expect(analyzeText(text).flash).toBe(false);
    expect({ ...flash, flash: false }).toEqual(analyzeText(text));
  });

  it('fitsSingleUtf8 follows spec section 8: at most 70 characters', () => {
    expect(analyzeText('a'.repeat(70)).fitsSingleUtf8).toBe(true);
    expect(analyzeText('a'.repeat(71)).fitsSingleUtf8).toBe(false);
    expect(analyzeText(EMOJI.repeat(70)).fitsSingleUtf8).toBe(true);
    expect(analyzeText(CYRILLIC.repeat(71)).fitsSingleUtf8).toBe(false);
  });

  it('an empty text is no segment with a full segment left', () => {
    expect(analyzeText('')).toMatchObject({
      encoding: 'GSM-7',
      characters: 0,
      units: 0,
      segments: 0,
      remaining: 160,
    });
    expect(splitText('')).toEqual({ encoding: 'GSM-7', parts: [] });
  });
});

describe('splitText', () => {
  it('keeps a single-SMS text whole', () => {
    expect(splitText('Hi there')).toEqual({ encoding: 'GSM-7', parts: ['Hi there'] });
    expect(splitText('a'.repeat(160)).parts).toHaveLength(1);
  });

  it('parts join back to the text and never break an escape or surrogate pair', () => {
    const random = lcg(7);
    const alphabet = ['a', 'Z', ' ', '€', '[', '|', 'é', 'Ж', EMOJI, '你'];
    for (let round = 0; round < 200; round++) {
      const length = (random.next().value as number) % 400;
      const useNonGsm = round % 2 === 0;
      let text = '';
      for (let i = 0; i < length; i++) {
        const pick = (random.next().value as number) % (useNonGsm ? alphabet.length : 7);
        text += alphabet[pick];
      }
      const { encoding, parts } = splitText(text);
      expect(parts.join('')).toBe(text);
      expect(parts.length).toBe(analyzeText(text).segments);
      for (const part of parts) {
        if (encoding === 'GSM-7') {
          const septets = encodeGsm7(part);
          expect(septets).not.toBeNull();
          expect(septets?.length).toBeLessThanOrEqual(parts.length > 1 ? 153 : 160);
        } else {
          expect(part.length).toBeLessThanOrEqual(parts.length > 1 ? 67 : 70);
          expect(/[\ud800-\udbff]$/.test(part)).toBe(false);
          expect(/^[\udc00-\udfff]/.test(part)).toBe(false);
        }
      }
    }
  });
});
