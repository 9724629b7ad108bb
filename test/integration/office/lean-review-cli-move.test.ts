// Review of issue 27 item 6 in office mode (rev5): a lean recipient queued for the office database by
// its key (batch_id, position) whose row is moved into `messages` by a connection without the office
// TEMP triggers — `messenger inbox` (main/services/cli-replies.ts) storing a reply while the app is
// closed, the queue not written yet (the office database was away) — is still shared: the moved row
// keeps its batch and position, so the queued key finds it there. Without that, the key named
// nothing, was dropped, and the other desks never saw the recipient (one fewer in the send's counts).
// No PostgreSQL needed: what the desk hands the office database is read from its queue.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppStore } from '../../../main/store/app-store.ts';
import { SendsLocal } from '../../../main/office/sends-local.ts';
import { putLeanJob } from '../../support/lean-rows.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const ONE = '447700900001';
const TWO = '447700900002';
const AT = 1_700_000_000_000;

describe('office mode: a lean recipient moved by the CLI before its change was written', () => {
  it('is shared from its thread row, with its state, once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lean-review-cli-'));
    dirs.push(dir);
    const file = join(dir, 'messenger.db');

    // The app in office mode journals a send; its changes wait in the queue (office database away).
    const app = openAppStore(file);
    const account = app.accounts.save({ username: 'demo', primaryUrl: 'https://gw.example.com' }).id;
    new SendsLocal(app.app, 'desk-a').watchJournal();
    putLeanJob(app.app, {
      accountId: account,
      at: AT,
      content: { kind: 'text', text: 'Sale today' },
      recipients: [
        { peer: ONE, status: 'accepted', messageIdentifier: 'mid-1', sentAt: AT + 1 },
        {
          peer: TWO,
          status: 'delivered',
          messageIdentifier: 'mid-2',
          sentAt: AT + 1,
          receiptReport: 'DELIVRD',
          receiptAt: AT + 9,
        },
      ],
    });
    app.close();

    // `messenger inbox` on the folder (no office TEMP trigger on its connection) stores TWO's reply.
    const cli = openAppStore(file);
    cli.conversations.storeInbound(account, {
      from: TWO,
      to: '447700999000',
      text: 'Thanks',
      timestamp: '231114221320',
      receivedAt: AT + 100,
    });
    expect(cli.app.db.prepare('SELECT count(*) AS n FROM outbox_recipients').get()).toEqual({ n: 1 });
    cli.close();

    // The app again: what it writes to the office database names both recipients, TWO as it is.
    const again = openAppStore(file);
    try {
      const sends = new SendsLocal(again.app, 'desk-a');
      sends.watchJournal();
      const page = sends.changes(100)!;
      const recipients = page.byAccount.get(account)!.recipients;
      expect(
        recipients.map((r) => [r.peer, r.position, r.status, r.messageIdentifier, r.receiptReport]),
      ).toEqual([
        [ONE, 1_000_000, 'accepted', 'mid-1', null],
        [TWO, 1_000_001, 'delivered', 'mid-2', 'DELIVRD'],
      ]);
      sends.written(page.upTo, page.booksUpTo);
      expect(sends.changes(100)).toBeNull();
    } finally {
      again.close();
    }
  });

  it('a moved row queued both ways (its key and its message id) is handed over once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lean-review-cli-'));
    dirs.push(dir);
    const app = openAppStore(join(dir, 'messenger.db'));
    try {
      const account = app.accounts.save({ username: 'demo', primaryUrl: 'https://gw.example.com' }).id;
      const sends = new SendsLocal(app.app, 'desk-a');
      sends.watchJournal();
      putLeanJob(app.app, {
        accountId: account,
        at: AT,
        content: { kind: 'text', text: 'Sale today' },
        recipients: [
          { peer: ONE, status: 'accepted', messageIdentifier: 'mid-1' },
          { peer: TWO, status: 'accepted', messageIdentifier: 'mid-2' },
        ],
      });
      app.conversations.ensure(account, TWO, AT + 10);
      const recipients = sends.changes(100)!.byAccount.get(account)!.recipients;
      // (the office database's upsert takes a recipient once per statement: ON CONFLICT twice fails)
      expect(recipients.map((r) => r.peer)).toEqual([ONE, TWO]);
    } finally {
      app.close();
    }
  });
});
