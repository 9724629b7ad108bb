// Nokia Smart Messaging ringtone (Smart Messaging Specification 3.0, section 3.6): the binary
// that travels to port 5505. Bit-packed, MSB first:
//   <command-part>  0x02 (two commands) | ringing-tone-programming 0x25 (7 bits) + 1 filler bit = 0x4A
//                   | sound 0x1D (7 bits) | song-type basic 001 (3 bits)
//                   | title: length (4 bits) + ISO-8859-1 characters (8 bits each)
//   <song>          song-sequence-length (8 bits, one pattern)
//                   | pattern header 000 | pattern id A 00 | loop (4 bits) | instruction count (8 bits)
//   <instructions>  note   001 | note (4) | duration (3) | duration specifier (2)
//                   scale  010 | scale (2)            (0 = A 440 Hz = RTTTL octave 4 ... 3 = octave 7)
//                   style  011 | style (2)            (0 natural, 1 continuous, 2 staccato)
//                   tempo  100 | tempo index (5)      (NOKIA_TEMPOS)
//                   volume 101 | volume (4)
//   then octet alignment and command-end 0x00.
// Hand-written: no maintained JavaScript library implements this format.
import { BitReader, BitWriter, SmartCodecError, hexToBytes } from './bytes.ts';
import { parseRtttl } from './rtttl.ts';
import type { RtttlDuration, RtttlNote, RtttlPitch, RtttlSong, RtxStyle } from './rtttl.ts';

/** The 32 tempos (beats per minute) a Nokia ringtone can carry, by 5-bit index. */
export const NOKIA_TEMPOS = [
  25, 28, 31, 35, 40, 45, 50, 56, 63, 70, 80, 90, 100, 112, 125, 140, 160, 180, 200, 225, 250, 285, 320, 355,
  400, 450, 500, 565, 635, 715, 800, 900,
] as const;

const NOTE_VALUES: Record<RtttlPitch, number> = {
  p: 0,
  c: 1,
  'c#': 2,
  d: 3,
  'd#': 4,
  e: 5,
  f: 6,
  'f#': 7,
  g: 8,
  'g#': 9,
  a: 10,
  'a#': 11,
  b: 12,
};
const PITCH_BY_VALUE = Object.fromEntries(Object.entries(NOTE_VALUES).map(([k, v]) => [v, k])) as Record<
  number,
  RtttlPitch
>;
const DURATIONS: readonly RtttlDuration[] = [1, 2, 4, 8, 16, 32];
const STYLE_VALUES: Record<RtxStyle, number> = { n: 0, c: 1, s: 2 };
const STYLE_BY_VALUE: readonly RtxStyle[] = ['n', 'c', 's'];

const COMMAND_RINGING_TONE_PROGRAMMING = 0x25;
const COMMAND_SOUND = 0x1d;
const SONG_TYPE_BASIC = 0x01;
const INSTR = { patternHeader: 0, note: 1, scale: 2, style: 3, tempo: 4, volume: 5 } as const;
/** Title length is a 4-bit field. */
export const NOKIA_TITLE_MAX = 15;

/** Index of the nearest tempo the format can carry. */
export function nearestNokiaTempo(bpm: number): { index: number; bpm: number } {
  let best = 0;
  for (let i = 1; i < NOKIA_TEMPOS.length; i++) {
    if (Math.abs(NOKIA_TEMPOS[i]! - bpm) < Math.abs(NOKIA_TEMPOS[best]! - bpm)) best = i;
  }
  return { index: best, bpm: NOKIA_TEMPOS[best]! };
}

function latin1(text: string): number[] {
  return Array.from(text, (ch) => {
    const c = ch.codePointAt(0)!;
    return c <= 0xff ? c : 0x3f; // '?' for characters ISO-8859-1 cannot carry
  });
}

/**
 * Encodes a song (as parsed from RTTTL/RTX) into the Nokia ringtone binary. The tempo is rounded to
 * the nearest of NOKIA_TEMPOS and the title cut to 15 characters, as the format demands.
 */
