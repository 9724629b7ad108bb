// The media picker's pure parts under Node: RTTTL examples as the ringtone editor reads them, the
// square-wave player's pitch and timing, Floyd–Steinberg dithering of known images (PNG files made
// with jimp and decoded back), aspect-keeping fit, the bitmap editor's operations and history,
// the networks table search, and the send checks of ringtones, library numbers and network codes.
import { Jimp } from 'jimp';
import { describe, expect, it } from 'vitest';
import { bitmapFromRows, bitmapToRows, BITMAP_SIZES } from '../../../protocol/smart/ota-bitmap.ts';
import {
  NOKIA_RINGTONE_LIMITS,
  nokiaRingtoneFit,
  nokiaRingtoneSize,
} from '../../../protocol/smart/nokia-ringtone.ts';
import { parseRtttl } from '../../../protocol/smart/rtttl.ts';
import { networkCodeProblems } from '../../../protocol/smart/operator-logo.ts';
import { inLibraryRange, LIBRARY_RANGES, parseLibraryNumber } from '../../../protocol/limits.ts';
import type { LibraryKind } from '../../../protocol/limits.ts';
import { noteFrequency, noteMs, playSong } from '../../../renderer/views/media/audio.ts';
import {
  blackCount,
  clearBitmap,
  floodFill,
  historyOf,
  invertBitmap,
  pushHistory,
  redo,
  setPixel,
  undo,
} from '../../../renderer/views/media/bitmap-ops.ts';
import { bitmapField, networkProblems } from '../../../renderer/views/media/bitmap-drafts.ts';
import { ditherToBitmap, fitRect, luminance } from '../../../renderer/views/media/dither.ts';
import { libraryNumberProblem } from '../../../renderer/views/media/library-number.ts';
import { findNetwork, NETWORKS, searchNetworks } from '../../../renderer/views/media/networks.ts';
import { parseForEditor } from '../../../renderer/views/media/RingtoneEditor.tsx';
import { staffStep } from '../../../renderer/views/media/Staff.tsx';

/** A PNG made with jimp from rows of RGBA values, decoded back to raw RGBA (what a canvas gives). */
async function pngRoundTrip(
  rows: number[][][],
): Promise<{ rgba: Uint8Array; width: number; height: number }> {
  const height = rows.length;
  const width = rows[0]!.length;
  const img = new Jimp({ width, height, color: 0xffffffff });
  rows.forEach((row, y) =>
    row.forEach(([r, g, b, a], x) =>
      img.setPixelColor(((r! << 24) | (g! << 16) | (b! << 8) | a!) >>> 0, x, y),
    ),
  );
  const png = await img.getBuffer('image/png');
  const back = await Jimp.read(png);
  return { rgba: new Uint8Array(back.bitmap.data), width: back.bitmap.width, height: back.bitmap.height };
}

const GREY160 = [160, 160, 160, 255];
const BLACK = [0, 0, 0, 255];
const WHITE = [255, 255, 255, 255];
const CLEAR = [0, 0, 0, 0];

describe('RTTTL examples as the ringtone editor reads them', () => {
  it('parses dotted notes, octave changes, pauses and the tempo to the expected notes', () => {
    const r = parseForEditor('Tune:d=4,o=5,b=140:8c6.,p,2a#4,16g.7,8p,e');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.song.name).toBe('Tune');
    expect(r.song.bpm).toBe(140);
    expect(r.song.notes).toEqual([
      { pitch: 'c', octave: 6, duration: 8, dotted: true },
      { pitch: 'p', octave: 5, duration: 4, dotted: false },
      { pitch: 'a#', octave: 4, duration: 2, dotted: false },
      { pitch: 'g', octave: 7, duration: 16, dotted: true },
      { pitch: 'p', octave: 5, duration: 8, dotted: false },
      { pitch: 'e', octave: 5, duration: 4, dotted: false },
    ]);
  });

  it('reads RTX defaults and the classic default tempo of 63 bpm when b= is missing', () => {
    const rtx = parseForEditor('Loop:d=8,o=6,b=200,l=3,s=s,v=10:c,d.,4e7');
    expect(rtx.ok && rtx.song.defaults).toMatchObject({ loop: 3, style: 's', volume: 10, bpm: 200 });
    const plain = parseForEditor('Slow::c,d');
    expect(plain.ok && plain.song.bpm).toBe(63);
    expect(plain.ok && plain.song.notes.map((n) => [n.pitch, n.octave, n.duration])).toEqual([
      ['c', 6, 4],
      ['d', 6, 4],
    ]);
  });

  it('gives the position and the reason of an error', () => {
    const text = 'Bad:d=4,o=5,b=120:c,d,x,e';
    const r = parseForEditor(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(text[r.position]).toBe('x');
    expect(r.reason).toBe('"x" is not a note letter (a-g, h or p)');
    const tempo = parseForEditor('T:b=1000:c');
    expect(tempo.ok || tempo.reason).toMatch(/tempo "1000"/);
  });
});

