import { useCallback, useEffect, useRef, useState } from 'react';
import type { OutboundStatus, OutboxBatch, OutboxJob, SendHit } from '../../domain/index.ts';
import { api } from '../api.ts';
import { useDialog } from '../components/Dialog.tsx';
import { JobBooks, toBooksOf, useJobBooks } from './HistoryBooks.tsx';
import { RecipientTable, SummaryLine, groupOf, recipientsCsv } from '../components/RecipientTable.tsx';
import { download, formatTime, plural } from '../format.ts';
import { useContactNames } from '../hooks/useContactNames.ts';
import { useThrottledRead } from '../hooks/useThrottledRead.ts';
import { useLiveRead } from '../hooks/useLiveRead.ts';
import type { ComposeDraft } from './compose/Compose.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import { Campaign } from './Campaign.tsx';
import { continueSending, jobTitle, latestFailed, resendFailed } from './send-actions.ts';
import { FAILED_STATUSES, groupCounts, statusesOf } from '../../domain/status-groups.ts';
import { SendOutcome } from '../components/SendOutcome.tsx';
import { useSendHalts } from '../hooks/useSendHalts.ts';
import { mainFailReason, scheduledAt as scheduledFor, sendOutcome, unknownBanner } from '../send-outcome.ts';
import { AccountScope } from '../components/AccountScope.tsx';
import { OtherDeskNote, SendToFailedHere, SentBy } from './OfficeSends.tsx';

type Filter = 'all' | 'accepted' | 'delivered' | 'failed' | 'unknown' | 'pending' | 'scheduled';
const FILTER_STATUSES: Record<Filter, OutboundStatus[] | null> = {
  all: null,
  accepted: [...statusesOf('accepted'), ...statusesOf('delivered')],
  delivered: statusesOf('delivered'),
  failed: [...FAILED_STATUSES],
  unknown: statusesOf('unknown'),
  pending: [...statusesOf('pending'), ...statusesOf('sending')],
  scheduled: null,
};

/** A send with a schedule the gateway accepted and has not delivered yet (spec: no cancel). */
const isScheduled = (j: OutboxJob): boolean =>
  (j.content.sendTimeAbsolute !== undefined || j.content.sendTimeDelay !== undefined) &&
  groupCounts(j.counts).accepted + j.counts.pending > 0;

/** When a scheduled send goes out, as the user set it. */
const scheduledAt = (j: OutboxJob): string | null => scheduledFor(j.content, j.createdAt);

/** Issue 25: a send's outcome in the list, in the words Compose and the campaign view use. */
function JobOutcomeLine({ job, halted }: { job: OutboxJob; halted: string | null }) {
  const books = useJobBooks(job);
  const o = sendOutcome({
    counts: job.counts,
    books,
    content: job.content,
    createdAt: job.createdAt,
    halted,
    unknownCauses: job.unknownCauses,
  });
  return (
    <span className={`job-outcome small send-outcome ${o.tone}`} data-testid="job-outcome">
      <span className="outcome-headline">{o.headline}</span>
    </span>
  );
}

/** Issue 27: what History's "Open campaign" is offered for (JobDetail); the search opens those so. */
const opensAsCampaign = (s: { recipientCount: number; resendOf: number | null }): boolean =>
  s.recipientCount > 1 || s.resendOf !== null;

