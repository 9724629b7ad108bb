import { useCallback, useEffect, useState } from 'react';
import type { OutboundStatus, OutboxBatch, OutboxJob, RecipientOutcome } from '../../preload/api.ts';
import { describeReport } from '../../protocol/reports.ts';
import { api, useEvent } from '../api.ts';
import { useDialog } from '../components/Dialog.tsx';
import { StatusPill } from '../components/StatusPill.tsx';
import { JobBooks, toBooksOf, useJobBooks } from './HistoryBooks.tsx';
import { displayNumber, download, formatTime, plural } from '../format.ts';
import { isRichKind } from '../../protocol/content.ts';
import { EDITORS } from './media/registry.ts';
import type { ComposeDraft } from './compose/Compose.tsx';
import { ErrorText } from '../components/ErrorText.tsx';

type Filter = 'all' | 'accepted' | 'delivered' | 'failed' | 'unknown' | 'pending' | 'scheduled';
const FILTER_STATUSES: Record<Filter, OutboundStatus[] | null> = {
  all: null,
  accepted: ['accepted', 'queued', 'delivered'],
  delivered: ['delivered'],
  failed: ['rejected', 'failed'],
  unknown: ['unknown'],
  pending: ['pending', 'sending'],
  scheduled: null,
};

/** A send with a schedule the gateway accepted and has not delivered yet (spec: no cancel). */
const isScheduled = (j: OutboxJob): boolean =>
  (j.content.sendTimeAbsolute !== undefined || j.content.sendTimeDelay !== undefined) &&
  j.counts.accepted + j.counts.queued + j.counts.pending > 0;

/** When a scheduled send goes out, as the user set it. */
function scheduledAt(j: OutboxJob): string | null {
  if (j.content.sendTimeAbsolute !== undefined) return `${j.content.sendTimeAbsolute.replace('T', ' ')} UTC`;
  if (j.content.sendTimeDelay !== undefined)
    return formatTime(j.createdAt + j.content.sendTimeDelay * 60_000);
  return null;
}

/** A send's title: its text, else the name of its content kind ("Operator logo"). */
const jobTitle = (j: OutboxJob): string =>
  j.content.text || (isRichKind(j.content.kind) ? EDITORS[j.content.kind].label : j.content.kind);

