// Plays an RTTTL song as a handset's buzzer would: a square wave per note through Web Audio.
// (Part B's minimal version so the virtual phone typechecks before the merge; part A's audio.ts,
// with the same signature, replaces it.)
import { RTTTL_PITCHES } from '../../../protocol/smart/rtttl.ts';
import type { RtttlSong } from '../../../protocol/smart/rtttl.ts';

/** Equal temperament, a4 = 440 Hz. */
function frequency(pitchIndex: number, octave: number): number {
  const midi = 12 * (octave + 1) + pitchIndex;
  return 440 * 2 ** ((midi - 69) / 12);
}

export function playSong(song: RtttlSong): { stop(): void; done: Promise<void> } {
  const ctx = new AudioContext();
  const gain = ctx.createGain();
  gain.gain.value = 0.08;
  gain.connect(ctx.destination);
  const beat = 60 / song.bpm;
  let t = ctx.currentTime + 0.05;
  const oscillators: OscillatorNode[] = [];
  for (const n of song.notes) {
    const seconds = ((4 * beat) / n.duration) * (n.dotted ? 1.5 : 1);
    if (n.pitch !== 'p') {
      const osc = ctx.createOscillator();
      osc.type = 'square';
      osc.frequency.value = frequency(RTTTL_PITCHES.indexOf(n.pitch), n.octave);
      osc.connect(gain);
      osc.start(t);
      // a short gap between notes, as handsets play them
      osc.stop(t + seconds * 0.9);
      oscillators.push(osc);
    }
    t += seconds;
  }
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const end = (): void => {
    void ctx.close().catch(() => undefined);
    finish();
  };
  const timer = setTimeout(end, Math.max(0, (t - ctx.currentTime) * 1000) + 50);
  return {
    stop() {
      clearTimeout(timer);
      for (const o of oscillators) {
        try {
          o.stop();
        } catch {
          // already stopped
        }
      }
      end();
    },
    done,
  };
}
