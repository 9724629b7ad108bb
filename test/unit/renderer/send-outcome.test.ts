// Issue 25 item 4: one headline per send from its counts, shared by Compose, History and the
// campaign view: never "Sent."/"all accepted" when anything failed or is unknown; a send to a server
// book alone finishes by its batches; a scheduled send says when; a halted loop says so.
import { describe, expect, it } from 'vitest';
import type { OutboxBatch, RecipientOutcome, StatusCounts } from '../../../preload/api.ts';
import { mainFailReason, sendOutcome, unknownBanner } from '../../../renderer/send-outcome.ts';

const counts = (c: Partial<StatusCounts>): StatusCounts => ({
  pending: 0,
  sending: 0,
  accepted: 0,
  queued: 0,
  rejected: 0,
  unknown: 0,
  delivered: 0,
  failed: 0,
  ...c,
});

const row = (to: string, status: RecipientOutcome['status'], report: string | null, text: string | null) =>
  ({
    to,
    status,
    messageIdentifier: null,
    report,
    reportText: text,
    classification: null,
    receiptReport: null,
    receiptAt: null,
    receiptOverdue: false,
  }) satisfies RecipientOutcome;

const book = (
  state: OutboxBatch['state'],
  extras: Partial<NonNullable<OutboxBatch['extras']>>,
): OutboxBatch => ({
  id: 1,
  jobId: 1,
  seq: 0,
  state,
  recipients: [],
  createdAt: 0,
  startedAt: null,
  finishedAt: null,
  reason: null,
  unknownCause: state === 'unknown' ? 'connection-lost' : null,
  extras: {
    fields: { SendToAddressBook: 'Friends' },
    reach: 3,
    answered: null,
    accepted: null,
    rejected: null,
    ...extras,
  },
});

describe('sendOutcome', () => {
  it('says how many were accepted and why the rest failed (out of credit)', () => {
    const rows = [row('1', 'rejected', '15', 'Insufficient credit'), row('2', 'rejected', '15', null)];
    const o = sendOutcome({
      counts: counts({ accepted: 250, rejected: 150 }),
      failReason: mainFailReason(rows),
    });
    expect(o.headline).toBe('250 accepted, 150 failed: out of credit');
    expect(o.tone).toBe('partial');
    expect(o.tally).toMatchObject({ accepted: 250, failed: 150, unknown: 0, open: 0, total: 400 });
  });

  it('all failed is "Not sent", with the reason', () => {
    const o = sendOutcome({
      counts: counts({ rejected: 2 }),
      failReason: 'the gateway could not be reached',
    });
    expect(o.headline).toBe('Not sent: all 2 failed: the gateway could not be reached');
    expect(o.tone).toBe('failed');
  });

  it('unknown is said as unknown, never as sent', () => {
    const o = sendOutcome({ counts: counts({ unknown: 2 }) });
    expect(o.tone).toBe('unknown');
    expect(o.headline).toMatch(/^Outcome unknown for all 2/);
    const mixed = sendOutcome({ counts: counts({ accepted: 1, unknown: 1 }) });
    expect(mixed.headline).toBe('1 accepted, 1 unknown (may have arrived; never re-sent by itself)');
  });

  it('all accepted, delivered, and in progress', () => {
    expect(sendOutcome({ counts: counts({ accepted: 2 }) }).headline).toBe('All 2 recipients accepted');
    expect(sendOutcome({ counts: counts({ delivered: 1 }) }).headline).toBe('All 1 recipient delivered');
    const going = sendOutcome({ counts: counts({ accepted: 350, pending: 50 }) });
    expect(going.tone).toBe('progress');
    expect(going.headline).toBe('Sending: 350 of 400 recipients answered (350 accepted)');
  });

  it('a scheduled send says when', () => {
    const o = sendOutcome({
      counts: counts({ accepted: 2 }),
      content: { kind: 'text', text: 'x', sendTimeAbsolute: '2030-01-02T03:04:00' },
      createdAt: 0,
    });
    expect(o.tone).toBe('scheduled');
    expect(o.headline).toBe(
      'Scheduled for 2030-01-02 03:04:00 UTC: all 2 recipients were accepted by the gateway',
    );
  });

  it('a send to a server book alone finishes by its batch', () => {
    const going = sendOutcome({ counts: counts({}), books: [book('sending', {})] });
    expect(going.headline).toBe('Sending: 0 of 3 recipients answered');
    const done = sendOutcome({
      counts: counts({}),
      books: [book('accepted', { answered: 3, accepted: 3, rejected: 0 })],
    });
    expect(done.headline).toBe('All 3 recipients accepted');
    const refused = sendOutcome({ counts: counts({}), books: [book('rejected', {})] });
    expect(refused.tone).toBe('failed');
  });

  it('a halted loop says it stopped, not "sending"', () => {
    const o = sendOutcome({
      counts: counts({ accepted: 350, sending: 350 }),
      halted: 'database or disk is full',
    });
    expect(o.tone).toBe('halted');
    expect(o.headline).toContain('Stopped: 350 of 700 answered');
    expect(o.headline).toContain('database or disk is full');
  });
});

describe('an unknown outcome by its cause', () => {
  it('names the cause the journal recorded: a dropped connection is not "the app stopped"', () => {
    const dropped = sendOutcome({ counts: counts({ unknown: 2 }), unknownCauses: ['connection-lost'] });
    expect(dropped.headline).toBe(
      'Outcome unknown for all 2: the connection to the gateway dropped after the request was sent; it may have reached the gateway. Never re-sent by itself.',
    );
    const stopped = sendOutcome({ counts: counts({ unknown: 1 }), unknownCauses: ['app-stopped'] });
    expect(stopped.headline).toContain('the recipient: the app stopped while it was being sent');
    const late = sendOutcome({ counts: counts({ accepted: 3, unknown: 1 }), unknownCauses: ['timed-out'] });
    expect(late.headline).toBe(
      '3 accepted, 1 unknown (no answer came back in time; may have arrived; never re-sent by itself)',
    );
  });

  it("History's banner words each cause, the app stopping only where it did", () => {
    expect(unknownBanner([{ unknownCause: 'connection-lost' }])).toBe(
      '1 batch: the connection to the gateway dropped after the request was sent; the outcome is unknown. ' +
        'Check the recipients below before resending — they may already have received the message.',
    );
    const mixed = unknownBanner([
      { unknownCause: 'app-stopped' },
      { unknownCause: 'app-stopped' },
      { unknownCause: 'timed-out' },
    ]);
    expect(mixed).toMatch(
      /^2 batches were being sent when the app stopped; 1 batch: no answer came back in time; the outcome is unknown\./,
    );
    expect(unknownBanner([{ unknownCause: 'timed-out' }])).not.toContain('app stopped');
  });
});
