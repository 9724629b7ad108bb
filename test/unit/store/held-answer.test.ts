// Issue 15's held answer, written as columns since issue 27 item 6 (main/store/held-answer.ts):
// what crash recovery stores is what the gateway answered, in either form.
import { describe, expect, it } from 'vitest';
import type { AppDb } from '../../../main/store/db.ts';
import { decodeHeldAnswer, encodeHeldAnswer } from '../../../main/store/held-answer.ts';
import type { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import type { RecipientResult } from '../../../domain/index.ts';
import { withJournal } from './helpers.ts';

let app: AppDb;
let journal: OutboxJournal;
withJournal((a, j) => {
  app = a;
  journal = j;
});

const numbers = (n: number) => Array.from({ length: n }, (_, i) => `447700900${String(i).padStart(3, '0')}`);

/** Every shape a result takes: matched by number or by position, no report, refused before sending. */
const RESULTS: RecipientResult[] = [
  { to: '447700900000', messageIdentifier: 'M1', report: '-3', text: 'ok' },
  { to: '447700900001', report: '15', text: 'Invalid number' },
  { to: '447700900002', messageIdentifier: 'M3' },
  { to: '447700900003', notSent: true, text: 'not sent: opted out' },
  { to: '447700900004', messageIdentifier: 'M5', report: '-1' },
];

/** What RESULTS store: each recipient's number, status and MessageIdentifier. */
const STORED = [
  ['447700900000', 'accepted', 'M1'],
  ['447700900001', 'rejected', null],
  ['447700900002', 'unknown', 'M3'],
  ['447700900003', 'rejected', null],
  ['447700900004', 'rejected', 'M5'],
];
const stored = (batchId: number) =>
  journal.recipientsOfBatch(batchId).map((o) => [o.to, o.status, o.messageIdentifier]);

const held = (batchId: number): string | null =>
  (app.db.prepare('SELECT answer FROM outbox_batches WHERE id = ?').get(batchId) as { answer: string | null })
    .answer;

describe('the held answer', () => {
  it('reads back as the results it was written from, field for field (absent fields stay absent)', () => {
    expect(decodeHeldAnswer(encodeHeldAnswer(RESULTS))).toStrictEqual(RESULTS);
    const positional: RecipientResult[] = [{ report: '-3', messageIdentifier: 'P1' }, {}, { text: 'x' }];
    expect(decodeHeldAnswer(encodeHeldAnswer(positional))).toStrictEqual(positional);
    expect(decodeHeldAnswer(encodeHeldAnswer([]))).toStrictEqual([]);
  });

  it('is about half the bytes of the results as objects for an answered batch of 350', () => {
    const answered = numbers(350).map((to, i) => ({
      to,
      messageIdentifier: `N${String(i).padStart(9, '0')}`,
      report: '-3',
      text: 'ok',
    }));
    expect(encodeHeldAnswer(answered).length).toBeLessThan(JSON.stringify(answered).length * 0.55);
  });

  it('is held as columns and stored by crash recovery as answered', () => {
    journal.createJob(numbers(5), { kind: 'text', text: 'Hello' });
    const batch = journal.markSending(journal.nextBatch()!.id);
    journal.holdAnswer(batch.id, RESULTS);
    expect(JSON.parse(held(batch.id)!)).toMatchObject({ v: 2, mid: ['M1', null, 'M3', null, 'M5'] });
    app.db.prepare("UPDATE outbox_batches SET owner = '4343:crashed-process' WHERE id = ?").run(batch.id);
    expect(journal.recoverAfterCrash({ isProcessAlive: () => false, isRunAlive: () => false })).toEqual([]);
    expect(stored(batch.id)).toEqual(STORED);
    expect(held(batch.id)).toBeNull();
  });

  it('an answer held by an earlier version (a JSON array of results) is recovered the same', () => {
    journal.createJob(numbers(5), { kind: 'text', text: 'Hello' });
    const batch = journal.markSending(journal.nextBatch()!.id);
    app.db
      .prepare("UPDATE outbox_batches SET answer = ?, owner = '4343:crashed-process' WHERE id = ?")
      .run(JSON.stringify(RESULTS), batch.id);
    journal.recoverAfterCrash({ isProcessAlive: () => false, isRunAlive: () => false });
    expect(stored(batch.id)).toEqual(STORED);
  });
});
