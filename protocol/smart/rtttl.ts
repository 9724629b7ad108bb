// RTTTL (Nokia Ring Tone Text Transfer Language) and RTX (its extension with l=, s=, v=).
//   <name> ":" [<defaults>] ":" <notes>
//   defaults: d=<duration>, o=<octave>, b=<bpm>  (RTX adds l=<loop>, s=<style n|s|c>, v=<volume>)
//   note:     [<duration>] <letter> ["#"] ["."] [<octave>] ["."]   e.g. 8f#.6  4p  2a#5.
// Hand-written: it is a tiny grammar, and we want errors that name the exact position and reason.
import { SmartCodecError } from './bytes.ts';

export const RTTTL_PITCHES = ['c', 'c#', 'd', 'd#', 'e', 'f', 'f#', 'g', 'g#', 'a', 'a#', 'b', 'p'] as const;
export type RtttlPitch = (typeof RTTTL_PITCHES)[number];
export const RTTTL_DURATIONS = [1, 2, 4, 8, 16, 32] as const;
export type RtttlDuration = (typeof RTTTL_DURATIONS)[number];
/** Octaves RTTTL allows (4 = A at 440 Hz is a4... handsets play 4..7). */
export const RTTTL_OCTAVES = [4, 5, 6, 7] as const;
export const RTX_STYLES = { n: 'natural', s: 'staccato', c: 'continuous' } as const;
export type RtxStyle = keyof typeof RTX_STYLES;

export interface RtttlNote {
  pitch: RtttlPitch;
  octave: number;
  duration: RtttlDuration;
  dotted: boolean;
}

export interface RtttlDefaults {
  duration: RtttlDuration;
  octave: number;
  bpm: number;
  /** RTX only: repeat count (15 = forever). */
  loop?: number;
  /** RTX only: n natural, s staccato, c continuous. */
  style?: RtxStyle;
  /** RTX only: 0..15. */
  volume?: number;
}

export interface RtttlSong {
  name: string;
  bpm: number;
  defaults: RtttlDefaults;
  notes: RtttlNote[];
}

export class RtttlError extends SmartCodecError {
  readonly reason: string;
  constructor(reason: string, position: number) {
    super(`RTTTL: ${reason}`, position);
    this.name = 'RtttlError';
    this.reason = reason;
  }
}

const DEFAULTS: RtttlDefaults = { duration: 4, octave: 6, bpm: 63 };

function isDuration(n: number): n is RtttlDuration {
  return (RTTTL_DURATIONS as readonly number[]).includes(n);
}

