// Review of issue 27 item 6 (rev5): a delivery receipt goes to the newest send with its
// MessageIdentifier (identifiers can come again: the reference gateway's wrap after ~1.6 years, a
// gateway reinstalled starts over). A campaign's lean recipient moved into `messages` by a reply gets
// a new message id, greater than those of sends made after the campaign: the receipt must still go
// to the newer send, as it did when every recipient was a `messages` row from the start.
import { describe, expect, it } from 'vitest';
import type { AppDb } from '../../../main/store/db.ts';
import type { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import type { OutboxContent } from '../../../domain/index.ts';
import { withJournal } from './helpers.ts';

let app: AppDb;
let journal: OutboxJournal;
withJournal((a, j) => {
  app = a;
  journal = j;
});

const TEXT: OutboxContent = { kind: 'text', text: 'Doors open at nine', replyTo: '447700900999' };
const X = '447700900001';
const Z = '447700900002';
const Y = '447700900003';

describe('a receipt for a MessageIdentifier given again', () => {
  it('goes to the newer send, not to an older campaign recipient moved into its thread since', () => {
    const campaign = journal.createJob([X, Z], TEXT);
    const first = journal.claimNext(campaign.id)!;
    journal.recordResults(first.id, [
      { to: X, report: '-3', messageIdentifier: 'R' },
      { to: Z, report: '-3', messageIdentifier: 'S' },
    ]);
    const alone = journal.createJob([Y], { kind: 'text', text: 'Your seat is confirmed' });
    const second = journal.claimNext(alone.id)!;
    journal.recordResults(second.id, [{ to: Y, report: '-3', messageIdentifier: 'R' }]);
    // X writes back: its campaign row moves into its thread (a new `messages` row)
    new ConversationsRepo(app).storeInbound('', { from: X, to: TEXT.replyTo!, text: 'Hi', timestamp: 'x' });
    expect(app.db.prepare('SELECT count(*) AS n FROM outbox_recipients').get()).toEqual({ n: 1 });

    const m = journal.recordReceipt({ messageIdentifier: 'R', report: '0' });
    expect(m).toMatchObject({ peer: Y, jobId: alone.id, status: 'delivered' });
    expect(journal.recipients(alone.id).map((r) => r.status)).toEqual(['delivered']);
    expect(journal.recipients(campaign.id).map((r) => [r.to, r.status])).toEqual([
      [X, 'accepted'],
      [Z, 'accepted'],
    ]);
  });
});