describe('square-wave player: pitch and timing', () => {
  it('tunes A of RTTTL octave 4 to 440 Hz and moves by semitones and octaves', () => {
    expect(noteFrequency({ pitch: 'a', octave: 4 })).toBeCloseTo(440, 6);
    expect(noteFrequency({ pitch: 'a', octave: 5 })).toBeCloseTo(880, 6);
    expect(noteFrequency({ pitch: 'c', octave: 5 })).toBeCloseTo(523.2511, 3);
    expect(noteFrequency({ pitch: 'a#', octave: 4 })).toBeCloseTo(466.1638, 3);
    expect(noteFrequency({ pitch: 'p', octave: 5 })).toBeNull();
  });

  it('times notes from the tempo: a quarter is one beat, a dot adds half', () => {
    expect(noteMs({ duration: 4, dotted: false }, 120)).toBe(500);
    expect(noteMs({ duration: 8, dotted: true }, 120)).toBe(375);
    expect(noteMs({ duration: 1, dotted: false }, 60)).toBe(4000);
  });

  it('says so when there is no Web Audio (Node has none), instead of failing silently', async () => {
    const p = playSong(parseRtttl('A:d=4,o=5,b=120:c'));
    p.stop();
    await expect(p.done).rejects.toThrow('this browser has no Web Audio');
  });

  it('places notes on the staff by octave and letter (sharps share their letter line)', () => {
    expect(staffStep({ pitch: 'c', octave: 5 })).toBe(7);
    expect(staffStep({ pitch: 'c#', octave: 5 })).toBe(7);
    expect(staffStep({ pitch: 'b', octave: 4 })).toBe(6);
    expect(staffStep({ pitch: 'p', octave: 5 })).toBeNull();
  });
});

describe('image import: dithering to 1 bit', () => {
  it('keeps a black-and-white PNG exactly; transparency counts as white', async () => {
    const img = await pngRoundTrip([
      [BLACK, WHITE, BLACK, CLEAR],
      [WHITE, BLACK, CLEAR, BLACK],
    ]);
    const bmp = ditherToBitmap(img.rgba, img.width, img.height);
    expect(bitmapToRows(bmp)).toEqual(['#.#.', '.#.#']);
  });

  it('diffuses the error of a grey PNG by Floyd–Steinberg (7/16 right, 3/16, 5/16, 1/16 below)', async () => {
    // Grey 160, threshold 128. Row of four: 160 → white (error −95, 41.6 to the right) → 118.4 black
    // (error +118.4, 51.8 right) → 211.8 white (error −43.2, 18.9 right) → 141.1 white.
    const row = await pngRoundTrip([[GREY160, GREY160, GREY160, GREY160]]);
    expect(bitmapToRows(ditherToBitmap(row.rgba, 4, 1))).toEqual(['.#..']);
    // Without diffusion grey 160 is plain white, and black with a threshold above it.
    expect(bitmapToRows(ditherToBitmap(row.rgba, 4, 1, { dither: false }))).toEqual(['....']);
    expect(bitmapToRows(ditherToBitmap(row.rgba, 4, 1, { dither: false, threshold: 200 }))).toEqual(['####']);
    // 2×2: (0,0) white; (1,0) 160−41.6 = 118.4 black; (0,1) 160−29.7+22.2 = 152.5 white;
    // (1,1) 160−5.9+37.0−44.8 = 146.2 white.
    const square = await pngRoundTrip([
      [GREY160, GREY160],
      [GREY160, GREY160],
    ]);
    expect(bitmapToRows(ditherToBitmap(square.rgba, 2, 2))).toEqual(['.#', '..']);
  });

  it('turns a 144×28 PNG, half black, into a 72×14 logo with the left half black', async () => {
    const src = new Jimp({ width: 144, height: 28, color: 0xffffffff });
    for (let y = 0; y < 28; y++) for (let x = 0; x < 72; x++) src.setPixelColor(0x000000ff, x, y);
    const decoded = await Jimp.read(await src.getBuffer('image/png'));
    const { width, height } = BITMAP_SIZES.operatorLogo;
    const r = fitRect(decoded.bitmap.width, decoded.bitmap.height, width, height);
    expect(r).toEqual({ x: 0, y: 0, width: 72, height: 14 });
    decoded.resize({ w: r.width, h: r.height });
    const bmp = ditherToBitmap(new Uint8Array(decoded.bitmap.data), width, height);
    const rows = bitmapToRows(bmp);
    expect(rows).toHaveLength(14);
    for (const row of rows) expect(row).toBe('#'.repeat(36) + '.'.repeat(36));
  });

  it('fits any image inside the target keeping its aspect, centred', () => {
    expect(fitRect(100, 100, 72, 14)).toEqual({ x: 29, y: 0, width: 14, height: 14 });
    expect(fitRect(720, 560, 72, 28)).toEqual({ x: 18, y: 0, width: 36, height: 28 });
    expect(fitRect(1000, 10, 72, 28)).toEqual({ x: 0, y: 13, width: 72, height: 1 });
  });

  it('refuses pixel data that does not match the size, and weighs colours by luminance', () => {
    expect(() => ditherToBitmap(new Uint8Array(12), 2, 2)).toThrow('2×2 RGBA needs 16 octets, got 12');
    expect(luminance(255, 0, 0)).toBeCloseTo(76.245, 3);
    expect(luminance(0, 0, 0, 0)).toBe(255);
  });
});

