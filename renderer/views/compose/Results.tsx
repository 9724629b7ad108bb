// Compose's per-recipient results of the job it sent, kept up the renderer's one way (issue 27,
// hooks/useLiveRead): a progress event, a delivery receipt or a crash recovery of that job says it
// changed, and a throttled read of the journal (the job's counts, its rows, its book batches) says
// what it is now. Nothing is merged from events, so a receipt, a resend or an event the window
// missed reads the same here as in History.
import { useCallback, useState } from 'react';
import type { OutboxBatch, OutboxJob, RecipientOutcome } from '../../../domain/index.ts';
import { api } from '../../api.ts';
import { useDialog } from '../../components/Dialog.tsx';
import { ErrorText } from '../../components/ErrorText.tsx';
import { RecipientTable, SummaryLine, groupOf } from '../../components/RecipientTable.tsx';
import { SendOutcome } from '../../components/SendOutcome.tsx';
import { useContactNames } from '../../hooks/useContactNames.ts';
import { useLiveRead } from '../../hooks/useLiveRead.ts';
import { useSendHalts } from '../../hooks/useSendHalts.ts';
import { mainFailReason, sendOutcome } from '../../send-outcome.ts';
import { resendFailed } from '../send-actions.ts';

/** One read of the job followed. */
interface SendRead {
  job: OutboxJob;
  rows: RecipientOutcome[];
  books: OutboxBatch[];
}

export interface SendJob {
  /** The job followed, as last read (the snapshot submit() answered until the first read does). */
  job: OutboxJob | null;
  /** Its recipients as last read (none until then). */
  rows: RecipientOutcome[];
  /** Its batches that carry a server book or Cc/Bcc (issue 16: no recipient rows of their own). */
  books: OutboxBatch[];
  /** The read failed (shown in Results). */
  error: unknown;
  /** Follow this job (submit() or a resend accepted it); the last one's rows go. */
  follow: (accepted: OutboxJob) => void;
  /** No job shown (a new message). */
  reset: () => void;
}

export function useSendJob(): SendJob {
  const [followed, setFollowed] = useState<OutboxJob | null>(null);
  const id = followed?.id ?? null;
  const withBooks = followed !== null && followed.extraReach !== undefined;
  // A new job is a new read, made at once: a small send that finished before submit() answered
  // reads finished, though its events came while no job was followed.
  const read = useCallback(async (): Promise<SendRead | null> => {
    if (id === null) return null;
    const [job, rows, batches] = await Promise.all([
      api().outbox.job(id),
      api().outbox.recipients(id),
      withBooks ? api().outbox.batches(id) : Promise.resolve([]),
    ]);
    return job ? { job, rows, books: batches.filter((b) => b.extras) } : null;
  }, [id, withBooks]);
  const { data, error } = useLiveRead(read, {
    'outbox:progress': (p) => p.jobId === id,
    'inbox:receipt': (p) => p.message.jobId === id,
    'outbox:recovered': (p) => p.batches.some((b) => b.jobId === id),
  });
  // The last read, while it is of the job followed (a resend's first read has not answered yet).
  const current = data !== null && data.job.id === id ? data : null;
  const reset = useCallback(() => setFollowed(null), []);
  return {
    job: current?.job ?? followed,
    rows: current?.rows ?? [],
    books: current?.books ?? [],
    error,
    follow: setFollowed,
    reset,
  };
}

/**
 * The send's outcome in words and as a bar (issue 25: the same headline as History and the
 * campaign view), "Resend to failed" right there, and the per-recipient rows.
 */
export function Results({
  job,
  rows,
  books,
  error: readError,
  onResent,
}: Omit<SendJob, 'follow' | 'reset'> & { job: OutboxJob; onResent: (job: OutboxJob) => void }) {
  const names = useContactNames();
  const dialog = useDialog();
  const halted = useSendHalts();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const outcome = sendOutcome({
    counts: job.counts,
    books,
    content: job.content,
    createdAt: job.createdAt,
    failReason: mainFailReason(rows),
    halted: halted(job.id),
  });
  const failed = rows.filter((r) => groupOf(r) === 'failed').map((r) => r.to);
  const open = outcome.tally.open > 0 && outcome.tone !== 'halted';
  const resend = () => {
    setBusy(true);
    setError(null);
    void resendFailed(dialog, job, failed, onResent)
      .catch((e: unknown) => setError(e))
      .finally(() => setBusy(false));
  };
  return (
    <div className="results" aria-label="Send results">
      <SendOutcome outcome={outcome} label="Send outcome" testId="send-outcome" reveal />
      {failed.length > 0 && !open ? (
        <div className="row">
          <button type="button" className="primary" disabled={busy} onClick={resend}>
            Resend to failed ({failed.length.toLocaleString()})
          </button>
        </div>
      ) : null}
      <ErrorText error={error ?? readError} />
      {/* The rows the table shows, counted (issue 12). */}
      <p className="muted small">
        <SummaryLine rows={rows} />
      </p>
      <RecipientTable rows={rows} names={names} testId="send-results" />
    </div>
  );
}
