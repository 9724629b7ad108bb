// Issue 25 item 4: a send's outcome as its headline (../send-outcome.ts) and a bar that shows
// accepted, failed, unknown and not-yet-answered apart (a full blue "400/400 answered" said nothing
// about 150 failures). Compose's result, History's send and the campaign view show this one.
import { useEffect, useRef } from 'react';
import type { Outcome, Tally } from '../send-outcome.ts';

const PARTS = [
  ['accepted', 'accepted'],
  ['failed', 'failed'],
  ['unknown', 'unknown'],
  ['open', 'not answered yet'],
] as const satisfies ReadonlyArray<readonly [keyof Tally, string]>;

/** The tally as one bar of coloured parts, each part's width its share, its count in the label. */
export function OutcomeBar({ tally, label }: { tally: Tally; label: string }) {
  const words = PARTS.filter(([k]) => tally[k] > 0)
    .map(([k, w]) => `${tally[k].toLocaleString()} ${w}`)
    .join(', ');
  return (
    <div className="outcome-bar" role="img" aria-label={`${label}: ${words || 'nothing yet'}`}>
      {tally.total > 0
        ? PARTS.filter(([k]) => tally[k] > 0).map(([k]) => (
            <span key={k} className={`part ${k}`} style={{ flexGrow: tally[k] }} data-part={k} />
          ))
        : null}
    </div>
  );
}

/** The headline (a status line, read out as it changes) above the bar. */
export function SendOutcome({
  outcome,
  label,
  testId,
  reveal = false,
}: {
  outcome: Outcome;
  label: string;
  testId?: string;
  /** Scrolled into view when the send finishes (Compose: below the form on a small window). */
  reveal?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const finished = outcome.tone !== 'progress';
  useEffect(() => {
    if (reveal && finished) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [reveal, finished]);
  return (
    <div className={`send-outcome ${outcome.tone}`} ref={ref}>
      <p className="outcome-headline" role="status" data-testid={testId} data-tone={outcome.tone}>
        {outcome.headline}
      </p>
      <OutcomeBar tally={outcome.tally} label={label} />
    </div>
  );
}
