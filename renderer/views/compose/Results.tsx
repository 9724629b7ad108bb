// Compose's per-recipient results of the job it sent, kept up the renderer's one way (issue 27,
// hooks/useLiveRead): a progress event, a delivery receipt or a crash recovery of that job says it
// changed, and throttled reads of the journal (the job's counts and book batches; its rows) say
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

/** The job followed and its book batches: a small read, so the headline and the bar move often. */
interface JobRead {
  job: OutboxJob;
  books: OutboxBatch[];
}

/** Rows drawn at once: a send to 100,000 would take the page's thread for seconds on every read. */
export const SHOWN_MAX = 500;

export interface SendJob {
  /** The job followed, as last read (the snapshot submit() answered until the first read does). */
  job: OutboxJob | null;
  /** Its recipients as last read (none until then). */
  rows: RecipientOutcome[];
  /** Its batches that carry a server book or Cc/Bcc (issue 16: no recipient rows of their own). */
  books: OutboxBatch[];
  /** A read failed (shown in Results). */
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
  // The events that concern the job followed: each asks both reads again.
  const triggers = {
    'outbox:progress': (p: { jobId: number }) => p.jobId === id,
    'inbox:receipt': (p: { message: { jobId: number | null } }) => p.message.jobId === id,
    'outbox:recovered': (p: { batches: readonly OutboxBatch[] }) => p.batches.some((b) => b.jobId === id),
  };
  // Two reads, each throttled by its own time (useThrottledRead): the job's counts and books are
  // quick to read and move the headline and the bar often; its rows (100,000 for a large send) are
  // read as often as they can be. A new job is a new read, made at once: a small send that finished
  // before submit() answered reads finished, though its events came while no job was followed.
  const readJob = useCallback(async (): Promise<JobRead | null> => {
    if (id === null) return null;
    const [job, batches] = await Promise.all([
      api().outbox.job(id),
      withBooks ? api().outbox.batches(id) : Promise.resolve([]),
    ]);
    return job ? { job, books: batches.filter((b) => b.extras) } : null;
  }, [id, withBooks]);
  const readRows = useCallback(
    async (): Promise<{ id: number; rows: RecipientOutcome[] } | null> =>
      id === null ? null : { id, rows: await api().outbox.recipients(id) },
    [id],
  );
  const jobRead = useLiveRead(readJob, triggers);
  const rowsRead = useLiveRead(readRows, triggers);
  // The last reads, while they are of the job followed (a resend's first reads have not answered yet).
  const current = jobRead.data !== null && jobRead.data.job.id === id ? jobRead.data : null;
  const rows = rowsRead.data !== null && rowsRead.data.id === id ? rowsRead.data.rows : [];
  const reset = useCallback(() => setFollowed(null), []);
  return {
    job: current?.job ?? followed,
    rows,
    books: current?.books ?? [],
    error: jobRead.error ?? rowsRead.error,
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
    unknownCauses: job.unknownCauses,
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
      {/* The rows the table shows, counted (issue 12); a send to server books only has none. */}
      {rows.length > 0 ? (
        <p className="muted small">
          <SummaryLine rows={rows} />
        </p>
      ) : null}
      {rows.length > SHOWN_MAX ? (
        <p className="muted small" data-testid="results-shown">
          Showing the first {SHOWN_MAX.toLocaleString()} of {rows.length.toLocaleString()}: History&apos;s
          campaign view has them all, with search and the CSV.
        </p>
      ) : null}
      {rows.length > 0 ? (
        <RecipientTable rows={rows.slice(0, SHOWN_MAX)} names={names} testId="send-results" />
      ) : null}
    </div>
  );
}
