// The campaign view (issue 12 item 6), reached from History: a send to many recipients and its
// resends as one — progress and counts from the journal's rows (each recipient's latest attempt),
// live while sending, after Continue sending and on receipts; the per-recipient report with names,
// why each row is what it is, a filter by the summary's groups and a search; CSV export; Resend to
// failed and Continue sending (./send-actions.ts).
import { useCallback, useState } from 'react';
import type { Campaign as CampaignData } from '../../domain/index.ts';
import { api } from '../api.ts';
import { useDialog } from '../components/Dialog.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import {
  GROUP_LABELS,
  RecipientTable,
  groupOf,
  recipientsCsv,
  summarize,
} from '../components/RecipientTable.tsx';
import type { RowGroup } from '../components/RecipientTable.tsx';
import { download, formatTime, plural } from '../format.ts';
import { useContactNames } from '../hooks/useContactNames.ts';
import { useLiveRead } from '../hooks/useLiveRead.ts';
import { continueSending, jobTitle, resendFailed } from './send-actions.ts';
import { SendOutcome } from '../components/SendOutcome.tsx';
import { useSendHalts } from '../hooks/useSendHalts.ts';
import { mainFailReason, sendOutcome } from '../send-outcome.ts';
import { AccountScope } from '../components/AccountScope.tsx';
import type { ComposeDraft } from './compose/Compose.tsx';
import { OtherDeskNote, SendToFailedHere, SentBy } from './OfficeSends.tsx';

/** Rows drawn at once; the filter, the search and the CSV reach the rest. */
const SHOWN_MAX = 500;

