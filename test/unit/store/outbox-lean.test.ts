// Issue 27 item 6: a send to many keeps each recipient whose number has no listed conversation of
// the job's account in `outbox_recipients` (migration 055, main/store/outbox-lean.ts), not in
// `messages`. Every state of the journal, receipts, counts, History and the campaign view read both;
// a conversation listed later (a reply, a message to the number alone) takes the number's rows into
// its thread.
import { describe, expect, it } from 'vitest';
import type { AppDb } from '../../../main/store/db.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import { AccountsRepo } from '../../../main/store/accounts.ts';
import { readCampaign } from '../../../main/store/outbox-campaigns.ts';
import { LEAN_ID_BASE, leanKey } from '../../../main/store/outbox-lean.ts';
import type { OutboxContent } from '../../../domain/index.ts';
import { withJournal } from './helpers.ts';

let app: AppDb;
let journal: OutboxJournal;
withJournal((a, j) => {
  app = a;
  journal = j;
});

const TEXT: OutboxContent = { kind: 'text', text: 'Doors open at nine', replyTo: '447700900999' };
const LISTED = '447700900001';
const LEAN = '447700900002';
const OTHER = '447700900003';

// The lean recipients: the table's rows and those a batch not ended yet holds in its value (migration 059).
const leanRows = (): Array<{ peer: string; status: string }> =>
  app.db
    .prepare(
      `SELECT peer, status FROM (SELECT batch_id, position, peer, status FROM outbox_recipients
         UNION ALL SELECT batch_id, position, peer, status FROM outbox_lean_pending) ORDER BY batch_id, position`,
    )
    .all() as Array<{
    peer: string;
    status: string;
  }>;
const messageRows = (): Array<{ peer: string; status: string }> =>
  app.db.prepare("SELECT peer, status FROM messages WHERE direction = 'out' ORDER BY id").all() as Array<{
    peer: string;
    status: string;
  }>;

/** A send to LISTED (a listed conversation), LEAN and OTHER (none), claimed and answered. */
function sentMixed(): { jobId: number; batchId: number; conversations: ConversationsRepo } {
  const conversations = new ConversationsRepo(app);
  conversations.open('', LISTED);
  const job = journal.createJob([LISTED, LEAN, OTHER], TEXT);
  const batch = journal.claimNext(job.id)!;
  journal.recordResults(batch.id, [
    { to: LISTED, report: '-3', messageIdentifier: 'M1' },
    { to: LEAN, report: '-3', messageIdentifier: 'M2' },
    { to: OTHER, report: '15', text: 'Out of credit' },
  ]);
  return { jobId: job.id, batchId: batch.id, conversations };
}