const csvCell = (v: string): string => (/[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

export function History({ onCompose }: { onCompose: (d: ComposeDraft) => void }) {
  const [jobs, setJobs] = useState<OutboxJob[]>([]);
  const [filter, setFilter] = useState<Filter>('all');
  const [open, setOpen] = useState<number | null>(null);
  const [unknown, setUnknown] = useState<OutboxBatch[]>([]);
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(() => {
    api()
      .outbox.jobs({ limit: 200 })
      .then(setJobs, (e: unknown) => setError(e));
    api()
      .outbox.unknownBatches()
      .then(setUnknown, () => undefined);
  }, []);
  useEffect(load, [load]);
  useEvent('outbox:progress', (p) =>
    setJobs((js) =>
      js.some((j) => j.id === p.job.id) ? js.map((j) => (j.id === p.job.id ? p.job : j)) : [p.job, ...js],
    ),
  );
  useEvent('outbox:recovered', load);
  // A receipt changes its send's counts while the view is open (issue 12: History updates live).
  useEvent('inbox:receipt', (p) => {
    const id = p.message.jobId;
    if (id === null) return;
    void api()
      .outbox.job(id)
      .then((fresh) => {
        if (fresh) setJobs((js) => js.map((j) => (j.id === fresh.id ? fresh : j)));
      });
  });

  const statuses = FILTER_STATUSES[filter];
  const shown =
    filter === 'scheduled'
      ? jobs.filter(isScheduled)
      : statuses
        ? jobs.filter((j) => statuses.some((s) => j.counts[s] > 0))
        : jobs;

  return (
    <section className="view history" aria-labelledby="history-title">
      <div className="row spread">
        <h1 id="history-title">History</h1>
        <label>
          Show{' '}
          <select value={filter} onChange={(e) => setFilter(e.target.value as Filter)}>
            <option value="all">All sends</option>
            <option value="accepted">Accepted</option>
            <option value="delivered">Delivered</option>
            <option value="failed">Failed</option>
            <option value="unknown">Unknown outcome</option>
            <option value="pending">Pending</option>
            <option value="scheduled">Scheduled</option>
          </select>
        </label>
      </div>
      <ErrorText error={error} />
      {unknown.length ? (
        <div className="banner warn" role="status">
          {plural(unknown.length, 'batch', 'batches')} were being sent when the app stopped; their outcome is
          unknown. Check the recipients below before resending — they may already have received the message.
        </div>
      ) : null}
      {shown.length === 0 ? <p className="muted">No sends.</p> : null}
      <ul className="plain jobs">
        {shown.map((j) => (
          <li key={j.id} className="job">
            <button
              type="button"
              className="job-head"
              aria-expanded={open === j.id}
              onClick={() => setOpen(open === j.id ? null : j.id)}
            >
              <span className="job-text">{jobTitle(j)}</span>
              <span className="muted small">
                {formatTime(j.createdAt)} · {plural(j.recipientCount, 'recipient')}
                {j.extraReach !== undefined
                  ? ` + ${j.extraReach === null ? 'server books' : j.extraReach.toLocaleString()} through server books or Cc/Bcc`
                  : ''}
                {scheduledAt(j) ? ` · scheduled for ${scheduledAt(j)}` : ''}
              </span>
              <span className="counts">
                {/* One pill per outcome: rejected and failed are both "failed". */}
                {(
                  [
                    ['delivered', j.counts.delivered],
                    ['accepted', j.counts.accepted],
                    ['queued', j.counts.queued],
                    ['pending', j.counts.pending],
                    ['sending', j.counts.sending],
                    ['unknown', j.counts.unknown],
                    ['failed', j.counts.rejected + j.counts.failed],
                  ] as const
                ).map(([s, n]) =>
                  n ? (
                    <span key={s} className={`pill ${s}`}>
                      {n} {s}
                    </span>
                  ) : null,
                )}
              </span>
            </button>
            {open === j.id ? (
              <JobDetail job={j} filter={statuses} onCompose={onCompose} onChanged={load} />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function JobDetail({
  job,
  filter,
  onCompose,
  onChanged,
}: {
  job: OutboxJob;
  filter: OutboundStatus[] | null;
  onCompose: (d: ComposeDraft) => void;
  onChanged: () => void;
}) {
  const [rows, setRows] = useState<RecipientOutcome[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const dialog = useDialog();
  const books = useJobBooks(job);
  useEffect(() => {
    api()
      .outbox.recipients(job.id)
      .then(setRows, (e: unknown) => setError(e));
  }, [job.id, job.counts]);

  const failed = rows.filter((r) => r.status === 'rejected' || r.status === 'failed').map((r) => r.to);
  const shown = filter ? rows.filter((r) => filter.includes(r.status)) : rows;
  const resend = async () => {
    const yes = await dialog.confirm({
      title: 'Resend to failed recipients?',
      message: `Send the message again to ${plural(failed.length, 'failed recipient')}?`,
      confirmLabel: 'Resend',
    });
    if (!yes) return;
    api()
      .outbox.resend({ jobId: job.id, numbers: failed })
      .then(
        (j) => {
          setNotice(`Resent as send #${j.id}`);
          onChanged();
        },
        (e: unknown) => setError(e),
      );
  };
  // A book's batch (issue 16) has no recipient rows: it counts as one.
  const pendingCount = job.counts.pending + books.filter((b) => b.state === 'pending').length;
  // The per-recipient report of this send, as the table shows it.
  const exportCsv = () => {
    const lines = ['number,status,report,report text,receipt,message id'];
    for (const r of rows)
      lines.push(
        [
          r.to,
          r.status,
          r.report ?? '',
          r.report !== null ? describeReport(r.report, r.reportText ?? undefined) : '',
          r.receiptReport !== null ? describeReport(r.receiptReport) : '',
          r.messageIdentifier ?? '',
        ]
          .map(csvCell)
          .join(','),
      );
    download(`send-${job.id}.csv`, lines.join('\r\n') + '\r\n');
  };
  return (
    <div className="job-detail">
      <div className="row">
        <button type="button" onClick={() => void resend()} disabled={failed.length === 0}>
          Resend to failed ({failed.length})
        </button>
        <button
          type="button"
          onClick={() =>
            onCompose({
              numbers: rows.map((r) => r.to),
              text: job.content.text,
              addressBooks: toBooksOf(books),
            })
          }
        >
          Edit and send again
        </button>
        {pendingCount && !job.counts.sending ? (
          // Issue 17: only the recipients never requested; an unknown one is not sent again.
          <button
            type="button"
            className="primary"
            onClick={() =>
              void api()
                .outbox.continue(job.id)
                .then(
                  () => {
                    setNotice(`Continuing: ${plural(pendingCount, 'recipient')} never requested`);
                    onChanged();
                  },
                  (e: unknown) => setError(e),
                )
            }
          >
            Continue sending ({pendingCount})
          </button>
        ) : null}
        {pendingCount ? (
          <button
            type="button"
            className="danger"
            onClick={() =>
              void api()
                .outbox.cancel(job.id)
                .then(onChanged, (e: unknown) => setError(e))
            }
          >
            Cancel pending ({pendingCount})
          </button>
        ) : null}
        <button type="button" onClick={exportCsv} disabled={rows.length === 0}>
          Export CSV
        </button>
        {notice ? <span className="muted">{notice}</span> : null}
      </div>
      {isScheduled(job) ? (
        <p className="muted small">
          Scheduled for {scheduledAt(job)}. The gateway offers no way to cancel a scheduled message once it
          has accepted it.
        </p>
      ) : null}
      <ErrorText error={error} />
      <JobBooks batches={books} />
      <table className="table">
        <thead>
          <tr>
            <th>Recipient</th>
            <th>Status</th>
            <th>Report</th>
            <th>Message id</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.to}>
              <td>{displayNumber(r.to)}</td>
              <td>
                <StatusPill status={r.status} />
              </td>
              <td className="muted">
                {r.report !== null ? describeReport(r.report, r.reportText ?? undefined) : ''}
                {r.receiptReport !== null
                  ? ` · receipt: ${describeReport(r.receiptReport)} (code ${r.receiptReport})`
                  : ''}
                {r.receiptOverdue ? ' · no receipt yet' : ''}
              </td>
              <td className="muted small">{r.messageIdentifier ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
