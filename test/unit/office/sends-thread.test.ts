// Issue 28: a conversation thread with the messages other desks sent to its number merged in
// (main/office/sends-thread.ts): in the store's order (newest first, by time then id), each with its own
// text (a mail merge's) or the send's and the sending desk's name; paged by the store's keyset cursor
// with every message once whatever the page size, also where this desk's and another's share a moment;
// another account's sends and other numbers left out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppStore } from '../../../main/store/app-store.ts';
import type { OpenedAppStore } from '../../../main/store/app-store.ts';
import { SendsLocal } from '../../../main/office/sends-local.ts';
import type { SharedRecipient } from '../../../main/office/sends-local.ts';
import type { MessageRecord, ThreadCursor } from '../../../preload/api.ts';

const opened: Array<{ store: OpenedAppStore; dir: string }> = [];
afterEach(() => {
  for (const { store, dir } of opened.splice(0)) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const PEER = '447700900001';

function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'sends-thread-'));
  const store = openAppStore(join(dir, 'messenger.db'));
  opened.push({ store, dir });
  const account = store.accounts.save({ username: 'demo', primaryUrl: 'https://gw.example.com' }).id;
  const other = store.accounts.save({ username: 'demo2', primaryUrl: 'https://gw.example.com' }).id;
  const sends = new SendsLocal(store.app, 'desk-b');
  const recipient = (peer: string, text: string | null): SharedRecipient => ({
    sendUid: '',
    peer,
    position: 1,
    status: 'accepted',
    messageIdentifier: `mi-${peer}-${text}`,
    report: '-3',
    reportText: null,
    classification: 'accepted',
    receiptReport: null,
    receiptAt: null,
    sentAt: 5,
    text,
    version: 1,
  });
  /** Another desk's send at `at` (its text `text`), to `to` with their own texts. */
  const theirs = (uid: string, at: number, text: string, to: Array<[string, string | null]>, acc = account) =>
    store.app.transaction(() => {
      const content = JSON.stringify({ kind: 'text', text });
      const jobId = sends.ensureSend(acc, {
        uid,
        createdAt: at,
        content,
        resendOf: null,
        desk: 'a',
        deskName: 'Front desk',
      });
      sends.putRecipients(
        jobId,
        to.map(([p, t]) => recipient(p, t)),
      );
    });
  /** This desk's send at `at` (journaled now, its time set as if then). */
  const mine = (at: number, text: string) => {
    const job = store.outbox.createJob([PEER], { kind: 'text', text }, { accountId: account });
    store.app.db.prepare('UPDATE messages SET created_at = ? WHERE job_id = ?').run(at, job.id);
  };
  const reply = (at: number, text: string) =>
    store.conversations.storeInbound(account, {
      from: PEER,
      to: '447700000000',
      text,
      timestamp: '',
      receivedAt: at,
    });
  return { store, sends, account, other, theirs, mine, reply };
}

function read(s: ReturnType<typeof setUp>, limit: number): MessageRecord[] {
  const conv = s.store.conversations.byPeer(s.account, PEER)!;
  const all: MessageRecord[] = [];
  let cursor: ThreadCursor | null = null;
  for (let i = 0; i < 100; i++) {
    const args = { conversationId: conv.id, limit, ...(cursor ? { cursor } : {}) };
    const local = s.store.conversations.thread(s.account, args);
    const page = s.sends.thread(local, { ...args, accountId: s.account, peer: PEER });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    all.push(...page.items);
    cursor = page.next;
    if (cursor === null) return all;
  }
  throw new Error('the pages never ended');
}

const shown = (ms: readonly MessageRecord[]) =>
  ms.map((m) => `${m.text}${m.sentFrom ? ` (${m.sentFrom})` : ''}`);

describe("other desks' messages in a thread", () => {
  it('are merged in order, each once, with their own text and desk, whatever the page size', () => {
    const s = setUp();
    s.mine(1_000, 'mine 1');
    s.theirs('a:1', 2_000, 'Hello {name}', [
      [PEER, 'Hello Ann'],
      ['447700900002', 'Hello Bob'],
    ]);
    s.reply(3_000, 'reply');
    s.theirs('a:2', 4_000, 'Same moment, theirs', [[PEER, null]]);
    s.mine(4_000, 'same moment, mine');
    s.theirs('a:3', 5_000, 'Other account', [[PEER, null]], s.other);
    s.theirs('a:4', 6_000, 'Last', [[PEER, null]]);
    const expected = [
      'Last (Front desk)',
      'same moment, mine',
      'Same moment, theirs (Front desk)',
      'reply',
      'Hello Ann (Front desk)',
      'mine 1',
    ];
    for (const limit of [1, 2, 3, 5, 6, 100]) expect(shown(read(s, limit))).toEqual(expected);
    const last = read(s, 100)[0]!;
    expect(last).toMatchObject({ direction: 'out', status: 'accepted', read: true, sentFrom: 'Front desk' });
    expect(last.id).toBeLessThan(0);
  });

  it('leave a thread with none of them as the store reads it', () => {
    const s = setUp();
    s.mine(1_000, 'mine');
    s.theirs('a:1', 2_000, 'To someone else', [['447700900002', null]]);
    const conv = s.store.conversations.byPeer(s.account, PEER)!;
    const local = s.store.conversations.thread(s.account, { conversationId: conv.id });
    expect(s.sends.thread(local, { conversationId: conv.id, accountId: s.account, peer: PEER })).toBe(local);
  });

  it("are written with each recipient's own text where it is not the send's (a mail merge)", () => {
    const s = setUp();
    const own = new SendsLocal(s.store.app, 'desk-a');
    own.watchJournal();
    s.store.outbox.createJob(
      [PEER, '447700900002'],
      { kind: 'text', text: 'Hello {name}' },
      { accountId: s.account, textOf: (to) => (to === PEER ? 'Hello Ann' : 'Hello {name}') },
    );
    const page = own.changes(100)!;
    expect(page.byAccount.get(s.account)?.recipients.map((r) => [r.peer, r.text])).toEqual([
      [PEER, 'Hello Ann'],
      ['447700900002', null],
    ]);
  });
});
