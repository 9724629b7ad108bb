// Issue 28: another desk's send stored here makes or updates this desk's Inbox conversations as at the
// desk that sent it (main/office/sends-conversations.ts): a send to one number lists it once (a later
// state of it does not bring back a conversation deleted here); a campaign (two numbers, a book or
// Cc/Bcc batch, a resend of a campaign) lists none and is the last message of one already here unless
// a newer message is; its states stored again write nothing; unread counts untouched; the send's
// account only. Sends stored before this release are mirrored once when office mode starts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppStore } from '../../../main/store/app-store.ts';
import type { OpenedAppStore } from '../../../main/store/app-store.ts';
import { SendsLocal } from '../../../main/office/sends-local.ts';
import type { SharedRecipient } from '../../../main/office/sends-local.ts';
import type { ConversationSummary } from '../../../preload/api.ts';
import { OfficeLocal } from '../../../main/office/local.ts';
import { createShareSends } from '../../../main/office/share-sends.ts';

const opened: Array<{ store: OpenedAppStore; dir: string }> = [];
afterEach(() => {
  for (const { store, dir } of opened.splice(0)) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const ONE = '447700900001';
const TWO = '447700900002';

function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'sends-conversations-'));
  const store = openAppStore(join(dir, 'messenger.db'));
  opened.push({ store, dir });
  const account = store.accounts.save({ username: 'demo', primaryUrl: 'https://gw.example.com' }).id;
  const other = store.accounts.save({ username: 'demo2', primaryUrl: 'https://gw.example.com' }).id;
  const sends = new SendsLocal(store.app, 'desk-b');
  const recipient = (uid: string, peer: string, status = 'accepted'): SharedRecipient => ({
    sendUid: uid,
    peer,
    position: 1,
    status,
    messageIdentifier: null,
    report: null,
    reportText: null,
    classification: null,
    receiptReport: null,
    receiptAt: null,
    sentAt: null,
    version: 1,
  });
  /** Another desk's send `uid` at `at`; returns its job id. */
  const send = (uid: string, at: number, text: string, acc = account, resendOf: string | null = null) =>
    store.app.transaction(() =>
      sends.ensureSend(acc, {
        uid,
        createdAt: at,
        content: JSON.stringify({ kind: 'text', text }),
        resendOf,
        desk: 'a',
        deskName: 'Front desk',
      }),
    );
  const put = (job: number, uid: string, peers: string[], status = 'accepted') =>
    store.app.transaction(() =>
      sends.putRecipients(
        job,
        peers.map((p) => recipient(uid, p, status)),
      ),
    );
  const list = (acc = account) =>
    store.conversations.list(acc, { limit: 100 }).items.map((c: ConversationSummary) => ({
      peer: c.peer,
      last: c.lastMessage?.text ?? null,
      sentFrom: c.lastMessage?.sentFrom ?? null,
      status: c.lastMessage?.status ?? null,
      at: c.lastActivityAt,
      unread: c.unreadCount,
    }));
  return { store, account, other, sends, send, put, list };
}