export function encodeNokiaRingtone(song: RtttlSong): Uint8Array {
  const w = new BitWriter();
  w.write(0x02, 8);
  w.write(COMMAND_RINGING_TONE_PROGRAMMING, 7);
  w.align();
  w.write(COMMAND_SOUND, 7);
  w.write(SONG_TYPE_BASIC, 3);
  const title = latin1(song.name.slice(0, NOKIA_TITLE_MAX));
  w.write(title.length, 4);
  for (const c of title) w.write(c, 8);
  w.write(0x01, 8); // one pattern
  w.write(INSTR.patternHeader, 3);
  w.write(0, 2); // pattern A
  const loop = song.defaults.loop ?? 0;
  if (!Number.isInteger(loop) || loop < 0 || loop > 15)
    throw new SmartCodecError(`loop ${loop} is not 0..15`);
  w.write(loop, 4);

  const instructions: Array<[number, number][]> = [];
  if (song.defaults.style !== undefined)
    instructions.push([
      [INSTR.style, 3],
      [STYLE_VALUES[song.defaults.style], 2],
    ]);
  instructions.push([
    [INSTR.tempo, 3],
    [nearestNokiaTempo(song.bpm).index, 5],
  ]);
  if (song.defaults.volume !== undefined)
    instructions.push([
      [INSTR.volume, 3],
      [song.defaults.volume & 15, 4],
    ]);
  let scale = -1;
  for (const note of song.notes) {
    const s = note.octave - 4;
    if (note.pitch !== 'p' && s !== scale) {
      if (s < 0 || s > 3) throw new SmartCodecError(`octave ${note.octave} cannot be carried (4..7)`);
      instructions.push([
        [INSTR.scale, 3],
        [s, 2],
      ]);
      scale = s;
    }
    const d = DURATIONS.indexOf(note.duration);
    if (d < 0) throw new SmartCodecError(`duration ${note.duration} is not 1, 2, 4, 8, 16 or 32`);
    instructions.push([
      [INSTR.note, 3],
      [NOTE_VALUES[note.pitch], 4],
      [d, 3],
      [note.dotted ? 1 : 0, 2],
    ]);
  }
  if (instructions.length > 255) {
    throw new SmartCodecError(`ringtone needs ${instructions.length} instructions, the format allows 255`);
  }
  w.write(instructions.length, 8);
  for (const ins of instructions) for (const [v, bits] of ins) w.write(v, bits);
  w.align();
  w.write(0x00, 8); // command end
  return w.toBytes();
}

/**
 * How large a Nokia ringtone binary a handset takes. The spec (section 8) gives no limit; the
 * handsets do: a Nokia phone reassembles a ringtone from at most three concatenated SMS ("long
 * ringtone", as gammu encodes it), each carrying 140 octets of user data minus a 12-octet UDH
 * (16-bit application ports + concatenation), so 3 × 128 = 384 octets. Alone, with only the
 * 7-octet port-addressing UDH, one SMS carries 133 octets.
 */
export const NOKIA_RINGTONE_LIMITS = {
  maxOctets: 3 * (140 - 12),
  singleSmsOctets: 140 - 7,
  maxSms: 3,
} as const;

export interface RingtoneFit {
  /** Octets of the Nokia binary, or null when the song cannot be encoded at all. */
  size: number | null;
  /** SMS it takes (1..3), more when it does not fit, 0 when it cannot be encoded. */
  sms: number;
  /** Why it cannot be sent, or null when it fits. */
  problem: string | null;
}

/** Whether a song's Nokia binary fits what handsets accept (NOKIA_RINGTONE_LIMITS), with the reason if not. */
export function nokiaRingtoneFit(song: RtttlSong): RingtoneFit {
  let size: number;
  try {
    size = nokiaRingtoneSize(song);
  } catch (err) {
    if (!(err instanceof SmartCodecError)) throw err;
    return {
      size: null,
      sms: 0,
      problem: `The ringtone cannot be sent as a Nokia ringtone: ${err.message}.`,
    };
  }
  const { maxOctets, singleSmsOctets, maxSms } = NOKIA_RINGTONE_LIMITS;
  const sms = size <= singleSmsOctets ? 1 : Math.ceil(size / (maxOctets / maxSms));
  const problem =
    size > maxOctets
      ? `The ringtone needs ${size} octets as a Nokia ringtone; handsets take at most ${maxOctets} (${maxSms} concatenated SMS). Remove about ${Math.ceil(((size - maxOctets) * 8) / 12)} notes.`
      : null;
  return { size, sms, problem };
}

/** Octets of the Nokia binary of this song (what the app shows next to the SMS count). */
export function nokiaRingtoneSize(song: RtttlSong): number {
  return encodeNokiaRingtone(song).length;
}

/**
 * Decodes a Nokia ringtone binary into an RtttlSong. Mid-song tempo, style or volume changes are
 * not representable in RTTTL: the first value is kept.
 */
