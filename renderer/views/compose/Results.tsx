// Compose's per-recipient results of the job it sent: progress events and delivery receipts of that
// job update the rows while the view is open.
import { useRef, useState } from 'react';
import type { OutboxBatch, OutboxJob, RecipientOutcome } from '../../../domain/index.ts';
import { api, useEvent } from '../../api.ts';
import { useDialog } from '../../components/Dialog.tsx';
import { ErrorText } from '../../components/ErrorText.tsx';
import { RecipientTable, SummaryLine, groupOf } from '../../components/RecipientTable.tsx';
import { SendOutcome } from '../../components/SendOutcome.tsx';
import { useContactNames } from '../../hooks/useContactNames.ts';
import { useSendHalts } from '../../hooks/useSendHalts.ts';
import { mainFailReason, sendOutcome } from '../../send-outcome.ts';
import { resendFailed } from '../send-actions.ts';

/** Of two snapshots of the same job, the one with fewer recipients still pending or sending. */
function laterSnapshot(current: OutboxJob | null, next: OutboxJob): OutboxJob {
  if (!current || current.id !== next.id) return next;
  const open = (j: OutboxJob) => j.counts.pending + j.counts.sending;
  return open(next) <= open(current) ? next : current;
}

export interface SendJob {
  job: OutboxJob | null;
  outcomes: Map<string, RecipientOutcome>;
  /** Recipients answered so far. */
  done: number;
  /** A new send starts: the last one's rows go. */
  clear: () => void;
  /** The job submit() accepted. */
  follow: (accepted: OutboxJob) => void;
  /** No job shown (a new message). */
  reset: () => void;
}

export function useSendJob(): SendJob {
  const [job, setJob] = useState<OutboxJob | null>(null);
  const [outcomes, setOutcomes] = useState<Map<string, RecipientOutcome>>(new Map());
  // The job followed, known at once: an event arriving before the next render is not dropped.
  const jobId = useRef<number | null>(null);

  useEvent('outbox:progress', (p) => {
    if (p.jobId !== jobId.current) return;
    setJob((current) => laterSnapshot(current, p.job));
    setOutcomes((m) => {
      const next = new Map(m);
      for (const o of p.outcomes) next.set(o.to, o);
      return next;
    });
  });
  useEvent('inbox:receipt', (p) => {
    const msg = p.message;
    if (msg.jobId !== jobId.current) return;
    setOutcomes((m) => {
      const prev = m.get(msg.peer);
      if (!prev) return m;
      const next = new Map(m);
      next.set(msg.peer, {
        ...prev,
        status: msg.status as RecipientOutcome['status'],
        receiptReport: msg.receiptReport,
      });
      return next;
    });
  });

  const follow = (accepted: OutboxJob) => {
    jobId.current = accepted.id;
    setJob((current) => laterSnapshot(current, accepted));
    // A small send can finish before submit() answers: its progress events came while no job was
    // shown, so read the job back once instead of showing it as still pending.
    void api()
      .outbox.job(accepted.id)
      .then((fresh) => {
        if (fresh) setJob((current) => laterSnapshot(current, fresh));
      });
    void api()
      .outbox.recipients(accepted.id)
      .then((list) =>
        setOutcomes((m) => {
          const next = new Map(list.map((o) => [o.to, o] as const));
          for (const [k, v] of m) next.set(k, v);
          return next;
        }),
      );
  };

  const done = job ? job.recipientCount - job.counts.pending - job.counts.sending : 0;
  const reset = () => {
    jobId.current = null;
    setJob(null);
    setOutcomes(new Map());
  };
  return { job, outcomes, done, clear: () => setOutcomes(new Map()), follow, reset };
}

/**
 * The send's outcome in words and as a bar (issue 25: the same headline as History and the
 * campaign view), "Resend to failed" right there, and the per-recipient rows.
 */
export function Results({
  job,
  outcomes,
  books,
  onResent,
}: SendJob & { job: OutboxJob; books: readonly OutboxBatch[]; onResent: (job: OutboxJob) => void }) {
  const names = useContactNames();
  const dialog = useDialog();
  const halted = useSendHalts();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const rows = [...outcomes.values()];
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
      <ErrorText error={error} />
      {/* The rows the table shows, counted (issue 12). */}
      <p className="muted small">
        <SummaryLine rows={rows} />
      </p>
      <RecipientTable rows={rows} names={names} testId="send-results" />
    </div>
  );
}
