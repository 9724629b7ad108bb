import { describe, expect, it } from 'vitest';
import { RtttlError, formatRtttl, parseRtttl, rtttlDurationMs } from '../../../../protocol/smart/rtttl.ts';

const NOKIA_TUNE = 'Nokia:d=4,o=5,b=180:8e6,8d6,f#,g#,8c#6,8b,d,e,8b,8a,c#,e,2a';

describe('RTTTL parser', () => {
  it('parses name, defaults and notes with sharps, octaves and default durations', () => {
    const song = parseRtttl(NOKIA_TUNE);
    expect(song.name).toBe('Nokia');
    expect(song.bpm).toBe(180);
    expect(song.defaults).toEqual({ duration: 4, octave: 5, bpm: 180 });
    expect(song.notes).toHaveLength(13);
    expect(song.notes[0]).toEqual({ pitch: 'e', octave: 6, duration: 8, dotted: false });
    expect(song.notes[2]).toEqual({ pitch: 'f#', octave: 5, duration: 4, dotted: false });
    expect(song.notes[12]).toEqual({ pitch: 'a', octave: 5, duration: 2, dotted: false });
  });

  it('accepts dotted notes before or after the octave, pauses and missing defaults', () => {
    const song = parseRtttl('x::8f#.6,4p,2a#5.,16c.,32h');
    expect(song.defaults).toEqual({ duration: 4, octave: 6, bpm: 63 });
    expect(song.notes).toEqual([
      { pitch: 'f#', octave: 6, duration: 8, dotted: true },
      { pitch: 'p', octave: 6, duration: 4, dotted: false },
      { pitch: 'a#', octave: 5, duration: 2, dotted: true },
      { pitch: 'c', octave: 6, duration: 16, dotted: true },
      { pitch: 'b', octave: 6, duration: 32, dotted: false },
    ]);
  });

  it('accepts RTX defaults l, s and v', () => {
    const song = parseRtttl('Loop:d=8,o=6,b=125,l=15,s=s,v=10:c,d,e');
    expect(song.defaults).toEqual({ duration: 8, octave: 6, bpm: 125, loop: 15, style: 's', volume: 10 });
    expect(formatRtttl(song)).toBe('Loop:d=8,o=6,b=125,l=15,s=s,v=10:c,d,e');
  });

  it('formats and re-parses to the same song', () => {
    for (const text of [NOKIA_TUNE, 'x:d=16,o=7,b=900:c.,4p,1g4,32a#.', 'slow:d=1,o=4,b=25:c,2p,d.']) {
      const song = parseRtttl(text);
      expect(parseRtttl(formatRtttl(song))).toEqual(song);
    }
    expect(formatRtttl(parseRtttl(NOKIA_TUNE))).toBe(NOKIA_TUNE);
  });

  it('reports the position and the reason of errors', () => {
    const cases: Array<[string, number, RegExp]> = [
      ['abc', 3, /missing ":"/],
      ['a:d=4,o=5', 9, /missing ":" after the defaults/],
      ['a:d=3:c', 2, /default duration "3"/],
      ['a:d=4,o=9:c', 6, /default octave "9"/],
      ['a:d=4,z=1:c', 6, /unknown default "z"/],
      ['a:d=4:c,x,d', 8, /"x" is not a note letter/],
      ['a:d=4:c,3d', 8, /duration "3"/],
      ['a:d=4:c,e#', 8, /"e#" is not a note/],
      ['a:d=4:c,d9', 9, /octave "9"/],
      ['a:d=4:c,,d', 8, /empty note/],
      ['a:b=1000:c', 2, /tempo "1000"/],
    ];
    for (const [text, position, reason] of cases) {
      let err: unknown;
      try {
        parseRtttl(text);
      } catch (e) {
        err = e;
      }
      expect(err, text).toBeInstanceOf(RtttlError);
      expect((err as RtttlError).position, text).toBe(position);
      expect((err as RtttlError).reason, text).toMatch(reason);
    }
  });

  it('computes the playing time from tempo and dots', () => {
    // 60 bpm: a quarter note is one second; dotted half = 3 s; eighth pause = 0.5 s
    expect(rtttlDurationMs(parseRtttl('t:d=4,o=5,b=60:c,2d.,8p'))).toBe(4500);
  });
});
