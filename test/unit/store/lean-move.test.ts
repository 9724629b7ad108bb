// Issue 27 item 6, app migration 055's triggers: a recipient a send to many kept in the journal's lean
// table (no `messages` row, no conversation) is moved into `messages`, as its thread row, when a
// conversation of the job's account with its number is listed: created listed, or campaign_only
// going 1 → 0. Every path that lists a conversation does it: ConversationsRepo.ensure (a send to the
// number alone, the Inbox opening a contact), a reply stored one by one (storeInbound) or many at a
// time (an office desk's import), and another desk's send to the number alone mirrored at an office
// desk (main/office/sends-conversations.ts). Nothing moves for another account or number, nor when a
// campaign-only conversation is made.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppStore } from '../../../main/store/app-store.ts';
import type { OpenedAppStore } from '../../../main/store/app-store.ts';
import { SendsLocal } from '../../../main/office/sends-local.ts';
import { leanRows, putLeanJob } from '../../support/lean-rows.ts';

const opened: Array<{ store: OpenedAppStore; dir: string }> = [];
afterEach(() => {
  for (const { store, dir } of opened.splice(0)) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const ONE = '447700900001';
const TWO = '447700900002';
const THREE = '447700900003';
const AT = 1_700_000_000_000;

function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'lean-move-'));
  const store = openAppStore(join(dir, 'messenger.db'));
  opened.push({ store, dir });
  const account = store.accounts.save({ username: 'demo', primaryUrl: 'https://gw.example.com' }).id;
  const other = store.accounts.save({ username: 'demo2', primaryUrl: 'https://gw.example.com' }).id;
  /** A flash campaign of `acc` to ONE, TWO, THREE (ONE answered and delivered), all lean. */
  const campaign = (acc: string, at = AT) =>
    putLeanJob(store.app, {
      accountId: acc,
      at,
      content: { kind: 'flash', text: 'Doors open at 9', replyTo: '447700999000' },
      batchSize: 2,
      recipients: [
        {
          peer: ONE,
          status: 'delivered',
          messageIdentifier: `mid-${acc}-1`,
          report: '0',
          sentAt: at + 5,
          answeredAt: at + 6,
          receiptReport: 'DELIVRD',
          receiptAt: at + 50,
        },
        { peer: TWO, status: 'accepted', messageIdentifier: `mid-${acc}-2` },
        { peer: THREE, status: 'rejected', report: '-3' },
      ],
    });
  /** The thread rows of `peer`'s conversation of `acc`, oldest first. */
  const thread = (acc: string, peer: string) => {
    const c = store.conversations.byPeer(acc, peer);
    if (!c) return null;
    return store.conversations
      .thread(acc, { conversationId: c.id, limit: 100 })
      .items.reverse()
      .map((m) => ({ direction: m.direction, text: m.text, status: m.status, jobId: m.jobId }));
  };
  const listed = (acc: string) => store.conversations.list(acc, { limit: 100 }).items.map((c) => c.peer);
  return { store, account, other, campaign, thread, listed };
}

