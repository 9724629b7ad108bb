// Ringtone preview: an RTTTL song played through Web Audio with a square wave, as the phones did.
// playSong is also what the virtual phone uses to play received ringtones.
import type { RtttlNote, RtttlSong } from '../../../protocol/smart/rtttl.ts';

const SEMITONES: Record<string, number> = {
  c: 0,
  'c#': 1,
  d: 2,
  'd#': 3,
  e: 4,
  f: 5,
  'f#': 6,
  g: 7,
  'g#': 8,
  a: 9,
  'a#': 10,
  b: 11,
};

/** Frequency in Hz of a note; null for a pause. RTTTL octave 4 holds A at 440 Hz (Nokia scale 0). */
export function noteFrequency(note: Pick<RtttlNote, 'pitch' | 'octave'>): number | null {
  const s = SEMITONES[note.pitch];
  if (s === undefined) return null;
  return 440 * 2 ** ((s - 9) / 12 + (note.octave - 4));
}

/** Length of a note in ms at `bpm` (a quarter note is one beat; a dot adds half). */
export function noteMs(note: Pick<RtttlNote, 'duration' | 'dotted'>, bpm: number): number {
  return ((4 * 60000) / bpm / note.duration) * (note.dotted ? 1.5 : 1);
}

/** Share of a note's time that sounds, by RTX style (staccato is short, continuous is legato). */
function soundingShare(song: RtttlSong): number {
  const style = song.defaults.style;
  return style === 's' ? 0.5 : style === 'c' ? 1 : 0.9;
}

type AudioContextCtor = new () => AudioContext;

/** Plays a song once; stop() ends it early. `done` settles when it has ended either way. */
export function playSong(song: RtttlSong): { stop(): void; done: Promise<void> } {
  const Ctor =
    (globalThis as { AudioContext?: AudioContextCtor; webkitAudioContext?: AudioContextCtor }).AudioContext ??
    (globalThis as { webkitAudioContext?: AudioContextCtor }).webkitAudioContext;
  if (!Ctor) {
    const done = Promise.reject(new Error('this browser has no Web Audio'));
    done.catch(() => undefined); // a caller that never awaits it gets no unhandled rejection
    return { stop() {}, done };
  }
  const ctx = new Ctor();
  // Started from a click, but a context can still begin suspended (autoplay policy).
  if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
  const master = ctx.createGain();
  // RTX volume 0..15 (default 7): square waves are loud, so keep well below full scale.
  master.gain.value = 0.24 * (((song.defaults.volume ?? 7) + 1) / 16);
  master.connect(ctx.destination);
  const share = soundingShare(song);
  let t = ctx.currentTime + 0.05;
  const oscillators: OscillatorNode[] = [];
  for (const note of song.notes) {
    const len = noteMs(note, song.bpm) / 1000;
    const f = noteFrequency(note);
    if (f !== null) {
      const osc = ctx.createOscillator();
      osc.type = 'square';
      osc.frequency.value = f;
      osc.connect(master);
      osc.start(t);
      osc.stop(t + len * share);
      oscillators.push(osc);
    }
    t += len;
  }
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    for (const o of oscillators) {
      try {
        o.stop();
      } catch {
        // already stopped
      }
    }
    void ctx.close().finally(finish);
  };
  const timer = setTimeout(end, Math.max(0, (t - ctx.currentTime) * 1000) + 100);
  return { stop: end, done };
}
