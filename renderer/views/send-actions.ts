// What History's send detail and the campaign view (./Campaign.tsx) both do with a send: its
// title, "Resend to failed" (asked through the Dialog with the count and send.estimate's figures,
// then campaigns.resendFailed: the journal's resend path, in one transaction, never to an opted-out
// number) and "Continue sending" (issue 17: only what was never requested; numbers that opted out
// since are left out and counted).
import type { OutboxJob, SendEstimate } from '../../domain/index.ts';
import { contentLabel, summaryLine } from '../../protocol/content-label.ts';
import { groupCounts } from '../../domain/status-groups.ts';
import { api } from '../api.ts';
import type { useDialog } from '../components/Dialog.tsx';
import { plural } from '../format.ts';

/** A send's title: its text, or what its content is ("Ringtone: Nokia tune", protocol/content-label.ts). */
export const jobTitle = (j: OutboxJob): string => summaryLine(contentLabel(j.content), j.content.text);

/**
 * Issue 26: a send's failed recipients (rejected or failed) whose latest attempt is this send's:
 * those a later resend of the campaign tried again are counted there. History's Failed badge and filter.
 */
export const latestFailed = (j: OutboxJob): number => groupCounts(j.counts).failed - (j.failedRetried ?? 0);

/** The estimate's figures in words, for the resend question. */
function estimateWords(e: SendEstimate): string {
  const parts = [`${plural(e.messages, 'message')} (${plural(e.segments, 'part')} each)`];
  if (e.availableMessages !== null) parts.push(`the credit covers ${plural(e.availableMessages, 'message')}`);
  if (e.wouldFail > 0) parts.push(`${plural(e.wouldFail, 'recipient')} would fail for want of credit`);
  if (e.optedOut > 0) parts.push(`${plural(e.optedOut, 'number')} on the opt-out list will be left out`);
  return parts.join('; ') + '.';
}

/**
 * Ask, then resend to the campaign's failed recipients. Resolves with the notice to show, or null
 * when the user went back.
 */
export async function resendFailed(
  dialog: ReturnType<typeof useDialog>,
  job: OutboxJob,
  failed: readonly string[],
  /** The resend's job, once journaled (Compose follows it). */
  onResent?: (resend: OutboxJob) => void,
): Promise<string | null> {
  const estimate = await api()
    .send.estimate({ recipients: [...failed], content: job.content })
    .catch(() => null);
  const yes = await dialog.confirm({
    title: 'Resend to failed recipients?',
    message: `Send the message again to ${plural(failed.length, 'failed recipient')}? ${
      estimate ? estimateWords(estimate) : ''
    }`.trim(),
    confirmLabel: 'Resend',
  });
  if (!yes) return null;
  const r = await api().campaigns.resendFailed(job.id);
  onResent?.(r.job);
  return `Resent as send #${r.job.id}${
    r.optedOut ? ` (${plural(r.optedOut, 'opted-out number')} left out)` : ''
  }`;
}

/** Continue each of these sends (the recipients never requested); the notice to show. */
export async function continueSending(jobIds: readonly number[]): Promise<string> {
  let pending = 0;
  let optedOut = 0;
  for (const id of jobIds) {
    const before = await api().outbox.job(id);
    const r = await api().outbox.continue(id);
    pending += (before?.counts.pending ?? 0) - r.optedOut;
    optedOut += r.optedOut;
  }
  return `Continuing: ${plural(pending, 'recipient')} never requested${
    optedOut ? `; ${plural(optedOut, 'number')} left out (opted out since the send was made)` : ''
  }`;
}