export function decodeNokiaRingtone(bytes: Uint8Array): RtttlSong {
  const r = new BitReader(bytes);
  const pos = (): number => r.bitPosition >> 3;
  const commands = r.read(8);
  if (commands !== 0x02) throw new SmartCodecError(`command length ${commands} (expected 2)`, 0);
  const rtp = r.read(7);
  if (rtp !== COMMAND_RINGING_TONE_PROGRAMMING) {
    throw new SmartCodecError(`command 0x${rtp.toString(16)} is not ringing-tone-programming (0x25)`, 1);
  }
  r.align();
  const sound = r.read(7);
  if (sound !== COMMAND_SOUND)
    throw new SmartCodecError(`command 0x${sound.toString(16)} is not sound (0x1D)`, pos());
  const type = r.read(3);
  if (type !== SONG_TYPE_BASIC) throw new SmartCodecError(`song type ${type} is not basic (1)`, pos());
  const titleLength = r.read(4);
  let name = '';
  for (let i = 0; i < titleLength; i++) name += String.fromCharCode(r.read(8));
  const patterns = r.read(8);
  const notes: RtttlNote[] = [];
  let bpm: number | undefined;
  let style: RtxStyle | undefined;
  let volume: number | undefined;
  let loop = 0;
  let octave = 5; // scale 2 (880 Hz) is the handset default
  for (let p = 0; p < patterns; p++) {
    const header = r.read(3);
    if (header !== INSTR.patternHeader)
      throw new SmartCodecError(`pattern header id ${header} (expected 0)`, pos());
    r.read(2);
    const l = r.read(4);
    if (p === 0) loop = l;
    const count = r.read(8);
    for (let i = 0; i < count; i++) {
      const id = r.read(3);
      switch (id) {
        case INSTR.note: {
          const value = r.read(4);
          const d = r.read(3);
          const spec = r.read(2);
          const pitch = PITCH_BY_VALUE[value];
          const duration = DURATIONS[d];
          if (pitch === undefined) throw new SmartCodecError(`note value ${value} is not a note`, pos());
          if (duration === undefined) throw new SmartCodecError(`note duration ${d} is not 0..5`, pos());
          notes.push({ pitch, octave, duration, dotted: spec === 1 });
          break;
        }
        case INSTR.scale:
          octave = 4 + r.read(2);
          break;
        case INSTR.style: {
          const s = STYLE_BY_VALUE[r.read(2)] ?? 'n';
          style ??= s;
          break;
        }
        case INSTR.tempo: {
          const t = NOKIA_TEMPOS[r.read(5)]!;
          bpm ??= t;
          break;
        }
        case INSTR.volume: {
          const v = r.read(4);
          volume ??= v;
          break;
        }
        default:
          throw new SmartCodecError(`unknown instruction id ${id}`, pos());
      }
    }
  }
  const finalBpm = bpm ?? 63;
  const song: RtttlSong = { name, bpm: finalBpm, defaults: { duration: 4, octave: 6, bpm: finalBpm }, notes };
  // pick the most common duration/octave as defaults, so formatRtttl gives compact text
  song.defaults.duration = mostCommon(notes.map((n) => n.duration)) ?? 4;
  song.defaults.octave = mostCommon(notes.filter((n) => n.pitch !== 'p').map((n) => n.octave)) ?? 6;
  for (const n of notes) if (n.pitch === 'p') n.octave = song.defaults.octave;
  if (loop) song.defaults.loop = loop;
  if (style !== undefined && style !== 'n') song.defaults.style = style;
  if (volume !== undefined) song.defaults.volume = volume;
  return song;
}

function mostCommon<T>(values: readonly T[]): T | undefined {
  const counts = new Map<T, number>();
  let best: T | undefined;
  let bestCount = 0;
  for (const v of values) {
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return best;
}

export type RingtoneField =
  | { kind: 'library'; libraryNumber: number }
  | { kind: 'song'; song: RtttlSong; from: 'rtttl' | 'hex-rtttl' | 'hex-nokia' };

/**
 * Reads the gateway's Ringtone field (spec 2.4): a monophonic library number, hex-encoded RTTTL/RTX
 * or Nokia binary, or RTTTL/RTX text (already URL-decoded by the form decoder). Throws RtttlError /
 * SmartCodecError with the reason when it is none of them.
 */
export function parseRingtoneField(value: string): RingtoneField {
  const v = value.trim();
  if (/^\d{1,5}$/.test(v)) return { kind: 'library', libraryNumber: Number(v) };
  if (/^(?:[0-9A-Fa-f]{2})+$/.test(v) && !v.includes(':')) {
    const bytes = hexToBytes(v);
    if (bytes[0] === 0x02 && bytes[1] === 0x4a)
      return { kind: 'song', song: decodeNokiaRingtone(bytes), from: 'hex-nokia' };
    return { kind: 'song', song: parseRtttl(new TextDecoder('latin1').decode(bytes)), from: 'hex-rtttl' };
  }
  return { kind: 'song', song: parseRtttl(v), from: 'rtttl' };
}
