// The groups a recipient's status falls in, defined once (issue 27): the summary and filter of
// every recipient table (renderer/components/RecipientTable.tsx), History's filter and the store's
// "Resend to failed" (main/store/outbox-campaigns.ts), a send's outcome headline and bar
// (renderer/send-outcome.ts) and History's Failed badge all read them here.
import type { OutboundStatus } from './messages.ts';
import type { RecipientOutcome, StatusCounts } from './outbox.ts';

/** The groups a summary counts and a filter picks; each recipient is in exactly one. */
export type StatusGroup =
  'delivered' | 'accepted' | 'noReceipt' | 'failed' | 'unknown' | 'pending' | 'sending';

/** Each status's group ('accepted' turns 'noReceipt' when its receipt is overdue: statusGroupOf). */
export const STATUS_GROUP: Readonly<Record<OutboundStatus, Exclude<StatusGroup, 'noReceipt'>>> = {
  pending: 'pending',
  sending: 'sending',
  accepted: 'accepted',
  queued: 'accepted',
  delivered: 'delivered',
  // The gateway refused it, or a receipt said it was not delivered.
  rejected: 'failed',
  failed: 'failed',
  unknown: 'unknown',
};

/** The statuses of a group, in STATUS_GROUP's order. */
export function statusesOf(group: Exclude<StatusGroup, 'noReceipt'>): OutboundStatus[] {
  return (Object.keys(STATUS_GROUP) as OutboundStatus[]).filter((s) => STATUS_GROUP[s] === group);
}

/** The statuses "Resend to failed" sends again and the "failed" filters pick. */
export const FAILED_STATUSES: readonly OutboundStatus[] = statusesOf('failed');

/** A recipient's group. */
export function statusGroupOf(r: Pick<RecipientOutcome, 'status' | 'receiptOverdue'>): StatusGroup {
  const group = STATUS_GROUP[r.status];
  return group === 'accepted' && r.receiptOverdue ? 'noReceipt' : group;
}

/** A send's recipients by group, from its counts by status (a job's or a campaign's). */
export function groupCounts(counts: StatusCounts): Record<Exclude<StatusGroup, 'noReceipt'>, number> {
  const g = { delivered: 0, accepted: 0, failed: 0, unknown: 0, pending: 0, sending: 0 };
  for (const s of Object.keys(STATUS_GROUP) as OutboundStatus[]) g[STATUS_GROUP[s]] += counts[s];
  return g;
}
