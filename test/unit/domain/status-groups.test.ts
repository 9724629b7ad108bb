// Issue 27: one definition of each status group. The recipient tables, History's filter and the
// store's "Resend to failed" read the same one.
import { describe, expect, it } from 'vitest';
import {
  FAILED_STATUSES,
  STATUS_GROUP,
  groupCounts,
  statusGroupOf,
  statusesOf,
} from '../../../domain/status-groups.ts';
import { tallyOf } from '../../../renderer/send-outcome.ts';
import { latestFailed } from '../../../renderer/views/send-actions.ts';
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

  it("a send's counts by group, and the outcome bar and History's Failed badge from them", () => {
    // Each status a different power of two: a sum says which statuses went into it.
    const counts = Object.fromEntries(ALL.map((s, i) => [s, 2 ** i])) as Record<OutboundStatus, number>;
    const bits = (...ss: OutboundStatus[]) => ss.reduce((n, s) => n + counts[s], 0);
    const g = groupCounts(counts);
    for (const group of ['pending', 'sending', 'accepted', 'delivered', 'failed', 'unknown'] as const)
      expect(g[group]).toBe(bits(...statusesOf(group)));
    const t = tallyOf(counts);
    expect(t.failed).toBe(bits(...FAILED_STATUSES));
    expect(t.accepted).toBe(bits('accepted', 'queued', 'delivered'));
    expect(t.unknown).toBe(bits('unknown'));
    expect(t.open).toBe(bits('pending', 'sending'));
    expect(latestFailed({ counts, failedRetried: 1 } as Parameters<typeof latestFailed>[0])).toBe(
      bits(...FAILED_STATUSES) - 1,
    );
  });
});
