// Issue 28, office mode: History and the campaign view show which desk sent each send. Another
// desk's send is read-only here: only the desk that journaled it sends, continues or resends any of
// it (it alone knows what it has requested). "Resend to failed" of it is therefore not offered;
// "Send to failed from this desk" opens Compose with its failed numbers and text instead: a new send
// of this desk, estimated and sent like any other (numbers on the opt-out list left out).
import type { OutboxJob } from '../../domain/index.ts';
import type { ComposeDraft } from './compose/Compose.tsx';

/** " · sent from Front desk" / " · sent from this desk (Front desk)"; nothing on a desk of its own. */
export function SentBy({ job }: { job: OutboxJob }) {
  const by = job.sentBy;
  if (!by) return null;
  return (
    <span className={by.here ? 'sent-by' : 'sent-by other-desk'} data-testid="sent-by">
      {' · sent from '}
      {by.here ? `this desk (${by.desk})` : by.desk}
    </span>
  );
}

export function OtherDeskNote({ desk }: { desk: string }) {
  return (
    <p className="banner info small" role="note" data-testid="other-desk-note">
      Sent from desk “{desk}”. Only that desk continues, cancels or resends it; its results and receipts
      appear here as that desk records them.
    </p>
  );
}

/** Compose with another desk's send's failed numbers: a new send of this desk. */
export function SendToFailedHere({
  failed,
  job,
  onCompose,
}: {
  failed: readonly string[];
  job: OutboxJob;
  onCompose: (d: ComposeDraft) => void;
}) {
  return (
    <button
      type="button"
      title="A new send of this desk to the numbers that failed; numbers on the opt-out list are left out"
      onClick={() => onCompose({ numbers: [...failed], text: job.content.text })}
    >
      Send to failed from this desk ({failed.length.toLocaleString()})…
    </button>
  );
}