describe('bitmap editor operations', () => {
  it('sets pixels, flood-fills a closed region only, inverts and clears', () => {
    let b = bitmapFromRows(['.....', '.###.', '.#.#.', '.###.', '.....']);
    b = floodFill(b, 2, 2, 1);
    expect(bitmapToRows(b)).toEqual(['.....', '.###.', '.###.', '.###.', '.....']);
    b = floodFill(b, 0, 0, 1);
    expect(blackCount(b)).toBe(25);
    b = setPixel(clearBitmap(b), 4, 0, 1);
    expect(bitmapToRows(b)[0]).toBe('....#');
    expect(bitmapToRows(invertBitmap(b))[0]).toBe('####.');
    expect(setPixel(b, 9, 9, 1)).toBe(b);
  });

  it('undoes and redoes edits; a new edit drops the redo branch', () => {
    const a = bitmapFromRows(['..']);
    const b1 = setPixel(a, 0, 0, 1);
    const b2 = setPixel(b1, 1, 0, 1);
    let h = pushHistory(pushHistory(historyOf(a), b1), b2);
    h = undo(undo(h));
    expect(h.present).toBe(a);
    expect(undo(h)).toBe(h);
    h = redo(h);
    expect(h.present).toBe(b1);
    h = pushHistory(h, invertBitmap(b1));
    expect(h.future).toEqual([]);
    expect(bitmapToRows(h.present)).toEqual(['.#']);
  });
});

