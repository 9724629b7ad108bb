// Issue 27 item 6: the receipts the push receiver read in one turn are recorded in one transaction
// (OutboxJournal.recordReceipts), each in a savepoint of its own: one that the database refuses leaves
// the others recorded and says which failed, so only that one's push is answered with a fault.
import { describe, expect, it } from 'vitest';
import type { AppDb } from '../../../main/store/db.ts';
import type { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { withJournal } from './helpers.ts';

let app: AppDb;
let journal: OutboxJournal;
withJournal((a, j) => {
  app = a;
  journal = j;
});

const numbers = (n: number) => Array.from({ length: n }, (_, i) => `447700900${String(i).padStart(3, '0')}`);

/** A job of `n` recipients answered with MessageIdentifiers M1…Mn. */
function answered(n: number): number {
  const job = journal.createJob(numbers(n), { kind: 'text', text: 'Receipts together' });
  const b = journal.markSending(journal.nextBatch()!.id);
  journal.recordResults(
    b.id,
    numbers(n).map((to, i) => ({ to, messageIdentifier: `M${i + 1}`, report: '-3' })),
  );
  return job.id;
}

describe('recordReceipts', () => {
  it('records receipts pushed together, each as recordReceipt would, early ones kept', () => {
    const jobId = answered(3);
    const out = journal.recordReceipts([
      { messageIdentifier: 'M1', report: '-3', at: 5000 },
      { messageIdentifier: 'M2', report: '5', at: 5100 },
      { messageIdentifier: 'LATER', report: '-3' },
      { messageIdentifier: 'M3', report: '-3', at: 5200 },
    ]);
    expect(out.map((r) => (r === null || r instanceof Error ? r : [r.peer, r.status, r.receiptAt]))).toEqual([
      ['447700900000', 'delivered', 5000],
      ['447700900001', 'failed', 5100],
      null,
      ['447700900002', 'delivered', 5200],
    ]);
    expect(journal.job(jobId)?.counts).toMatchObject({ delivered: 2, failed: 1 });
    expect(app.db.prepare('SELECT message_identifier AS id FROM early_receipts').all()).toEqual([
      { id: 'LATER' },
    ]);
  });

  it('one receipt the database refuses leaves the others recorded, and is returned as its error', () => {
    const jobId = answered(3);
    // A receipt of an identifier not recorded yet is kept as early: the database refuses this one.
    app.db.exec(`CREATE TEMP TRIGGER refuse_early BEFORE INSERT ON early_receipts
      WHEN NEW.message_identifier = 'REFUSED' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    const out = journal.recordReceipts([
      { messageIdentifier: 'M1', report: '-3' },
      { messageIdentifier: 'REFUSED', report: '-3' },
      { messageIdentifier: 'LATER', report: '-3' },
      { messageIdentifier: 'M3', report: '5' },
    ]);
    expect(out[1]).toBeInstanceOf(Error);
    expect((out[1] as Error).message).toMatch(/refused by the test/);
    expect(out.map((r) => (r instanceof Error ? 'error' : (r?.status ?? null)))).toEqual([
      'delivered',
      'error',
      null,
      'failed',
    ]);
    expect(journal.recipients(jobId).map((r) => r.status)).toEqual(['delivered', 'accepted', 'failed']);
    expect(app.db.prepare('SELECT message_identifier AS id FROM early_receipts').all()).toEqual([
      { id: 'LATER' },
    ]);
    expect(app.db.isTransaction).toBe(false);
  });
});