describe("another desk's sends in this desk's conversation list", () => {
  it('a send to one number lists its conversation once, with its state as it changes', () => {
    const { store, account, other, send, put, list } = setUp();
    const job = send('a:1:100', 100, 'Hello');
    put(job, 'a:1:100', [ONE], 'sending');
    expect(list()).toEqual([
      { peer: ONE, last: 'Hello', sentFrom: 'Front desk', status: 'sending', at: 100, unread: 0 },
    ]);
    put(job, 'a:1:100', [ONE], 'accepted');
    expect(list()[0]?.status).toBe('accepted');
    expect(list(other)).toEqual([]);
    // deleted here: a later state of the same send does not bring it back
    store.conversations.delete(account, store.conversations.byPeer(account, ONE)!.id);
    put(job, 'a:1:100', [ONE], 'delivered');
    expect(list()).toEqual([]);
    // a new send to it does (as at the sending desk)
    const again = send('a:2:200', 200, 'Again');
    put(again, 'a:2:200', [ONE]);
    expect(list().map((c) => [c.peer, c.last, c.at])).toEqual([[ONE, 'Again', 200]]);
  });

  it("another account's send lists nothing on this one", () => {
    const { other, send, put, list } = setUp();
    const job = send('a:1:100', 100, 'Hello', other);
    put(job, 'a:1:100', [ONE]);
    expect(list()).toEqual([]);
    expect(list(other).map((c) => c.peer)).toEqual([ONE]);
  });

  it('a campaign lists none of its numbers and is the last message of a conversation already here', () => {
    const { store, account, send, put, list } = setUp();
    store.conversations.storeInbound(account, {
      from: ONE,
      to: '1234',
      text: 'a reply',
      timestamp: '2026-11-27 10:00:00',
      receivedAt: 50,
    });
    const job = send('a:1:100', 100, 'To all');
    put(job, 'a:1:100', [ONE, TWO], 'sending');
    expect(list()).toEqual([
      { peer: ONE, last: 'To all', sentFrom: 'Front desk', status: 'sending', at: 100, unread: 1 },
    ]);
    expect(store.conversations.unreadTotal(account)).toBe(1);
    // a newer message here stays the last one when the campaign's states come again
    store.conversations.storeInbound(account, {
      from: ONE,
      to: '1234',
      text: 'a later reply',
      timestamp: '2026-11-27 10:05:00',
      receivedAt: 300,
    });
    const changes = store.app.db.prepare('SELECT total_changes() AS n');
    const before = (changes.get() as { n: number }).n;
    put(job, 'a:1:100', [ONE, TWO], 'accepted');
    // (the two recipients' rows; no conversation written)
    expect((changes.get() as { n: number }).n - before).toBe(2);
    expect(list().map((c) => [c.peer, c.last, c.sentFrom, c.at, c.unread])).toEqual([
      [ONE, 'a later reply', null, 300, 2],
    ]);
    // a resend of it to one number is a campaign too: nothing listed
    const resend = send('a:2:400', 400, 'To all', account, 'a:1:100');
    put(resend, 'a:2:400', [TWO]);
    expect(list().map((c) => c.peer)).toEqual([ONE]);
  });

  it('a send to one number with a book or Cc/Bcc batch (stored first) lists nothing', () => {
    const { store, send, sends, put, list } = setUp();
    const job = send('a:1:100', 100, 'With a copy');
    store.app.transaction(() =>
      sends.putBatches(job, [
        {
          sendUid: 'a:1:100',
          seq: 1,
          state: 'accepted',
          createdAt: 100,
          startedAt: null,
          finishedAt: null,
          reason: null,
          unknownCause: null,
          fields: JSON.stringify({ SendBcc: TWO }),
          reach: 1,
          answered: null,
          accepted: null,
          rejected: null,
          version: 1,
        },
      ]),
    );
    put(job, 'a:1:100', [ONE]);
    expect(list()).toEqual([]);
  });

  it('sends stored before this release are mirrored once when office mode starts', () => {
    const { store, account, send, list } = setUp();
    // as an earlier release stored them: recipients without conversations
    const raw = (job: number, peers: string[]) =>
      peers.forEach((p, i) =>
        store.app.db
          .prepare('INSERT INTO office_send_recipients (job_id, peer, position, status) VALUES (?, ?, ?, ?)')
          .run(job, p, i, 'accepted'),
      );
    raw(send('a:1:100', 100, 'First'), [ONE]);
    raw(send('a:2:200', 200, 'Second'), [ONE]);
    raw(send('a:3:300', 300, 'To all'), [ONE, TWO]);
    expect(list()).toEqual([]);
    const start = () =>
      createShareSends({
        store,
        local: new OfficeLocal(store.app),
        desk: 'desk-b',
        keyOf: (a) => a.username,
        emit: () => {},
      });
    start();
    expect(list()).toEqual([
      { peer: ONE, last: 'To all', sentFrom: 'Front desk', status: 'accepted', at: 300, unread: 0 },
    ]);
    // once: a conversation deleted here is not brought back by the next start
    store.conversations.delete(account, store.conversations.byPeer(account, ONE)!.id);
    start();
    expect(list()).toEqual([]);
  });
});