describe('networks table and the send checks of the media editors', () => {
  it('bundles the main operators of many countries, searchable by operator or country name', () => {
    expect(new Set(NETWORKS.map((n) => n.iso)).size).toBeGreaterThanOrEqual(40);
    for (const [mcc, mnc] of [
      ['234', '10'],
      ['234', '15'],
      ['234', '20'],
      ['234', '30'],
      ['262', '01'],
      ['262', '02'],
      ['262', '03'],
    ])
      expect(findNetwork(mcc!, mnc!)).toBeDefined();
    expect(NETWORKS.some((n) => n.mcc === '310')).toBe(true);
    expect(searchNetworks('vodafone germany').map((n) => `${n.mcc}/${n.mnc}`)).toEqual(['262/02']);
    expect(searchNetworks('Telefonica')[0]?.name).toBe('O2 (Telefónica UK)');
    expect(searchNetworks('234 20')[0]?.name).toBe('Three UK');
  });

  it('refuses MCC/MNC a Nokia operator logo cannot carry, with the reason', () => {
    expect(networkProblems('262', '02')).toEqual([]);
    expect(networkProblems('', '')).toEqual([
      'Choose a network or type its MCC.',
      'Choose a network or type its MNC.',
    ]);
    expect(networkProblems('26', '2x')).toEqual([
      'MCC must be 3 digits (got “26”).',
      'MNC must be 2 or 3 digits (got “2x”).',
    ]);
    expect(networkProblems('310', '260')[0]).toMatch(/MNC 260 has three digits/);
    // one value missing: its picker sentence, and protocol's objection to the other, in field order
    expect(networkProblems('26', '')).toEqual([
      'MCC must be 3 digits (got “26”).',
      'Choose a network or type its MNC.',
    ]);
    expect(networkProblems('', '1')).toEqual([
      'Choose a network or type its MCC.',
      'MNC must be 2 or 3 digits (got “1”).',
    ]);
    expect(networkProblems('310', '260')).toEqual(networkCodeProblems('310', '260'));
  });

  it('checks library numbers against the spec ranges and blank drawings', () => {
    expect(libraryNumberProblem('10001', 'groupGraphic')).toBeNull();
    expect(libraryNumberProblem('20000', 'groupGraphic')).toBe(
      'Library number 20000 is outside 10000–19999, the range of this kind of content.',
    );
    expect(libraryNumberProblem('123')).toBe('A library number has 5 digits (got “123”).');
    expect(libraryNumberProblem('1e4', 'groupGraphic')).toBe('A library number has 5 digits (got “1e4”).');
    expect(libraryNumberProblem(' 80000 ', 'wapFile')).toBeNull();
    expect(libraryNumberProblem('  ')).toBe('Choose a library item or type its number.');
    const blank = bitmapField(
      { from: 'draw', bitmap: clearBitmap(bitmapFromRows(['#'])) },
      'pictureMessage',
      'picture',
    );
    expect(blank.problems).toEqual(['The picture is blank: draw or import something.']);
    const drawn = bitmapField({ from: 'draw', bitmap: bitmapFromRows(['#.']) }, 'operatorLogo', 'logo');
    expect(drawn).toEqual({ value: '0002010180', problems: [] });
    expect(bitmapField({ from: 'library', number: '25000' }, 'pictureMessage', 'picture').problems).toEqual(
      [],
    );
  });

  it('accepts exactly the library numbers protocol does: 5 digits, inside the range of the kind (spec 8)', () => {
    for (const kind of Object.keys(LIBRARY_RANGES) as LibraryKind[]) {
      const [min, max] = LIBRARY_RANGES[kind];
      for (const n of [min - 1, min, min + 1, max - 1, max, max + 1, 99999]) {
        const typed = String(n);
        expect(libraryNumberProblem(typed, kind) === null).toBe(inLibraryRange(kind, n));
        expect(parseLibraryNumber(typed)).toBe(typed.length === 5 ? n : null);
      }
    }
    expect(parseLibraryNumber('0800')).toBeNull();
    expect(parseLibraryNumber('800000')).toBeNull();
    expect(parseLibraryNumber('8000.')).toBeNull();
    expect(parseLibraryNumber('+8000')).toBeNull();
  });

  it('sizes the Nokia ringtone binary and refuses one larger than three SMS', () => {
    const short = parseRtttl('Beep:d=8,o=5,b=125:c,e,g,c6.,4p,g,2c6');
    expect(nokiaRingtoneFit(short)).toEqual({ size: nokiaRingtoneSize(short), sms: 1, problem: null });
    const long = parseRtttl(`Long:d=8,o=5,b=125:${Array(125).fill('c,d').join(',')}`);
    const fit = nokiaRingtoneFit(long);
    expect(fit.size).toBeGreaterThan(NOKIA_RINGTONE_LIMITS.maxOctets);
    expect(fit.problem).toMatch(
      new RegExp(`needs ${fit.size} octets .* at most 384 \\(3 concatenated SMS\\)`),
    );
    const tooMany = nokiaRingtoneFit(parseRtttl(`Many:d=8,o=5,b=125:${Array(300).fill('c,d').join(',')}`));
    expect(tooMany).toEqual({
      size: null,
      sms: 0,
      problem:
        'The ringtone cannot be sent as a Nokia ringtone: ringtone needs 602 instructions, the format allows 255.',
    });
    const medium = parseRtttl(`Mid:d=8,o=5,b=125:${Array(60).fill('c,d').join(',')}`);
    expect(nokiaRingtoneFit(medium)).toMatchObject({ sms: 2, problem: null });
  });
});
