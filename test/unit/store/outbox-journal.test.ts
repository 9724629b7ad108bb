import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../protocol/limits.ts';
import type { AppDb } from '../../../main/store/db.ts';
import { InvalidRecipientsError, StoreError } from '../../../main/store/errors.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import type { OutboxContent } from '../../../preload/api.ts';
import { withJournal } from './helpers.ts';

let app: AppDb;
let journal: OutboxJournal;
withJournal((a, j) => {
  app = a;
  journal = j;
});

const TEXT: OutboxContent = { kind: 'text', text: 'Hello from the office', replyTo: '447700900999' };
/** n distinct fictional UK numbers (Ofcom 07700 900xxx). */
const numbers = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `447700900${String(from + i).padStart(3, '0')}`);

describe('outbox journal', () => {
  it('journals every recipient before sending: normalised, de-duplicated, in batches of at most 350', () => {
    const list = [...numbers(800), '+44 7700 900000', '07700 900001'];
    // One number has a listed conversation (issue 27 item 6: its thread shows the send).
    new ConversationsRepo(app).open('', '447700900005');
    const job = journal.createJob(list, TEXT);
    expect(job).toMatchObject({ recipientCount: 800, batchCount: 3, resendOf: null, content: TEXT });
    expect(job.counts.pending).toBe(800);
    const batches = journal.batches(job.id);
    expect(batches.map((b) => b.recipients.length)).toEqual([LIMITS.maxRecipientsPerRequest, 350, 100]);
    expect(batches.every((b) => b.state === 'pending')).toBe(true);
    expect(batches.flatMap((b) => b.recipients)).toEqual(numbers(800));
    // A listed number's message already shows in its conversation as pending; the others are
    // lean (issue 27 item 6): no conversation is made for them.
    const conv = new ConversationsRepo(app).byPeer('', '447700900005');
    expect(conv?.lastMessage).toMatchObject({ direction: 'out', text: TEXT.text, status: 'pending' });
    expect(new ConversationsRepo(app).byPeer('', '447700900006')).toBeNull();
  });

  it('writes nothing when any recipient is invalid, and says which', () => {
    let error: unknown;
    try {
      journal.createJob(['447700900001', 'abc', '0'], TEXT);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidRecipientsError);
    expect((error as InvalidRecipientsError).problems.map((p) => p.input)).toEqual(['abc', '0']);
    expect(() => journal.createJob([], TEXT)).toThrow(InvalidRecipientsError);
    expect(
      app.db
        .prepare('SELECT (SELECT count(*) FROM outbox_jobs) + (SELECT count(*) FROM messages) AS n')
        .get(),
    ).toEqual({ n: 0 });
  });

  it('claims a batch once: pending → sending, never twice', () => {
    const job = journal.createJob(numbers(400), TEXT);
    const first = journal.nextBatch();
    expect(first?.seq).toBe(1);
    const sending = journal.markSending(first!.id);
    expect(sending.state).toBe('sending');
    expect(() => journal.markSending(first!.id)).toThrow(/is 'sending', not 'pending'/);
    expect(journal.nextBatch()?.seq).toBe(2);
    expect(journal.job(job.id)?.counts).toMatchObject({ sending: 350, pending: 50 });
  });

  it('records format-3 results per recipient by position or by number', () => {
    const job = journal.createJob(numbers(4), TEXT);
    const batch = journal.markSending(journal.nextBatch()!.id);
    const outcomes = journal.recordResults(batch.id, [
      { messageIdentifier: 'A1', report: '-3', text: 'Accepted' },
      { messageIdentifier: 'A2', report: '-2' },
      { messageIdentifier: 'A3', report: '15', text: 'Out of credit' },
    ]);
    expect(outcomes.map((o) => [o.to, o.status, o.messageIdentifier, o.report])).toEqual([
      ['447700900000', 'accepted', 'A1', '-3'],
      ['447700900001', 'queued', 'A2', '-2'],
      ['447700900002', 'rejected', 'A3', '15'],
      ['447700900003', 'unknown', null, null],
    ]);
    expect(outcomes[2]?.classification).toBe('error');
    expect(journal.batch(batch.id)?.state).toBe('accepted');
    expect(journal.job(job.id)?.counts).toMatchObject({ accepted: 1, queued: 1, rejected: 1, unknown: 1 });
    expect(() => journal.recordResults(batch.id, [])).toThrow(/is 'accepted', not 'sending'/);

    const job2 = journal.createJob(numbers(2, 10), TEXT);
    const b2 = journal.markSending(journal.nextBatch(job2.id)!.id);
    const byNumber = journal.recordResults(b2.id, [
      { to: '+447700900011', report: '2', text: 'Invalid login' },
      { to: '447700900010', report: '2', text: 'Invalid login' },
    ]);
    expect(byNumber.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(journal.batch(b2.id)?.state).toBe('rejected');
  });

  it('tells a recipient never sent (rejected) from one without a report (unknown)', () => {
    journal.createJob(numbers(3), TEXT);
    const b = journal.claimNext()!;
    const outcomes = journal.recordResults(b.id, [
      { to: '447700900000', notSent: true, text: 'not sent: out of credit on an earlier request' },
      { to: '447700900001', text: 'connection reset' },
      { to: '447700900002', report: '-3', messageIdentifier: 'N3' },
    ]);
    expect(outcomes.map((o) => [o.status, o.reportText])).toEqual([
      ['rejected', 'not sent: out of credit on an earlier request'],
      ['unknown', 'connection reset'],
      ['accepted', null],
    ]);
  });

  it('cancels only the batches never requested', () => {
    const job = journal.createJob(numbers(800), TEXT);
    const first = journal.claimNext(job.id)!;
    const cancelled = journal.cancelPending(job.id);
    expect(cancelled.map((b) => [b.seq, b.state, b.reason])).toEqual([
      [2, 'rejected', 'cancelled before it was sent'],
      [3, 'rejected', 'cancelled before it was sent'],
    ]);
    expect(journal.batch(first.id)?.state).toBe('sending');
    expect(journal.job(job.id)?.counts).toMatchObject({ sending: 350, rejected: 450, pending: 0 });
    expect(journal.claimNext(job.id)).toBeNull();
  });

  it('gives one report to a whole batch, and turns a lost answer into unknown', () => {
    journal.createJob(numbers(3), TEXT);
    const b = journal.markSending(journal.nextBatch()!.id);
    expect(journal.recordBatchReport(b.id, '2', 'Invalid login').map((o) => o.status)).toEqual([
      'rejected',
      'rejected',
      'rejected',
    ]);

    journal.createJob(numbers(2, 20), TEXT);
    const pending = journal.nextBatch()!;
    expect(() => journal.markUnknown(pending.id, 'x')).toThrow(StoreError);
    journal.markSending(pending.id);
    const unknown = journal.markUnknown(pending.id, 'connection reset after the request was sent');
    expect(unknown).toMatchObject({
      state: 'unknown',
      reason: 'connection reset after the request was sent',
    });
    expect(journal.recipientsOfBatch(pending.id).map((o) => o.status)).toEqual(['unknown', 'unknown']);
    expect(journal.unknownBatches().map((x) => x.id)).toEqual([pending.id]);
    expect(journal.nextBatch()).toBeNull();
  });

  it('applies delivery receipts by MessageIdentifier', () => {
    journal.createJob(numbers(2), TEXT);
    const b = journal.markSending(journal.nextBatch()!.id);
    journal.recordResults(b.id, [
      { messageIdentifier: 'M1', report: '-3' },
      { messageIdentifier: 'M2', report: '-3' },
    ]);
    expect(journal.recordReceipt({ messageIdentifier: 'M1', report: '-3', at: 5000 })).toMatchObject({
      status: 'delivered',
      receiptReport: '-3',
      receiptAt: 5000,
    });
    expect(journal.recordReceipt({ messageIdentifier: 'M2', report: '5' })?.status).toBe('failed');
  });

  it('returns, from recordResults, the outcomes exactly as stored: every kind of result (issue 27)', () => {
    const list = numbers(6);
    journal.createJob(list, TEXT);
    const b = journal.markSending(journal.nextBatch()!.id);
    // by number, out of order: accepted, queued, refused, not sent, an unknown code, and one left out
    const outcomes = journal.recordResults(b.id, [
      { to: list[3]!, notSent: true, text: 'not sent: the connection failed' },
      { to: list[0]!, messageIdentifier: 'R1', report: '-3', text: 'ok' },
      { to: list[1]!, messageIdentifier: 'R2', report: ' -2 ' },
      { to: list[2]!, report: '15', text: 'Invalid destination' },
      { to: list[4]!, messageIdentifier: 'R5', report: '999' },
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'accepted',
      'queued',
      'rejected',
      'rejected',
      'unknown',
      'unknown',
    ]);
    expect(outcomes).toEqual(journal.recipientsOfBatch(b.id));
    expect(journal.batch(b.id)?.state).toBe('accepted');
    // by position, every one refused: the batch is rejected
    journal.createJob(numbers(2, 10), TEXT);
    const r = journal.markSending(journal.nextBatch()!.id);
    const refused = journal.recordResults(r.id, [{ report: '15' }, { report: '15', text: 'no' }]);
    expect(refused).toEqual(journal.recipientsOfBatch(r.id));
    expect(journal.batch(r.id)?.state).toBe('rejected');
  });

  it('keeps a receipt that arrives before its send is answered, and applies it then', () => {
    journal.createJob(numbers(2), TEXT);
    const b = journal.markSending(journal.nextBatch()!.id);
    expect(journal.recordReceipt({ messageIdentifier: 'E1', report: '-3', at: 7000 })).toBeNull();
    const outcomes = journal.recordResults(b.id, [
      { messageIdentifier: 'E1', report: '-3' },
      { messageIdentifier: 'E2', report: '-3' },
    ]);
    expect(outcomes.map((o) => [o.to, o.status, o.receiptAt])).toEqual([
      ['447700900000', 'delivered', 7000],
      ['447700900001', 'accepted', null],
    ]);
    expect(app.db.prepare('SELECT count(*) AS n FROM early_receipts').get()).toEqual({ n: 0 });
  });

  it("a multi-part message's receipts: a part not delivered keeps it failed, whatever order they come in", () => {
    journal.createJob(numbers(3), { kind: 'text', text: 'x'.repeat(400) });
    const b = journal.markSending(journal.nextBatch()!.id);
    // M1's second part fails before the answer is stored (kept early), its first part is delivered after
    expect(journal.recordReceipt({ messageIdentifier: 'M1', report: '76', at: 5000 })).toBeNull();
    expect(journal.recordReceipt({ messageIdentifier: 'M1', report: '0', at: 5100 })).toBeNull();
    journal.recordResults(b.id, [
      { messageIdentifier: 'M1', report: '-3' },
      { messageIdentifier: 'M2', report: '-3' },
      { messageIdentifier: 'M3', report: '-3' },
    ]);
    // M2: failed part first, delivered part after; M3: both delivered
    expect(journal.recordReceipt({ messageIdentifier: 'M2', report: '76', at: 6000 })).toMatchObject({
      status: 'failed',
    });
    expect(journal.recordReceipt({ messageIdentifier: 'M2', report: '0', at: 6100 })).toMatchObject({
      status: 'failed',
    });
    journal.recordReceipt({ messageIdentifier: 'M3', report: '0', at: 7000 });
    journal.recordReceipt({ messageIdentifier: 'M3', report: '0', at: 7100 });
    expect(journal.recipientsOfBatch(b.id).map((o) => [o.status, o.receiptReport, o.receiptAt])).toEqual([
      ['failed', '76', 5000],
      ['failed', '76', 6000],
      ['delivered', '0', 7100],
    ]);
    expect(app.db.prepare('SELECT count(*) AS n FROM early_receipts').get()).toEqual({ n: 0 });
  });

  it('re-sends only when asked, as a new job to recipients of the old one', () => {
    const job = journal.createJob(numbers(3), TEXT);
    const b = journal.markSending(journal.nextBatch()!.id);
    journal.recordResults(b.id, [{ report: '-3' }, { report: '15' }, { report: '15' }]);
    expect(journal.nextBatch()).toBeNull();
    const failed = journal
      .recipients(job.id)
      .filter((r) => r.status === 'rejected')
      .map((r) => r.to);
    const again = journal.resendToRecipients(job.id, failed);
    expect(again).toMatchObject({ resendOf: job.id, recipientCount: 2, content: TEXT });
    expect(journal.nextBatch()?.recipients).toEqual(['447700900001', '447700900002']);
    expect(() => journal.resendToRecipients(job.id, ['447700900555'])).toThrow(/not a recipient of job/);
    // The old job keeps its outcomes.
    expect(journal.job(job.id)?.counts).toMatchObject({ accepted: 1, rejected: 2 });
  });

  it('refuses a batch size above the protocol limit', () => {
    expect(() => new OutboxJournal(app, { batchSize: LIMITS.maxRecipientsPerRequest + 1 })).toThrow(
      /batch size/,
    );
    const small = new OutboxJournal(app, { batchSize: 2 });
    expect(small.createJob(numbers(5), TEXT).batchCount).toBe(3);
  });

  it('keeps a conversation with a send under way from being deleted', () => {
    journal.createJob(numbers(1), TEXT);
    const conversations = new ConversationsRepo(app);
    const id = conversations.byPeer('', '447700900000')!.id;
    expect(() => conversations.delete('', id)).toThrow(/still in progress/);
    const b = journal.markSending(journal.nextBatch()!.id);
    journal.recordResults(b.id, [{ report: '-3' }]);
    conversations.delete('', id);
    expect(conversations.get(id)).toBeNull();
  });

  it('recovers only batches whose process is gone, never one still being sent', () => {
    journal.createJob(numbers(4), TEXT);
    const small = new OutboxJournal(app, { batchSize: 1 });
    small.createJob(numbers(3, 100), TEXT);
    const mine = journal.markSending(journal.nextBatch()!.id);
    small.createJob(numbers(1, 200), TEXT);
    const ids = [1, 2, 3, 4].map(() => small.markSending(small.nextBatch()!.id).id);
    const setOwner = app.db.prepare('UPDATE outbox_batches SET owner = ? WHERE id = ?');
    setOwner.run('4242:other-process', ids[0]!); // another process, still running
    setOwner.run('4343:crashed-process', ids[1]!); // another process, gone
    setOwner.run(`${process.pid}:a-previous-run`, ids[2]!); // our pid, reused after a restart
    // Issue 17: a pid that runs again (a container's pid 1, after a reboot), but not that run.
    setOwner.run('4242:run-before-the-reboot', ids[3]!);
    const recovered = journal.recoverAfterCrash({
      isProcessAlive: (pid) => pid === 4242,
      isRunAlive: (run) => run === 'other-process',
    });
    expect(recovered.map((b) => b.id)).toEqual([ids[1], ids[2], ids[3]]);
    expect(journal.batch(mine.id)?.state).toBe('sending');
    expect(journal.batch(ids[0]!)?.state).toBe('sending');
  });

  it('lists the history newest first, filtered by status, beside inbound messages in the thread', () => {
    const job = journal.createJob(numbers(3), TEXT);
    const b = journal.markSending(journal.nextBatch()!.id);
    journal.recordResults(b.id, [
      { report: '-3', messageIdentifier: 'H1' },
      { report: '15' },
      { report: '-3' },
    ]);
    journal.recordReceipt({ messageIdentifier: 'H1', report: '5' });
    const conversations = new ConversationsRepo(app);
    expect(
      conversations
        .history('', { filter: { status: ['rejected', 'failed'] } })
        .items.map((m) => [m.peer, m.status]),
    ).toEqual([
      ['447700900001', 'rejected'],
      ['447700900000', 'failed'],
    ]);
    expect(conversations.history('', { filter: { jobId: job.id }, limit: 2 }).next).not.toBeNull();
    // issue 25: one account's history only (these sends are of no account: '')
    expect(conversations.history('another-account').items).toEqual([]);
    conversations.storeInbound('', {
      from: '447700900002',
      to: '447700900999',
      text: 'Got it',
      timestamp: 'x',
      receivedAt: Date.now() + 1000,
    });
    const thread = conversations.thread('', {
      conversationId: conversations.byPeer('', '447700900002')!.id,
    }).items;
    expect(thread.map((m) => [m.direction, m.text, m.status])).toEqual([
      ['in', 'Got it', 'received'],
      ['out', TEXT.text, 'accepted'],
    ]);
  });
});

// Issue 27: every batch state is the journal's; the sender asks it to hold an answer and claim the
// next batch in one transaction, and to refuse a claimed batch.
describe('outbox journal: operations the sender asks for', () => {
  it('holds an answer and claims the next batch together, or only holds it', () => {
    const withSmall = new OutboxJournal(app, { batchSize: 2 });
    const job = withSmall.createJob(numbers(5), TEXT);
    const first = withSmall.claimNext(job.id)!;
    const results = first.recipients.map((to) => ({ to, report: '-3' }));
    const second = withSmall.holdAnswerAndClaim(first.id, results, job.id, () => true);
    expect(second?.state).toBe('sending');
    expect(second?.id).not.toBe(first.id);
    const third = withSmall.holdAnswerAndClaim(second!.id, results, job.id, () => false);
    expect(third).toBeNull();
    expect(withSmall.batches(job.id).map((b) => b.state)).toEqual(['sending', 'sending', 'pending']);
    // A batch that is not 'sending' holds no answer, and nothing is claimed then either.
    expect(() =>
      withSmall.holdAnswerAndClaim(withSmall.batches(job.id)[2]!.id, [], job.id, () => true),
    ).toThrow(StoreError);
    expect(withSmall.batches(job.id).map((b) => b.state)).toEqual(['sending', 'sending', 'pending']);
  });

  it('a receipt between the held answer and its storing, or its recovery after a crash, is applied once', () => {
    const withSmall = new OutboxJournal(app, { batchSize: 2 });
    const job = withSmall.createJob(numbers(4), TEXT);
    const first = withSmall.claimNext(job.id)!;
    const ids = (b: { recipients: string[] }, p: string) =>
      b.recipients.map((to, i) => ({ to, report: '-3', messageIdentifier: `${p}${i}` }));
    const second = withSmall.holdAnswerAndClaim(first.id, ids(first, 'P'), job.id, () => true)!;
    // the first recipient's receipt comes while its answer is held and the next request is on its way
    expect(withSmall.recordReceipt({ messageIdentifier: 'P0', report: '0', at: 4000 })).toBeNull();
    withSmall.holdAnswer(second.id, ids(second, 'Q'));
    expect(withSmall.recordReceipt({ messageIdentifier: 'Q0', report: '0', at: 4100 })).toBeNull();
    expect(withSmall.recordResults(first.id, ids(first, 'P'))[0]).toMatchObject({
      status: 'delivered',
      receiptAt: 4000,
    });
    // the app stops before the second answer is stored: recovery stores it and applies its receipt
    app.db.prepare('UPDATE outbox_batches SET owner = ? WHERE id = ?').run('4343:crashed', second.id);
    withSmall.recoverAfterCrash({ isProcessAlive: () => false, isRunAlive: () => false });
    expect(withSmall.recipients(job.id).map((r) => [r.status, r.receiptAt])).toEqual([
      ['delivered', 4000],
      ['accepted', null],
      ['delivered', 4100],
      ['accepted', null],
    ]);
    expect(app.db.prepare('SELECT count(*) AS n FROM early_receipts').get()).toEqual({ n: 0 });
    // the same receipt pushed again (the gateway did not get the answer): the same state
    expect(withSmall.recordReceipt({ messageIdentifier: 'P0', report: '0', at: 4000 })).toMatchObject({
      status: 'delivered',
      receiptAt: 4000,
    });
  });

  it('refuses a claimed batch with its numbers, and only a claimed one', () => {
    const job = journal.createJob(numbers(2), TEXT);
    const pending = journal.batches(job.id)[0]!;
    expect(() => journal.refuseClaimed(pending.id, 'no')).toThrow(StoreError);
    const claimed = journal.claimNext(job.id)!;
    journal.refuseClaimed(claimed.id, 'not sent: its address book could not be checked');
    expect(journal.batches(job.id)[0]).toMatchObject({
      state: 'rejected',
      reason: 'not sent: its address book could not be checked',
    });
    expect(journal.recipients(job.id).map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