describe('a send to many with lean recipients', () => {
  it('journals a listed number in its thread and the others lean, making no conversation for them', () => {
    const { jobId, conversations } = sentMixed();
    expect(messageRows()).toEqual([{ peer: LISTED, status: 'accepted' }]);
    expect(leanRows()).toEqual([
      { peer: LEAN, status: 'accepted' },
      { peer: OTHER, status: 'rejected' },
    ]);
    expect(conversations.byPeer('', LEAN)).toBeNull();
    expect(conversations.list('').items.map((c) => c.peer)).toEqual([LISTED]);
    const thread = conversations.thread('', { conversationId: conversations.byPeer('', LISTED)!.id });
    expect(thread.items.map((m) => [m.text, m.status])).toEqual([[TEXT.text, 'accepted']]);
    // The job, its batch and the campaign view count and list all three, in SendTo order.
    const job = journal.job(jobId)!;
    expect(job.recipientCount).toBe(3);
    expect(job.counts).toMatchObject({ accepted: 2, rejected: 1, pending: 0 });
    expect(journal.batches(jobId)[0]?.recipients).toEqual([LISTED, LEAN, OTHER]);
    expect(journal.recipients(jobId).map((r) => [r.to, r.status, r.messageIdentifier])).toEqual([
      [LISTED, 'accepted', 'M1'],
      [LEAN, 'accepted', 'M2'],
      [OTHER, 'rejected', null],
    ]);
    const campaign = readCampaign(app, journal, jobId);
    expect(campaign.rows.map((r) => r.to)).toEqual([LISTED, LEAN, OTHER]);
    expect(campaign.counts).toMatchObject({ accepted: 2, rejected: 1 });
    // History lists every recipient, lean ones with an id of their own and no conversation.
    const history = conversations.history('', { filter: { jobId } }).items;
    expect(history.map((m) => m.peer).sort()).toEqual([LISTED, LEAN, OTHER]);
    const lean = history.find((m) => m.peer === LEAN)!;
    expect(lean).toMatchObject({
      conversationId: 0,
      jobId,
      text: TEXT.text,
      local: TEXT.replyTo,
      status: 'accepted',
    });
    expect(lean.id).toBeGreaterThanOrEqual(LEAN_ID_BASE);
    expect(leanKey(lean.id)).toEqual({ batchId: lean.batchId, position: 1 });
    expect(new Set(history.map((m) => m.id)).size).toBe(3);
    expect(conversations.history('', { filter: { status: 'rejected' } }).items.map((m) => m.peer)).toEqual([
      OTHER,
    ]);
    // Paged one at a time, every row comes once.
    const seen: string[] = [];
    let cursor = null;
    do {
      const page = conversations.history('', { cursor, limit: 1 });
      seen.push(...page.items.map((m) => m.peer));
      cursor = page.next;
    } while (cursor);
    expect(seen.sort()).toEqual([LISTED, LEAN, OTHER]);
  });

  it("lists an account's lean recipients in its History only, newest send first, page by page", () => {
    const conversations = new ConversationsRepo(app);
    const accounts = new AccountsRepo(app);
    const [one, two] = ['one', 'two'].map(
      (username) => accounts.save({ username, primaryUrl: 'https://gw.example.com' }).id,
    );
    const clock = { now: 1_000 };
    const timed = new OutboxJournal(app, { now: () => clock.now });
    const first = timed.createJob([LEAN, OTHER], TEXT, { accountId: one! });
    clock.now = 2_000;
    const second = timed.createJob([LEAN, OTHER], { kind: 'text', text: 'Reminder' }, { accountId: one! });
    timed.createJob([LEAN, OTHER], TEXT, { accountId: two! });
    expect(leanRows()).toHaveLength(6);
    const pages: number[][] = [];
    let cursor = null;
    do {
      const page = conversations.history(one!, { cursor, limit: 3 });
      pages.push(page.items.map((m) => m.jobId ?? 0));
      cursor = page.next;
    } while (cursor);
    expect(pages).toEqual([[second.id, second.id, first.id], [first.id]]);
    expect(conversations.history(one!, { filter: { jobId: first.id } }).items.map((m) => m.peer)).toEqual([
      OTHER,
      LEAN,
    ]);
    expect(conversations.history('acc-3').items).toEqual([]);
  });

  it('moves a lean number into its thread, status and receipt kept, when it replies', () => {
    const { jobId, conversations } = sentMixed();
    journal.recordReceipt({ messageIdentifier: 'M2', report: '0', at: 5 });
    conversations.storeInbound('', {
      from: LEAN,
      to: TEXT.replyTo!,
      text: 'See you there',
      timestamp: 'x',
      receivedAt: Date.now() + 1000,
    });
    const conv = conversations.byPeer('', LEAN)!;
    expect(conversations.list('').items.map((c) => c.peer)).toContain(LEAN);
    const thread = conversations.thread('', { conversationId: conv.id }).items.reverse();
    expect(thread.map((m) => [m.direction, m.text, m.status, m.receiptReport])).toEqual([
      ['out', TEXT.text, 'delivered', '0'],
      ['in', 'See you there', 'received', null],
    ]);
    expect(thread[0]).toMatchObject({ jobId, messageIdentifier: 'M2', receiptAt: 5, local: TEXT.replyTo });
    expect(leanRows().map((r) => r.peer)).toEqual([OTHER]);
    // The journal reads it where it is now: nothing lost, nothing counted twice.
    expect(journal.recipients(jobId).map((r) => [r.to, r.status])).toEqual([
      [LISTED, 'accepted'],
      [LEAN, 'delivered'],
      [OTHER, 'rejected'],
    ]);
    expect(journal.job(jobId)?.recipientCount).toBe(3);
  });

  it('moves a lean number into its thread when a message is sent to it alone, before that message', () => {
    const { jobId, conversations } = sentMixed();
    journal.createJob([OTHER], { kind: 'text', text: 'Your seat is confirmed' });
    const conv = conversations.byPeer('', OTHER)!;
    const thread = conversations.thread('', { conversationId: conv.id }).items.reverse();
    expect(thread.map((m) => [m.text, m.status, m.reportText])).toEqual([
      [TEXT.text, 'rejected', 'Out of credit'],
      ['Your seat is confirmed', 'pending', null],
    ]);
    expect(leanRows().map((r) => r.peer)).toEqual([LEAN]);
    expect(journal.recipients(jobId).map((r) => r.to)).toEqual([LISTED, LEAN, OTHER]);
  });

  it('moves a number sent to while its batch is being sent: the answer is stored in its thread', () => {
    const conversations = new ConversationsRepo(app);
    const job = journal.createJob([LEAN, OTHER], TEXT);
    const batch = journal.claimNext(job.id)!;
    expect(leanRows()).toEqual([
      { peer: LEAN, status: 'sending' },
      { peer: OTHER, status: 'sending' },
    ]);
    conversations.storeInbound('', { from: LEAN, to: TEXT.replyTo!, text: 'Hi', timestamp: 'x' });
    const outcomes = journal.recordResults(batch.id, [
      { report: '-3', messageIdentifier: 'S1' },
      { report: '-3', messageIdentifier: 'S2' },
    ]);
    expect(outcomes.map((o) => [o.to, o.messageIdentifier])).toEqual([
      [LEAN, 'S1'],
      [OTHER, 'S2'],
    ]);
    expect(messageRows()).toEqual([{ peer: LEAN, status: 'accepted' }]);
    expect(leanRows()).toEqual([{ peer: OTHER, status: 'accepted' }]);
  });

  it('applies receipts to lean recipients, early and late, and gives them back as messages', () => {
    const job = journal.createJob([LEAN, OTHER], TEXT);
    const batch = journal.claimNext(job.id)!;
    // Early: before the answer naming E2 is stored.
    expect(journal.recordReceipt({ messageIdentifier: 'E2', report: '5', at: 7 })).toBeNull();
    journal.holdAnswer(batch.id, [
      { report: '-3', messageIdentifier: 'E1' },
      { report: '-3', messageIdentifier: 'E2' },
    ]);
    const outcomes = journal.recordResults(batch.id, [
      { report: '-3', messageIdentifier: 'E1' },
      { report: '-3', messageIdentifier: 'E2' },
    ]);
    expect(outcomes.map((o) => [o.to, o.status, o.receiptReport])).toEqual([
      [LEAN, 'accepted', null],
      [OTHER, 'failed', '5'],
    ]);
    // Late: after.
    const m = journal.recordReceipt({ messageIdentifier: 'E1', report: '0', at: 9 });
    expect(m).toMatchObject({
      peer: LEAN,
      status: 'delivered',
      jobId: job.id,
      batchId: batch.id,
      conversationId: 0,
    });
    expect(m!.id).toBeGreaterThanOrEqual(LEAN_ID_BASE);
    // A delivered part does not overwrite a failed one.
    expect(journal.recordReceipt({ messageIdentifier: 'E2', report: '0' })?.status).toBe('failed');
    expect(journal.job(job.id)?.counts).toMatchObject({ delivered: 1, failed: 1, accepted: 0 });
  });

  it('after a crash: a lean batch being sent is unknown, a held answer is stored', () => {
    const small = new OutboxJournal(app, { batchSize: 2 });
    const job = small.createJob([LEAN, OTHER, '447700900004', '447700900005'], TEXT);
    expect(leanRows()).toHaveLength(4);
    const first = small.claimNext(job.id)!;
    const second = small.holdAnswerAndClaim(
      first.id,
      [
        { report: '-3', messageIdentifier: 'C1' },
        { report: '-3', messageIdentifier: 'C2' },
      ],
      job.id,
      () => true,
    )!;
    app.db.prepare("UPDATE outbox_batches SET owner = '4343:crashed-process'").run();
    const unknown = small.recoverAfterCrash({ isProcessAlive: () => false, isRunAlive: () => false });
    expect(unknown.map((b) => b.id)).toEqual([second.id]);
    expect(small.recipients(job.id).map((r) => [r.to, r.status, r.messageIdentifier])).toEqual([
      [LEAN, 'accepted', 'C1'],
      [OTHER, 'accepted', 'C2'],
      ['447700900004', 'unknown', null],
      ['447700900005', 'unknown', null],
    ]);
    expect(small.recipients(job.id)[2]?.reportText).toMatch(/interrupted/);
    expect(leanRows().every((r) => r.status !== 'sending')).toBe(true);
  });

  it('cancels pending lean recipients and skips opted-out ones into a rejected batch', () => {
    const small = new OutboxJournal(app, { batchSize: 2 });
    const job = small.createJob([LEAN, OTHER, '447700900004', '447700900005', '447700900006'], TEXT);
    expect(leanRows()).toHaveLength(5);
    const skipped = small.skipOptedOutPending(job.id, (list) => ({
      kept: list.filter((n) => n !== OTHER && n !== '447700900006'),
      skipped: list.filter((n) => n === OTHER || n === '447700900006'),
    }));
    expect(skipped).toBe(2);
    const batches = small.batches(job.id);
    expect(batches.map((b) => [b.state, b.recipients])).toEqual([
      ['pending', [LEAN]],
      ['pending', ['447700900004', '447700900005']],
      ['rejected', ['447700900006']],
      ['rejected', [OTHER]],
    ]);
    small.cancelPending(job.id, 'stopped by the user');
    const after = small.recipients(job.id);
    expect(after.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected', 'rejected']);
    expect(after.find((r) => r.to === OTHER)?.reportText).toMatch(/opted out/);
    expect(after.find((r) => r.to === LEAN)?.reportText).toBe('stopped by the user');
  });

  it('resends to failed lean recipients with their own mail-merged text', () => {
    const job = journal.createJob([LEAN, OTHER], TEXT, { textOf: (n) => `Hello ${n.slice(-1)}` });
    expect(leanRows()).toHaveLength(2);
    const batches = journal.batches(job.id);
    for (const b of batches) {
      journal.markSending(b.id);
      journal.recordResults(b.id, [{ report: '15' }]);
    }
    const again = journal.resendToRecipients(job.id, [OTHER]);
    expect(journal.batchText(journal.batches(again.id)[0]!.id)).toBe('Hello 3');
    expect(journal.job(job.id)?.failedRetried).toBe(1);
  });

  it('reads a job journaled in `messages` before the lean table (an older database) as before', () => {
    const conversations = new ConversationsRepo(app);
    const ids = [LEAN, OTHER].map((n) => conversations.ensure('', n, 1, true));
    const job = app.db
      .prepare(
        "INSERT INTO outbox_jobs (created_at, kind, text, content) VALUES (1, 'text', ?, ?) RETURNING id",
      )
      .get(TEXT.text, JSON.stringify(TEXT)) as { id: number };
    const batch = app.db
      .prepare(
        "INSERT INTO outbox_batches (job_id, seq, state, created_at) VALUES (?, 1, 'pending', 1) RETURNING id",
      )
      .get(job.id) as { id: number };
    const insert = app.db.prepare(
      `INSERT INTO messages (conversation_id, direction, kind, peer, text, created_at, status, job_id, batch_id, position, read)
       VALUES (?, 'out', 'text', ?, ?, 1, 'pending', ?, ?, ?, 1)`,
    );
    insert.run(ids[0]!, LEAN, TEXT.text, job.id, batch.id, 0);
    insert.run(ids[1]!, OTHER, TEXT.text, job.id, batch.id, 1);
    const claimed = journal.claimNext(job.id)!;
    expect(claimed.recipients).toEqual([LEAN, OTHER]);
    journal.recordResults(claimed.id, [{ report: '-3', messageIdentifier: 'O1' }, { report: '15' }]);
    expect(journal.recordReceipt({ messageIdentifier: 'O1', report: '0' })?.id).toBeLessThan(LEAN_ID_BASE);
    expect(journal.job(job.id)?.counts).toMatchObject({ delivered: 1, rejected: 1 });
    expect(readCampaign(app, journal, job.id).rows.map((r) => [r.to, r.status])).toEqual([
      [LEAN, 'delivered'],
      [OTHER, 'rejected'],
    ]);
    expect(leanRows()).toEqual([]);
  });
});
