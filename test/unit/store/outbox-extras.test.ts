// Issue 16: the journal's book jobs (store/outbox-extras.ts, migration 013): a server address book
// is a batch of its own, journaled as its reference (never as numbers); the Cc/Bcc go on the first
// batch only, beside as many numbers as fit; a crash, a continue or a resend never sends them twice;
// the gateway's records for them decide the batch's state.
import { describe, expect, it } from 'vitest';
import { InvalidRecipientsError } from '../../../main/store/errors.ts';
import type { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { REPORT } from '../../../protocol/reports.ts';
import type { OutboxContent } from '../../../preload/api.ts';
import { withJournal } from './helpers.ts';

let journal: OutboxJournal;
withJournal((_app, j) => {
  journal = j;
});

const TEXT: OutboxContent = { kind: 'text', text: 'Hello' };
const VCARD: OutboxContent = { kind: 'vcard', text: '', fields: { vCard: 'BEGIN:VCARD\r\nEND:VCARD' } };
const numbers = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `447700${String(900000 + from + i)}`);
const CC = { fields: { SendCc: '447700800001', SendCcAddressBook: 'Board' }, reach: 4 };

describe('book jobs in the outbox journal', () => {
  it('a book is one batch of its own with its reference, no numbers; a book alone is a job', () => {
    const job = journal.createJob(['447700900001'], TEXT, {
      extras: {
        books: [
          { ref: 'Friends::Team', reach: 2 },
          { ref: 'Club', reach: null },
        ],
      },
    });
    expect(job).toMatchObject({ recipientCount: 1, batchCount: 3, extraReach: null });
    const [first, team, club] = journal.batches(job.id);
    expect(first).toMatchObject({ recipients: ['447700900001'] });
    expect(first!.extras).toBeUndefined();
    expect(team).toMatchObject({
      recipients: [],
      extras: { fields: { SendToAddressBook: 'Friends::Team' }, reach: 2, answered: null },
    });
    expect(club!.extras).toMatchObject({ fields: { SendToAddressBook: 'Club' }, reach: null });
    const alone = journal.createJob([], TEXT, { extras: { books: [{ ref: 'Friends', reach: 3 }] } });
    expect(alone).toMatchObject({ recipientCount: 0, batchCount: 1, extraReach: 3 });
    expect(() => journal.createJob([], TEXT, { extras: { books: [] } })).toThrow(InvalidRecipientsError);
  });

  it('Cc/Bcc go on the first batch only, beside the numbers that still fit; the rest is cut again', () => {
    const job = journal.createJob(numbers(800), VCARD, { extras: { first: CC } });
    const batches = journal.batches(job.id);
    expect(batches.map((b) => b.recipients.length)).toEqual([346, 350, 104]);
    expect(batches.map((b) => b.extras?.fields)).toEqual([CC.fields, undefined, undefined]);
    expect(batches.flatMap((b) => b.recipients)).toEqual(numbers(800));
    // Few numbers: all beside the Cc/Bcc in one request.
    const small = journal.createJob(numbers(3), VCARD, { extras: { first: CC } });
    expect(journal.batches(small.id).map((b) => [b.recipients.length, b.extras?.reach])).toEqual([[3, 4]]);
    // A Cc/Bcc book that could not be sized goes in a request of its own.
    const unsized = journal.createJob(numbers(3), VCARD, {
      extras: { first: { ...CC, reach: null } },
    });
    expect(
      journal
        .batches(unsized.id)
        .map((b) => [b.recipients.length, b.extras === undefined ? 'none' : b.extras.reach]),
    ).toEqual([
      [0, null],
      [3, 'none'],
    ]);
  });

  it("records the gateway's answer for a book, and a whole-request refusal makes its batch rejected", () => {
    const job = journal.createJob(['447700900001'], TEXT, {
      extras: {
        books: [
          { ref: 'Friends', reach: 3 },
          { ref: 'Gone', reach: 2 },
        ],
      },
    });
    const [, friends, gone] = journal.batches(job.id);
    journal.markSending(friends!.id);
    journal.recordResults(friends!.id, [
      { to: 'Friends #1', report: REPORT.accepted },
      { to: 'Friends #2', report: REPORT.accepted },
      { to: 'Friends #3', report: '3', text: 'invalid number' },
    ]);
    expect(journal.batch(friends!.id)).toMatchObject({
      state: 'accepted',
      extras: { answered: 3, accepted: 2, rejected: 1 },
    });
    journal.markSending(gone!.id);
    journal.recordResults(gone!.id, [{ to: 'Gone', report: '3', text: 'Unknown address book Gone' }]);
    expect(journal.batch(gone!.id)).toMatchObject({
      state: 'rejected',
      reason: 'Unknown address book Gone',
      extras: { answered: 1, accepted: 0, rejected: 1 },
    });
  });

  it('after a crash the Cc batch is unknown and nothing sends it again; a resend takes numbers only', () => {
    const job = journal.createJob(numbers(400), VCARD, { extras: { first: CC } });
    const claimed = journal.claimNext(job.id)!;
    expect(claimed.extras?.fields).toEqual(CC.fields);
    // The app stops mid-request; the next run recovers.
    const recovered = journal.recoverAfterCrash({ isProcessAlive: () => false, isRunAlive: () => false });
    expect(recovered).toEqual([]); // this very run still holds it…
    journal.markUnknown(claimed.id, 'interrupted');
    // …continue: only the never-requested batch, which carries no Cc.
    const next = journal.claimNext(job.id)!;
    expect(next.extras).toBeUndefined();
    expect(journal.claimNext(job.id)).toBeNull();
    const resent = journal.resendToRecipients(job.id, claimed.recipients.slice(0, 2));
    expect(journal.batches(resent.id).every((b) => b.extras === undefined)).toBe(true);
    expect(resent.extraReach).toBeUndefined();
  });
});
