// A staff-like row of the parsed notes of a ringtone: five lines, note heads placed by pitch and
// octave (sharps marked), hollow heads for whole and half notes, rests as blocks.
import type { RtttlNote } from '../../../protocol/smart/rtttl.ts';

const LETTER_STEP: Record<string, number> = { c: 0, d: 1, e: 2, f: 3, g: 4, a: 5, b: 6 };
const STEP = 5; // px per diatonic step
const X0 = 16;
const DX = 22;

/** Diatonic steps above C of RTTTL octave 4 (for placing a note head). */
export function staffStep(note: Pick<RtttlNote, 'pitch' | 'octave'>): number | null {
  if (note.pitch === 'p') return null;
  return (note.octave - 4) * 7 + (LETTER_STEP[note.pitch[0]!] ?? 0);
}

/** Short extra lines a note outside the five lines (steps 9..17) needs. */
function ledgerSteps(step: number): number[] {
  const out: number[] = [];
  for (let l = 7; l >= step; l -= 2) out.push(l);
  for (let l = 19; l <= step; l += 2) out.push(l);
  return out;
}

export function describeNote(n: RtttlNote): string {
  const len = `1/${n.duration}${n.dotted ? ' dotted' : ''}`;
  return n.pitch === 'p' ? `rest ${len}` : `${n.pitch.toUpperCase()}${n.octave} ${len}`;
}

export function Staff({ notes }: { notes: readonly RtttlNote[] }) {
  const steps = notes.map(staffStep).filter((s): s is number => s !== null);
  const lo = Math.min(10, ...steps);
  const hi = Math.max(18, ...steps);
  const height = (hi - lo) * STEP + 52;
  const yOf = (step: number) => 32 + (hi - step) * STEP;
  // Five lines around the middle of octave 5 (E5..F6 as a treble staff an octave up).
  const lines = [9, 11, 13, 15, 17].map(yOf);
  const width = X0 * 2 + Math.max(1, notes.length) * DX;
  return (
    <div
      className="staff"
      role="img"
      aria-label={`${notes.length} notes: ${notes.map(describeNote).join(', ')}`}
    >
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} aria-hidden="true">
        {lines.map((y) => (
          <line key={y} x1={4} x2={width - 4} y1={y} y2={y} className="staff-line" />
        ))}
        {notes.map((n, i) => {
          const x = X0 + i * DX;
          const s = staffStep(n);
          if (s === null) {
            const w = n.duration <= 2 ? 10 : 6;
            return (
              <g key={i}>
                <title>{describeNote(n)}</title>
                <rect
                  x={x - w / 2}
                  y={yOf(13) - 4}
                  width={w}
                  height={n.duration <= 2 ? 4 : 10}
                  className="staff-rest"
                />
              </g>
            );
          }
          const y = yOf(s);
          const hollow = n.duration <= 2;
          return (
            <g key={i}>
              <title>{describeNote(n)}</title>
              {ledgerSteps(s).map((l) => (
                <line key={l} x1={x - 9} x2={x + 9} y1={yOf(l)} y2={yOf(l)} className="staff-line" />
              ))}
              <ellipse
                cx={x}
                cy={y}
                rx={6}
                ry={4.4}
                className={hollow ? 'staff-head hollow' : 'staff-head'}
              />
              {n.duration > 1 ? (
                <line x1={x + 6} x2={x + 6} y1={y} y2={y - 26} className="staff-stem" />
              ) : null}
              {n.duration >= 8 ? (
                <path
                  d={`M${x + 6} ${y - 26} q 6 6 5 ${n.duration >= 16 ? 14 : 10}`}
                  className="staff-flag"
                />
              ) : null}
              {n.pitch.endsWith('#') ? (
                <text x={x - 13} y={y + 4} className="staff-sharp">
                  ♯
                </text>
              ) : null}
              {n.dotted ? <circle cx={x + 9} cy={y} r={1.6} className="staff-dot" /> : null}
            </g>
          );
        })}
      </svg>
    </div>
  );
}