export function parseRtttl(text: string): RtttlSong {
  const firstColon = text.indexOf(':');
  if (firstColon < 0) throw new RtttlError('missing ":" after the name', text.length);
  const secondColon = text.indexOf(':', firstColon + 1);
  if (secondColon < 0) throw new RtttlError('missing ":" after the defaults section', text.length);
  const name = text.slice(0, firstColon).trim();

  const defaults: RtttlDefaults = { ...DEFAULTS };
  // defaults section
  let pos = firstColon + 1;
  const defText = text.slice(firstColon + 1, secondColon);
  for (const raw of defText.split(',')) {
    const start = pos + (raw.length - raw.trimStart().length);
    pos += raw.length + 1;
    const item = raw.trim();
    if (item === '') continue;
    const m = /^([a-zA-Z])\s*=\s*([0-9a-zA-Z]+)$/.exec(item);
    if (!m) throw new RtttlError(`malformed default "${item}" (expected key=value)`, start);
    const key = m[1]!.toLowerCase();
    const value = m[2]!;
    const num = /^\d+$/.test(value) ? Number(value) : NaN;
    switch (key) {
      case 'd':
        if (!isDuration(num))
          throw new RtttlError(`default duration "${value}" is not 1, 2, 4, 8, 16 or 32`, start);
        defaults.duration = num;
        break;
      case 'o':
        if (!(RTTTL_OCTAVES as readonly number[]).includes(num)) {
          throw new RtttlError(`default octave "${value}" is not 4..7`, start);
        }
        defaults.octave = num;
        break;
      case 'b':
        if (!Number.isInteger(num) || num < 1 || num > 900) {
          throw new RtttlError(`tempo "${value}" is not a whole number of beats per minute 1..900`, start);
        }
        defaults.bpm = num;
        break;
      case 'l':
        if (!Number.isInteger(num) || num > 15) throw new RtttlError(`loop "${value}" is not 0..15`, start);
        defaults.loop = num;
        break;
      case 'v':
        if (!Number.isInteger(num) || num > 15) throw new RtttlError(`volume "${value}" is not 0..15`, start);
        defaults.volume = num;
        break;
      case 's': {
        const s = value.toLowerCase();
        if (s !== 'n' && s !== 's' && s !== 'c')
          throw new RtttlError(`style "${value}" is not n, s or c`, start);
        defaults.style = s;
        break;
      }
      default:
        throw new RtttlError(`unknown default "${key}" (expected d, o, b, l, s or v)`, start);
    }
  }

  const notes: RtttlNote[] = [];
  pos = secondColon + 1;
  const noteText = text.slice(secondColon + 1);
  const noteRe = /^(\d*)([a-hA-HpP])(#?)(\.?)(\d*)(\.?)$/;
  for (const raw of noteText.split(',')) {
    const start = pos + (raw.length - raw.trimStart().length);
    pos += raw.length + 1;
    const item = raw.trim();
    if (item === '') {
      if (noteText.trim() === '') break;
      throw new RtttlError('empty note (two commas in a row?)', start);
    }
    const m = noteRe.exec(item);
    if (!m) {
      // find the first offending character for a precise position
      const bad = /^\d*/.exec(item)![0].length;
      const letter = item[bad];
      const reason =
        letter === undefined
          ? `note "${item}" has a duration but no note letter`
          : /[a-hA-HpP]/.test(letter)
            ? `malformed note "${item}"`
            : `"${letter}" is not a note letter (a-g, h or p)`;
      throw new RtttlError(reason, start + bad);
    }
    const [, durText, letterRaw, sharp, dot1, octText, dot2] = m as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    let duration: RtttlDuration = defaults.duration;
    if (durText !== '') {
      const d = Number(durText);
      if (!isDuration(d)) throw new RtttlError(`duration "${durText}" is not 1, 2, 4, 8, 16 or 32`, start);
      duration = d;
    }
    let letter = letterRaw.toLowerCase();
    if (letter === 'h') letter = 'b'; // German/Nokia "h" is B
    if (sharp && (letter === 'e' || letter === 'b' || letter === 'p')) {
      throw new RtttlError(`"${letter}#" is not a note`, start + durText.length);
    }
    const pitch = (letter + sharp) as RtttlPitch;
    let octave = defaults.octave;
    if (octText !== '') {
      const o = Number(octText);
      if (!(RTTTL_OCTAVES as readonly number[]).includes(o)) {
        throw new RtttlError(
          `octave "${octText}" is not 4..7`,
          start + item.indexOf(octText, durText.length + 1),
        );
      }
      octave = o;
    }
    if (dot1 && dot2) throw new RtttlError(`note "${item}" is dotted twice`, start);
    notes.push({ pitch, octave, duration, dotted: Boolean(dot1 || dot2) });
  }
  return { name, bpm: defaults.bpm, defaults, notes };
}

/**
 * Formats a song as RTTTL (RTX when loop/style/volume are set). Durations and octaves equal to the
 * defaults are left out; the dot follows the octave, as in Nokia's grammar.
 */
export function formatRtttl(song: RtttlSong): string {
  const d = song.defaults;
  const defs = [`d=${d.duration}`, `o=${d.octave}`, `b=${song.bpm}`];
  if (d.loop !== undefined) defs.push(`l=${d.loop}`);
  if (d.style !== undefined) defs.push(`s=${d.style}`);
  if (d.volume !== undefined) defs.push(`v=${d.volume}`);
  const notes = song.notes.map((n) => {
    let s = n.duration === d.duration ? '' : String(n.duration);
    s += n.pitch;
    if (n.pitch !== 'p' && n.octave !== d.octave) s += String(n.octave);
    if (n.dotted) s += '.';
    return s;
  });
  return `${song.name}:${defs.join(',')}:${notes.join(',')}`;
}

/** Length of the song in milliseconds (a whole note lasts 4 beats; a dot adds half). */
export function rtttlDurationMs(song: RtttlSong): number {
  const beatMs = 60000 / song.bpm;
  let total = 0;
  for (const n of song.notes) total += ((4 * beatMs) / n.duration) * (n.dotted ? 1.5 : 1);
  return Math.round(total);
}
