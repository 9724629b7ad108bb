// Issue 12 item 6 (campaigns) and issue 17 item 19 (Continue sending) on the journal: a campaign is
// its first send plus resends, one row per recipient (the latest attempt) with counts of those rows;
// resend to failed picks only failed recipients, never opted-out ones, and a second call finds
// nothing; numbers that opted out after journaling are taken out of the pending batches.
import { describe, expect, it } from 'vitest';
import type { AppDb } from '../../../main/store/db.ts';
import { StoreError } from '../../../main/store/errors.ts';
import type { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import { OPTED_OUT_REASON, readCampaign, resendFailed } from '../../../main/store/outbox-campaigns.ts';
import type { OutboxContent } from '../../../preload/api.ts';
import { withJournal } from './helpers.ts';

let app: AppDb;
let journal: OutboxJournal;
withJournal(
  (a, j) => {
    app = a;
    journal = j;
  },
  { defaultCountry: 'GB', batchSize: 3 },
);

const TEXT: OutboxContent = { kind: 'text', text: 'Campaign' };
const numbers = (n: number) => Array.from({ length: n }, (_, i) => `447700900${String(i).padStart(3, '0')}`);
const none = (list: readonly string[]) => ({ kept: [...list], skipped: [] as string[] });
const without =
  (out: readonly string[]) =>
  (list: readonly string[]): { kept: string[]; skipped: string[] } => ({
    kept: list.filter((n) => !out.includes(n)),
    skipped: list.filter((n) => out.includes(n)),
  });

/** Send every pending batch of `jobId`, answering each recipient with `report(to)`. */
function answerAll(jobId: number, report: (to: string) => string): void {
  for (let b = journal.claimNext(jobId); b; b = journal.claimNext(jobId)) {
    journal.recordResults(
      b.id,
      b.recipients.map((to, i) => ({ to, report: report(to), messageIdentifier: `${b.id}-${i}` })),
    );
  }
}

describe('campaigns', () => {
  it("counts a send's failures that a later resend tried again apart: History follows the latest attempt (issue 26)", () => {
    const list = numbers(4);
    const job = journal.createJob(list, TEXT);
    answerAll(job.id, (to) => (to === list[1] || to === list[2] ? '2' : '-3'));
    expect(journal.job(job.id)!.counts.rejected).toBe(2);
    expect(journal.job(job.id)!.failedRetried).toBeUndefined();
    // The resend to both: one accepted, one refused again.
    const first = resendFailed(app, journal, job.id, none).job;
    answerAll(first.id, (to) => (to === list[1] ? '-3' : '2'));
    expect(journal.job(job.id)!.failedRetried).toBe(2);
    expect(journal.job(first.id)!.failedRetried).toBeUndefined();
    // A second resend (to the one still failing) supersedes the first resend's failure, and the send's.
    const second = resendFailed(app, journal, first.id, none).job;
    answerAll(second.id, () => '-3');
    expect(journal.job(first.id)!.failedRetried).toBe(1);
    expect(journal.job(job.id)!.failedRetried).toBe(2);
    expect(journal.job(second.id)!.failedRetried).toBeUndefined();
  });

  it('reads the first send and its resends as one, the latest attempt per recipient', () => {
    const list = numbers(5);
    const job = journal.createJob(list, TEXT);
    // 2 refused (report 2 is an error), 3 accepted; one accepted later fails by receipt.
    answerAll(job.id, (to) => (to === list[1] || to === list[3] ? '2' : '-3'));
    journal.recordReceipt({ messageIdentifier: `${journal.batches(job.id)[0]!.id}-2`, report: '76' });
    let c = readCampaign(app, journal, job.id);
    expect(c.rows.map((r) => [r.to, r.status])).toEqual([
      [list[0], 'accepted'],
      [list[1], 'rejected'],
      [list[2], 'failed'],
      [list[3], 'rejected'],
      [list[4], 'accepted'],
    ]);
    expect(c.counts).toMatchObject({ accepted: 2, rejected: 2, failed: 1, pending: 0 });
    expect(c.rows.every((x) => !x.optedOut)).toBe(true);
    expect(
      readCampaign(app, journal, job.id, { optedOut: without([list[3]!]) })
        .rows.filter((x) => x.optedOut)
        .map((x) => x.to),
    ).toEqual([list[3]]);

    // Resend to failed: the three failed, less the one that opted out since.
    const r = resendFailed(app, journal, job.id, without([list[3]!]));
    expect(r.optedOut).toBe(1);
    expect(r.job.resendOf).toBe(job.id);
    expect(
      journal
        .batches(r.job.id)
        .flatMap((b) => b.recipients)
        .sort(),
    ).toEqual([list[1], list[2]]);
    // A second click: those two are pending now, the opted-out one is never picked.
    expect(() => resendFailed(app, journal, job.id, without([list[3]!]))).toThrow(StoreError);
    expect(journal.jobs().length).toBe(2);

    // Read from either send, the campaign is the same; rows follow the resend.
    c = readCampaign(app, journal, r.job.id);
    expect(c.job.id).toBe(job.id);
    expect(c.jobIds).toEqual([job.id, r.job.id]);
    expect(c.rows.length).toBe(5);
    expect(c.rows.find((x) => x.to === list[1])).toMatchObject({
      status: 'pending',
      attempts: 2,
      jobId: r.job.id,
    });
    expect(c.counts).toMatchObject({ accepted: 2, pending: 2, rejected: 1, failed: 0 });
    answerAll(r.job.id, () => '-3');
    c = readCampaign(app, journal, job.id);
    expect(c.counts).toMatchObject({ accepted: 4, rejected: 1, pending: 0 });
    // The counts are those of the rows, whatever the sends' own counts say.
    const byStatus = c.rows.reduce<Record<string, number>>(
      (m, x) => ({ ...m, [x.status]: (m[x.status] ?? 0) + 1 }),
      {},
    );
    for (const [s, n] of Object.entries(byStatus)) expect(c.counts[s as keyof typeof c.counts]).toBe(n);
  });

  it('a resend of a campaign to one number makes no Inbox conversation either', () => {
    const list = numbers(3);
    const job = journal.createJob(list, TEXT);
    answerAll(job.id, (to) => (to === list[2] ? '2' : '-3'));
    const r = resendFailed(app, journal, job.id, none);
    expect(r.job.recipientCount).toBe(1);
    expect(new ConversationsRepo(app).list('').items).toEqual([]);
    // A message to one number alone is a conversation.
    journal.createJob([list[0]!], TEXT);
    expect(new ConversationsRepo(app).list('').items.map((c) => c.peer)).toEqual([list[0]]);
  });

  it('a resend of one number of a number-plus-book send makes no Inbox conversation (issue 16)', () => {
    const [one] = numbers(1);
    const job = journal.createJob([one!], TEXT, { extras: { books: [{ ref: 'Club', reach: 2 }] } });
    answerAll(job.id, () => '2');
    journal.resendToRecipients(job.id, [one!]);
    expect(new ConversationsRepo(app).list('').items).toEqual([]);
  });

  it('a resend of a resend of a campaign, to one number, makes no Inbox conversation', () => {
    const list = numbers(3);
    const job = journal.createJob(list, TEXT);
    answerAll(job.id, (to) => (to === list[0] ? '2' : '-3'));
    const second = resendFailed(app, journal, job.id, none).job;
    expect(second.recipientCount).toBe(1);
    answerAll(second.id, () => '2');
    // outbox.resend of one number of the second send (itself one recipient).
    journal.resendToRecipients(second.id, [list[0]!]);
    expect(new ConversationsRepo(app).list('').items).toEqual([]);
  });

  it('refuses a resend when every failed recipient opted out, journaling nothing', () => {
    const list = numbers(2);
    const job = journal.createJob(list, TEXT);
    answerAll(job.id, () => '2');
    expect(() => resendFailed(app, journal, job.id, without(list))).toThrow(/opt-out list \(2\)/);
    expect(journal.jobs().length).toBe(1);
    expect(() => resendFailed(app, journal, 999, none)).toThrow(/no outbox job/);
  });
});

describe('continue: numbers that opted out after journaling', () => {
  it('takes them out of the pending batches and says how many', () => {
    const list = numbers(7); // batches of 3: [0,1,2] [3,4,5] [6]
    const job = journal.createJob(list, TEXT);
    const first = journal.claimNext(job.id)!;
    journal.recordResults(
      first.id,
      first.recipients.map((to) => ({ to, report: '-3' })),
    );
    // list[0] was already requested: not touched. list[4] in a batch with others; list[6] alone.
    const skipped = journal.skipOptedOutPending(job.id, without([list[0]!, list[4]!, list[6]!]));
    expect(skipped).toBe(2);
    const batches = journal.batches(job.id);
    expect(batches.map((b) => [b.state, b.recipients])).toEqual([
      ['accepted', list.slice(0, 3)],
      ['pending', [list[3], list[5]]],
      ['rejected', [list[6]]],
      ['rejected', [list[4]]],
    ]);
    const rows = journal.recipients(job.id);
    expect(rows.find((r) => r.to === list[4])).toMatchObject({
      status: 'rejected',
      reportText: OPTED_OUT_REASON,
    });
    expect(rows.find((r) => r.to === list[0])?.status).toBe('accepted');
    // What is left goes out as one request with only the two kept numbers.
    const next = journal.claimNext(job.id)!;
    expect(next.recipients).toEqual([list[3], list[5]]);
    journal.recordResults(next.id, [{ report: '-3' }, { report: '-3' }]);
    expect(
      journal
        .recipients(job.id)
        .filter((r) => r.status === 'accepted')
        .map((r) => r.to),
    ).toEqual([...list.slice(0, 4), list[5]]);
    expect(journal.claimNext(job.id)).toBeNull();
  });

  it('a first batch whose numbers all opted out stays pending for its Cc/Bcc (issue 16)', () => {
    const list = numbers(2);
    const vcard: OutboxContent = { kind: 'vcard', text: '', fields: { vCard: 'BEGIN:VCARD\r\nEND:VCARD' } };
    const cc = { fields: { SendCc: '447700800001' }, reach: 1 };
    const job = journal.createJob(list, vcard, { extras: { first: cc } });
    expect(journal.batches(job.id).map((b) => b.recipients)).toEqual([list]);
    expect(journal.skipOptedOutPending(job.id, without(list))).toBe(2);
    const batches = journal.batches(job.id);
    expect(batches.map((b) => [b.state, b.recipients, b.extras?.fields])).toEqual([
      ['pending', [], cc.fields],
      ['rejected', list, undefined],
    ]);
    // The Cc goes out alone: one request, no SendTo.
    expect(journal.claimNext(job.id)).toMatchObject({ recipients: [], extras: { fields: cc.fields } });
  });
});
