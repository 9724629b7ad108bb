// Issue 27 item 6, app migration 060: where each lean number is (outbox_lean_peers) is keyed by
// number and batch, its account read through the batch's job: a number listed in one account moves
// that account's recipients of it into its thread, and not another account's to the same number,
// on a file written before 060 as on a new one.
import { describe, expect, it } from 'vitest';
import { openAppDb } from '../../../main/store/db.ts';
import type { AppDb } from '../../../main/store/db.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { putLeanJob } from '../../support/lean-rows.ts';
import { migrationsBefore, tempDbFile } from './helpers.ts';

const N = '447700900001';
const OTHER = '447700900002';
const TEXT = { kind: 'text' as const, text: 'Hello' };

function accounts(app: AppDb): void {
  const add = app.db.prepare(
    "INSERT INTO accounts (id, label, username, primary_url, created_at, updated_at) VALUES (?, ?, ?, 'https://g.example/', 0, 0)",
  );
  add.run('acc-a', 'a', 'ua');
  add.run('acc-b', 'b', 'ub');
}

/** The thread of `peer` in `account` (its outbound messages' job ids), or null when not listed. */
function thread(app: AppDb, account: string, peer: string): number[] | null {
  const c = new ConversationsRepo(app, { defaultCountry: 'GB' });
  const conversation = c.byPeer(account, peer);
  return conversation
    ? c.thread(account, { conversationId: conversation.id }).items.map((m) => m.jobId ?? 0)
    : null;
}

const leanOf = (app: AppDb, peer: string): number =>
  (
    app.db
      .prepare(
        'SELECT (SELECT count(*) FROM outbox_recipients WHERE peer = ?1) + (SELECT count(*) FROM outbox_lean_pending WHERE peer = ?1) AS n',
      )
      .get(peer) as { n: number }
  ).n;

describe('a lean number found by number and batch, its account through its job (migration 060)', () => {
  it('on a new file: listed in one account, only that account’s recipients of it move', () => {
    const t = tempDbFile();
    const app = openAppDb(t.file);
    try {
      accounts(app);
      const journal = new OutboxJournal(app, { defaultCountry: 'GB' });
      const a = journal.createJob([N, OTHER], TEXT, { accountId: 'acc-a', normalized: true });
      const b = journal.createJob([N, OTHER], TEXT, { accountId: 'acc-b', normalized: true });
      // a's batch answered (rows), b's still pending (its value)
      const batch = journal.claimNext(a.id)!;
      journal.recordResults(batch.id, [
        { to: N, report: '-3', messageIdentifier: 'A1' },
        { to: OTHER, report: '-3', messageIdentifier: 'A2' },
      ]);
      expect(
        app.db.prepare("SELECT name FROM pragma_table_info('outbox_lean_peers') ORDER BY cid").all(),
      ).toEqual([{ name: 'peer' }, { name: 'batch_id' }, { name: 'position' }]);
      expect(leanOf(app, N)).toBe(2);
      new ConversationsRepo(app, { defaultCountry: 'GB' }).open('acc-a', N);
      expect(thread(app, 'acc-a', N)).toEqual([a.id]);
      expect(leanOf(app, N)).toBe(1); // b's, still in its batch's value
      new ConversationsRepo(app, { defaultCountry: 'GB' }).open('acc-b', N);
      expect(thread(app, 'acc-b', N)).toEqual([b.id]);
      expect(leanOf(app, N)).toBe(0);
      expect(leanOf(app, OTHER)).toBe(2);
      expect(app.db.prepare('SELECT count(*) AS n FROM outbox_lean_peers WHERE peer = ?').get(N)).toEqual({
        n: 0,
      });
    } finally {
      app.close();
      t.cleanup();
    }
  });

  it('on a file written before 060: its lookup rows kept, each number still found in its own account', () => {
    const t = tempDbFile();
    try {
      const before = migrationsBefore(60, t.dir);
      const old = openAppDb(t.file, { migrationsDir: before, checkpoints: false });
      accounts(old);
      const recipients = [N, OTHER].map((peer) => ({ peer, status: 'accepted' }));
      const a = putLeanJob(old, { accountId: 'acc-a', at: 1_000, content: TEXT, recipients, batchSize: 350 });
      const b = putLeanJob(old, { accountId: 'acc-b', at: 2_000, content: TEXT, recipients, batchSize: 350 });
      expect(old.db.prepare('SELECT count(*) AS n FROM outbox_lean_peers').get()).toEqual({ n: 4 });
      old.close();
      const app = openAppDb(t.file);
      try {
        expect(
          app.db
            .prepare('SELECT peer, batch_id, position FROM outbox_lean_peers ORDER BY peer, batch_id')
            .all(),
        ).toEqual([
          { peer: N, batch_id: a.batchIds[0], position: 0 },
          { peer: N, batch_id: b.batchIds[0], position: 0 },
          { peer: OTHER, batch_id: a.batchIds[0], position: 1 },
          { peer: OTHER, batch_id: b.batchIds[0], position: 1 },
        ]);
        new ConversationsRepo(app, { defaultCountry: 'GB' }).open('acc-b', N);
        expect(thread(app, 'acc-b', N)).toEqual([b.jobId]);
        expect(leanOf(app, N)).toBe(1);
        new ConversationsRepo(app, { defaultCountry: 'GB' }).open('acc-a', OTHER);
        expect(thread(app, 'acc-a', OTHER)).toEqual([a.jobId]);
        expect(leanOf(app, OTHER)).toBe(1);
      } finally {
        app.close();
      }
    } finally {
      t.cleanup();
    }
  });
});
