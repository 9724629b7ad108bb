// Issue 27: one definition of each status group. The recipient tables, History's filter and the
// store's "Resend to failed" read the same one.
import { describe, expect, it } from 'vitest';
import { FAILED_STATUSES, STATUS_GROUP, statusGroupOf, statusesOf } from '../../../domain/status-groups.ts';
import { FAILED_STATUSES as STORE_FAILED } from '../../../main/store/outbox-campaigns.ts';
import { groupOf } from '../../../renderer/components/RecipientTable.tsx';
import type { OutboundStatus, RecipientOutcome } from '../../../preload/api.ts';

const ALL: OutboundStatus[] = [
  'pending',
  'sending',
  'accepted',
  'queued',
  'rejected',
  'unknown',
  'delivered',
  'failed',
];

describe('status groups', () => {
  it('"failed" is the gateway refusing or a receipt saying not delivered, for the store and the tables alike', () => {
    expect([...FAILED_STATUSES].sort()).toEqual(['failed', 'rejected']);
    expect(STORE_FAILED).toBe(FAILED_STATUSES);
    const row = (status: OutboundStatus, receiptOverdue = false) =>
      ({ status, receiptOverdue }) as unknown as RecipientOutcome;
    for (const s of ALL) expect(groupOf(row(s)) === 'failed').toBe(FAILED_STATUSES.includes(s));
  });

  it('puts every status in exactly one group, and an overdue receipt in its own', () => {
    const groups = ['pending', 'sending', 'accepted', 'delivered', 'failed', 'unknown'] as const;
    expect(groups.flatMap((g) => statusesOf(g)).sort()).toEqual([...ALL].sort());
    expect(Object.keys(STATUS_GROUP).sort()).toEqual([...ALL].sort());
    expect(statusGroupOf({ status: 'queued', receiptOverdue: true })).toBe('noReceipt');
    expect(statusGroupOf({ status: 'delivered', receiptOverdue: true })).toBe('delivered');
  });
});