describe('app migration 055: lean recipients moved into messages when their conversation is listed', () => {
  it('a conversation created listed takes its number’s lean rows of its account, with every field', () => {
    const { store, account, other, campaign } = setUp();
    const mine = campaign(account);
    const theirs = campaign(other);
    store.conversations.ensure(account, ONE, AT + 100);
    const rows = store.app.db
      .prepare(
        `SELECT m.direction, m.kind, m.peer, m.local, m.text, m.created_at, m.status, m.job_id, m.batch_id,
                m.position, m.message_identifier, m.report, m.sent_at, m.answered_at, m.receipt_report,
                m.receipt_at, m.read, m.label, c.account_id, c.campaign_only
           FROM messages m JOIN conversations c ON c.id = m.conversation_id`,
      )
      .all();
    expect(rows).toEqual([
      {
        direction: 'out',
        kind: 'flash',
        peer: ONE,
        local: '447700999000',
        text: 'Doors open at 9',
        created_at: AT,
        status: 'delivered',
        job_id: mine.jobId,
        batch_id: mine.batchIds[0],
        position: 0,
        message_identifier: `mid-${account}-1`,
        report: '0',
        sent_at: AT + 5,
        answered_at: AT + 6,
        receipt_report: 'DELIVRD',
        receipt_at: AT + 50,
        read: 1,
        label: 'Flash message',
        account_id: account,
        campaign_only: 0,
      },
    ]);
    // the moved row has left the lean table; the other numbers and the other account's stay there
    expect(leanRows(store.app, mine.jobId).map((r) => r.peer)).toEqual([TWO, THREE]);
    expect(leanRows(store.app, theirs.jobId).map((r) => r.peer)).toEqual([ONE, TWO, THREE]);
    // the journal's reads (History, receipts) find it once, in messages
    expect(
      store.app.db
        .prepare('SELECT count(*) AS n FROM outbox_recipients WHERE message_identifier = ?')
        .get(`mid-${account}-1`),
    ).toEqual({ n: 0 });
  });

  it('a campaign-only conversation made moves nothing; listing it (1 → 0) moves its number’s rows', () => {
    const { store, account, campaign, thread, listed } = setUp();
    const first = campaign(account, AT);
    const second = campaign(account, AT + 1000);
    store.conversations.ensure(account, TWO, AT + 2000, true);
    expect(leanRows(store.app, first.jobId)).toHaveLength(3);
    expect(store.app.db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 0 });
    expect(listed(account)).toEqual([]);
    // a reply from TWO lists it: both sends to TWO are in its thread, before the reply
    store.conversations.storeInbound(account, {
      from: TWO,
      to: '447700999000',
      text: 'See you there',
      timestamp: '231114221320',
      receivedAt: AT + 3000,
    });
    expect(thread(account, TWO)).toEqual([
      { direction: 'out', text: 'Doors open at 9', status: 'accepted', jobId: first.jobId },
      { direction: 'out', text: 'Doors open at 9', status: 'accepted', jobId: second.jobId },
      { direction: 'in', text: 'See you there', status: 'received', jobId: null },
    ]);
    expect(listed(account)).toEqual([TWO]);
    expect(leanRows(store.app, first.jobId).map((r) => r.peer)).toEqual([ONE, THREE]);
    expect(leanRows(store.app, second.jobId).map((r) => r.peer)).toEqual([ONE, THREE]);
  });

  it('a reply imported many at a time (an office desk) moves its number’s rows into its thread', () => {
    const { store, account, campaign, thread } = setUp();
    const job = campaign(account);
    store.inboundImport.storeMany(
      account,
      [
        {
          from: THREE,
          to: '447700999000',
          text: 'Why rejected?',
          timestamp: '231114221310',
          receivedAt: AT + 10,
          identity: 'office:1',
        },
      ],
      'collect',
    );
    expect(thread(account, THREE)).toEqual([
      { direction: 'out', text: 'Doors open at 9', status: 'rejected', jobId: job.jobId },
      { direction: 'in', text: 'Why rejected?', status: 'received', jobId: null },
    ]);
    expect(leanRows(store.app, job.jobId).map((r) => r.peer)).toEqual([ONE, TWO]);
  });

  it('the Inbox opening a contact’s conversation moves its rows', () => {
    const { store, account, campaign, thread } = setUp();
    const job = campaign(account);
    store.conversations.open(account, ONE);
    expect(thread(account, ONE)).toEqual([
      { direction: 'out', text: 'Doors open at 9', status: 'delivered', jobId: job.jobId },
    ]);
  });

  it('another desk’s send to the number alone, mirrored at an office desk, moves this desk’s rows', () => {
    const { store, account, campaign, thread, listed } = setUp();
    const job = campaign(account);
    const sends = new SendsLocal(store.app, 'desk-b');
    store.app.transaction(() => {
      const other = sends.ensureSend(account, {
        uid: 'desk-a:1:1',
        createdAt: AT + 500,
        content: JSON.stringify({ kind: 'text', text: 'Your table is ready' }),
        resendOf: null,
        desk: 'desk-a',
        deskName: 'Front desk',
      });
      sends.putRecipients(other, [
        {
          sendUid: 'desk-a:1:1',
          peer: TWO,
          position: 1,
          status: 'accepted',
          messageIdentifier: null,
          report: null,
          reportText: null,
          classification: null,
          receiptReport: null,
          receiptAt: null,
          sentAt: null,
          version: 1,
        },
      ]);
    });
    expect(listed(account)).toEqual([TWO]);
    // this desk's own campaign message to TWO is in its thread (the other desk's is merged by the office)
    expect(thread(account, TWO)).toEqual([
      { direction: 'out', text: 'Doors open at 9', status: 'accepted', jobId: job.jobId },
    ]);
    expect(leanRows(store.app, job.jobId).map((r) => r.peer)).toEqual([ONE, THREE]);
  });
});
