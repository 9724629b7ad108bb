// Compose's per-recipient results of the job it sent: progress events and delivery receipts of that
// job update the rows while the view is open.
import { useRef, useState } from 'react';
import type { OutboxJob, RecipientOutcome } from '../../../domain/index.ts';
import { api, useEvent } from '../../api.ts';
import { RecipientTable, summarize } from '../../components/RecipientTable.tsx';
import { useContactNames } from '../../hooks/useContactNames.ts';

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

export function Results({ job, outcomes, done }: SendJob & { job: OutboxJob }) {
  const pct = job.recipientCount ? Math.round((done / job.recipientCount) * 100) : 0;
  const names = useContactNames();
  const rows = [...outcomes.values()];
  // The summary counts the rows the table shows (issue 12); the progress follows the journal.
  const c = summarize(rows);
  return (
    <div className="results" aria-label="Send results">
      <progress max={100} value={pct} aria-label="Send progress" />
      <div className="muted small">
        {done}/{job.recipientCount} answered — {c.accepted + c.noReceipt + c.delivered} accepted, {c.failed}{' '}
        failed, {c.unknown} unknown
        {c.pending ? `, ${c.pending} pending` : ''}
      </div>
      <RecipientTable rows={rows} names={names} testId="send-results" />
    </div>
  );
}