export function History({
  onCompose,
  openSend,
}: {
  onCompose: (d: ComposeDraft) => void;
  /** Issue 27: a send found by the Inbox search: its campaign view, or its entry opened here. */
  openSend?: SendHit | null;
}) {
  const [filter, setFilter] = useState<Filter>('all');
  const [open, setOpen] = useState<number | null>(
    openSend && !opensAsCampaign(openSend) ? openSend.jobId : null,
  );
  // Issue 12: a campaign (a send to many and its resends) opens in its own view.
  const [campaign, setCampaign] = useState<number | null>(
    openSend && opensAsCampaign(openSend) ? openSend.jobId : null,
  );
  const halted = useSendHalts();

  // The sends and the unknown batches, read again (throttled) as batches are answered, after a crash
  // recovery, and as receipts change a send's counts (issue 12: History updates live; issue 27: the
  // renderer's one way, useLiveRead).
  const list = useLiveRead(
    useCallback(
      () =>
        Promise.all([
          api().outbox.jobs({ limit: 200 }),
          api()
            .outbox.unknownBatches()
            .catch((): OutboxBatch[] => []),
        ]),
      [],
    ),
    {
      'outbox:progress': () => true,
      'outbox:recovered': () => true,
      'inbox:receipt': (p) => p.message.jobId !== null,
      'office:sends': () => true, // issue 28: other desks' sends imported or changed
    },
  );
  const { load, error } = list;
  const [jobs, unknown]: [OutboxJob[], OutboxBatch[]] = list.data ?? [[], []];
  // Issue 27: the send the search opened here, brought into view and focused once the list is read.
  const shownOpened = useRef(false);
  useEffect(() => {
    if (shownOpened.current || open === null || openSend?.jobId !== open || list.data === null) return;
    shownOpened.current = true;
    const item = document.getElementById(`job-${open}`);
    item?.scrollIntoView({ block: 'nearest' });
    item?.querySelector<HTMLButtonElement>('button.job-head')?.focus();
  }, [list.data, open, openSend]);

  const statuses = FILTER_STATUSES[filter];
  const shown =
    filter === 'scheduled'
      ? jobs.filter(isScheduled)
      : filter === 'failed'
        ? jobs.filter((j) => latestFailed(j) > 0)
        : statuses
          ? jobs.filter((j) => statuses.some((s) => j.counts[s] > 0))
          : jobs;

  if (campaign !== null)
    return (
      <Campaign
        jobId={campaign}
        onCompose={onCompose}
        onBack={() => {
          setCampaign(null);
          load();
        }}
      />
    );

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
      <AccountScope scope="account" what="Sends" />
      <ErrorText error={error} />
      {unknown.length ? (
        <div className="banner warn" role="status" data-testid="unknown-banner">
          {unknownBanner(unknown)}
        </div>
      ) : null}
      {shown.length === 0 ? <p className="muted">No sends.</p> : null}
      <ul className="plain jobs">
        {shown.map((j) => (
          <li key={j.id} className="job" id={`job-${j.id}`}>
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
                {j.recipientCount > 1 ? ' · campaign' : ''}
                {j.resendOf !== null ? ` · resend of #${j.resendOf}` : ''}
                {scheduledAt(j) ? ` · scheduled for ${scheduledAt(j)}` : ''}
                <SentBy job={j} />
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
                    ['failed', latestFailed(j)],
                  ] as const
                ).map(([s, n]) =>
                  n ? (
                    <span key={s} className={`pill ${s}`}>
                      {n} {s}
                    </span>
                  ) : null,
                )}
              </span>
              <JobOutcomeLine job={j} halted={halted(j.id)} />
            </button>
            {open === j.id ? (
              <JobDetail
                job={j}
                halted={halted(j.id)}
                filter={statuses}
                onCompose={onCompose}
                onChanged={load}
                onCampaign={setCampaign}
              />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Rows listed in a send's detail; the campaign view filters and searches them all. */
const DETAIL_MAX = 1000;

function JobDetail({
  job,
  halted,
  filter,
  onCompose,
  onChanged,
  onCampaign,
}: {
  job: OutboxJob;
  halted: string | null;
  filter: OutboundStatus[] | null;
  onCompose: (d: ComposeDraft) => void;
  onChanged: () => void;
  onCampaign: (jobId: number) => void;
}) {
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const dialog = useDialog();
  const books = useJobBooks(job);
  const names = useContactNames();
  // This send's rows and its campaign's failed recipients (latest attempts: what "Resend to failed"
  // sends) are read again as batches are answered, throttled: a large campaign takes a while to read.
  const recipients = useThrottledRead(useCallback(() => api().outbox.recipients(job.id), [job.id]));
  const campaign = useThrottledRead(useCallback(() => api().campaigns.get(job.id), [job.id]));
  const rows = recipients.data ?? [];
  const failed = (campaign.data?.rows ?? [])
    .filter((r) => groupOf(r) === 'failed' && !r.optedOut)
    .map((r) => r.to);
  const { soon: rowsSoon } = recipients;
  const { soon: campaignSoon } = campaign;
  const counts = JSON.stringify(job.counts);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else {
      rowsSoon();
      campaignSoon();
    }
  }, [counts, rowsSoon, campaignSoon]);

  const shown = filter ? rows.filter((r) => filter.includes(r.status)) : rows;
  const act = (p: Promise<string | null>) =>
    p.then(
      (n) => {
        if (n !== null) {
          setNotice(n);
          campaign.load();
          onChanged();
        }
      },
      (e: unknown) => setError(e),
    );
  // A book's batch (issue 16) has no recipient rows: it counts as one.
  const pendingCount = job.counts.pending + books.filter((b) => b.state === 'pending').length;
  // Issue 28: another desk's send is read-only here (only the desk that sent it sends any of it).
  const otherDesk = job.sentBy && !job.sentBy.here ? job.sentBy.desk : null;
  return (
    <div className="job-detail">
      {otherDesk !== null ? <OtherDeskNote desk={otherDesk} /> : null}
      <div className="row">
        {job.recipientCount > 1 || job.resendOf !== null ? (
          <button type="button" className="primary" onClick={() => onCampaign(job.id)}>
            Open campaign
          </button>
        ) : null}
        {/* Offered when something failed (a disabled "(0)" on every send was noise). */}
        {failed.length > 0 && otherDesk === null ? (
          <button type="button" onClick={() => void act(resendFailed(dialog, job, failed))}>
            Resend to failed ({failed.length})
          </button>
        ) : null}
        {failed.length > 0 && otherDesk !== null ? (
          <SendToFailedHere failed={failed} job={job} onCompose={onCompose} />
        ) : null}
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
        {pendingCount && !job.counts.sending && otherDesk === null ? (
          // Issue 17: only the recipients never requested; an unknown one is not sent again.
          <button type="button" className="primary" onClick={() => void act(continueSending([job.id]))}>
            Continue sending ({pendingCount})
          </button>
        ) : null}
        {pendingCount && otherDesk === null ? (
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
        <button
          type="button"
          onClick={() => download(`send-${job.id}.csv`, recipientsCsv(rows, names))}
          disabled={rows.length === 0}
        >
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
      <ErrorText error={error ?? recipients.error ?? campaign.error} />
      <JobBooks batches={books} />
      {/* Issue 25: the outcome follows the journal's counts, in the words Compose uses. */}
      <SendOutcome
        outcome={sendOutcome({
          counts: job.counts,
          books,
          content: job.content,
          createdAt: job.createdAt,
          failReason: mainFailReason(rows),
          halted,
          unknownCauses: job.unknownCauses,
        })}
        label="Send outcome"
        testId="send-outcome"
      />
      {/* A send to server books only has no numbers of its own: its book line says whom it reached. */}
      {shown.length > 0 ? (
        <>
          <p className="muted small">
            <SummaryLine rows={shown} />
            {shown.length > DETAIL_MAX
              ? ` — the first ${DETAIL_MAX.toLocaleString()} are listed here; open the campaign to filter and search them all, or export the CSV.`
              : ''}
          </p>
          <RecipientTable rows={shown.slice(0, DETAIL_MAX)} names={names} />
        </>
      ) : null}
    </div>
  );
}