export function Campaign({
  jobId,
  onBack,
  onCompose,
}: {
  jobId: number;
  onBack: () => void;
  /** Issue 28: "Send to failed from this desk" of another desk's campaign opens Compose. */
  onCompose?: (d: ComposeDraft) => void;
}) {
  const read = useCallback(() => api().campaigns.get(jobId), [jobId]);
  // The campaign's sends as last read (a resend of it is a new job of the campaign).
  const ids = (last: CampaignData | null): number[] => last?.jobIds ?? [jobId];
  const {
    data,
    error: readError,
    load,
  } = useLiveRead<CampaignData>(read, {
    'outbox:progress': (p, last) => ids(last).includes(p.jobId) || p.job.resendOf !== null,
    'inbox:receipt': (p, last) => p.message.jobId !== null && ids(last).includes(p.message.jobId),
    'office:sends': (p, last) => ids(last).some((id) => p.jobIds.includes(id)), // issue 28
  });
  const [actionError, setError] = useState<unknown>(null);
  const error = actionError ?? readError;
  const [notice, setNotice] = useState<string | null>(null);
  const [group, setGroup] = useState<RowGroup | 'all'>('all');
  const [find, setFind] = useState('');
  const [busy, setBusy] = useState(false);
  const names = useContactNames();
  const dialog = useDialog();
  const halted = useSendHalts();

  if (!data)
    return (
      <section className="view campaign" aria-label="Campaign">
        <button type="button" onClick={onBack}>
          ← History
        </button>
        <ErrorText error={error} />
      </section>
    );

  const { job, rows } = data;
  // Issue 28: another desk's campaign is read-only here (only the desk that sent it sends any of it).
  const otherDesk = job.sentBy && !job.sentBy.here ? job.sentBy.desk : null;
  const counts = summarize(rows);
  const total = rows.length;
  const answered = total - counts.pending - counts.sending;
  // What Resend to failed sends: failed, and not on the opt-out list.
  const failed = rows.filter((r) => groupOf(r) === 'failed' && !r.optedOut).map((r) => r.to);
  const pendingJobs = [...new Set(rows.filter((r) => r.status === 'pending').map((r) => r.jobId))];
  const needle = find.trim().toLowerCase();
  const digits = needle.replace(/\D/g, '');
  const filtered = rows.filter(
    (r) =>
      (group === 'all' || groupOf(r) === group) &&
      (needle === '' ||
        (digits !== '' && r.to.includes(digits)) ||
        (names.get(r.to)?.toLowerCase().includes(needle) ?? false)),
  );
  const shown = filtered.slice(0, SHOWN_MAX);
  const act = (p: Promise<string | null>) => {
    setBusy(true);
    setError(null);
    void p
      .then(
        (n) => {
          if (n !== null) setNotice(n);
          load();
        },
        (e: unknown) => setError(e),
      )
      .finally(() => setBusy(false));
  };

  return (
    <section className="view campaign" aria-labelledby="campaign-title">
      <div className="row spread">
        <button type="button" onClick={onBack}>
          ← History
        </button>
        <span className="muted small">
          {formatTime(job.createdAt)} ·{' '}
          {data.jobIds.length > 1 ? plural(data.jobIds.length - 1, 'resend') : 'no resend yet'}
          <SentBy job={job} />
        </span>
      </div>
      <h1 id="campaign-title" className="campaign-title">
        Campaign: {jobTitle(job)}
      </h1>
      <AccountScope scope="account" what="A send" />
      {otherDesk !== null ? <OtherDeskNote desk={otherDesk} /> : null}
      {/* Issue 25: the campaign's latest attempts, in the words Compose and History use. */}
      <SendOutcome
        outcome={sendOutcome({
          counts: data.counts,
          content: job.content,
          createdAt: job.createdAt,
          failReason: mainFailReason(rows),
          halted: data.jobIds.map(halted).find((h) => h !== null) ?? null,
          unknownCauses: job.unknownCauses,
        })}
        label="Campaign outcome"
        testId="campaign-outcome"
      />
      <p className="small muted" data-testid="campaign-progress">
        {answered.toLocaleString()} of {plural(total, 'recipient')} answered
        {counts.sending ? ` · ${counts.sending.toLocaleString()} being requested` : ''}
      </p>
      <div className="counts campaign-counts" role="group" aria-label="Show recipients">
        <button type="button" aria-pressed={group === 'all'} onClick={() => setGroup('all')}>
          All {total.toLocaleString()}
        </button>
        {(Object.keys(GROUP_LABELS) as RowGroup[])
          .filter((g) => counts[g] > 0)
          .map((g) => (
            <button
              type="button"
              key={g}
              className={`count ${g}`}
              aria-pressed={group === g}
              onClick={() => setGroup(g)}
            >
              {counts[g].toLocaleString()} {GROUP_LABELS[g]}
            </button>
          ))}
      </div>
      <div className="row">
        {otherDesk === null ? (
          <button
            type="button"
            className="primary"
            disabled={busy || failed.length === 0}
            onClick={() => act(resendFailed(dialog, job, failed))}
          >
            Resend to failed ({failed.length.toLocaleString()})
          </button>
        ) : failed.length > 0 && onCompose ? (
          <SendToFailedHere failed={failed} job={job} onCompose={onCompose} />
        ) : null}
        {pendingJobs.length > 0 && counts.sending === 0 && otherDesk === null ? (
          <button type="button" disabled={busy} onClick={() => act(continueSending(pendingJobs))}>
            Continue sending ({counts.pending.toLocaleString()})
          </button>
        ) : null}
        <button type="button" onClick={() => download(`campaign-${job.id}.csv`, recipientsCsv(rows, names))}>
          Export CSV
        </button>
        <input
          type="search"
          aria-label="Find a recipient"
          placeholder="Name or number"
          value={find}
          onChange={(e) => setFind(e.target.value)}
        />
      </div>
      {notice ? (
        <p className="muted" role="status">
          {notice}
        </p>
      ) : null}
      <ErrorText error={error} />
      {filtered.length > shown.length ? (
        <p className="muted small">
          Showing the first {shown.length.toLocaleString()} of {filtered.length.toLocaleString()}: narrow with
          the counts above or the search, or export the CSV for all.
        </p>
      ) : null}
      <RecipientTable rows={shown} names={names} testId="campaign-recipients" showAttempts />
    </section>
  );
}
