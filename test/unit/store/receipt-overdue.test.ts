// Issue 17, item 17: an accepted recipient whose delivery receipt is overdue says "no receipt yet"
// (receiptOverdue) instead of staying "accepted" as if nothing were missing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAppDb } from '../../../main/store/db.ts';
import type { AppDb } from '../../../main/store/db.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { RECEIPT_OVERDUE_MS } from '../../../main/store/outbox-reads.ts';
import { tempDbFile } from './helpers.ts';

let app: AppDb;
let cleanup: () => void;
beforeEach(() => {
  const t = tempDbFile();
  cleanup = t.cleanup;
  app = openAppDb(t.file);
});
afterEach(() => {
  app.close();
  cleanup();
});

describe('receipt overdue', () => {
  it('marks an accepted recipient without a receipt once an hour has passed, until the receipt comes', () => {
    const journal = new OutboxJournal(app);
    const job = journal.createJob(['447700900123', '447700900124'], { kind: 'text', text: 'hi' });
    const batch = journal.markSending(journal.nextBatch()!.id);
    journal.recordResults(batch.id, [{ report: '-3', messageIdentifier: 'A1' }, { report: '15' }]);
    const overdue = () => journal.recipients(job.id).map((r) => [r.to, r.status, r.receiptOverdue]);
    expect(overdue()).toEqual([
      ['447700900123', 'accepted', false],
      ['447700900124', 'rejected', false],
    ]);
    // Rows are read against the wall clock: move the send back in time.
    app.db.prepare('UPDATE messages SET sent_at = sent_at - ?').run(RECEIPT_OVERDUE_MS + 1000);
    // (a send to many's recipients without a listed conversation are lean: issue 27 item 6)
    app.db.prepare('UPDATE outbox_recipients SET sent_at = sent_at - ?').run(RECEIPT_OVERDUE_MS + 1000);
    expect(overdue()[0]).toEqual(['447700900123', 'accepted', true]);
    expect(overdue()[1]?.[2]).toBe(false);
    journal.recordReceipt({ messageIdentifier: 'A1', report: '0' });
    expect(overdue()[0]?.[2]).toBe(false);
  });
});
