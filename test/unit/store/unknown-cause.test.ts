// Issue 25: the journal records why a batch's outcome is unknown (app migration 046), so the app can
// say the cause (renderer/send-outcome.ts) instead of "the app stopped" for every unknown: a crash
// recovered at start, a dropped connection or a time-out the sender names, an answer without a
// result for the recipients; the job lists its causes, the most batches first.
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openAppDb } from '../../../main/store/db.ts';
import type { AppDb } from '../../../main/store/db.ts';
import { CRASH_REASON, OutboxJournal } from '../../../main/store/outbox-journal.ts';
import type { OutboxContent } from '../../../preload/api.ts';
import { tempDbFile, withJournal } from './helpers.ts';

let app: AppDb;
let journal: OutboxJournal;
withJournal((a, j) => {
  app = a;
  journal = j;
});

const TEXT: OutboxContent = { kind: 'text', text: 'Hello' };
const numbers = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `447700900${String(from + i).padStart(3, '0')}`);

describe('why an outcome is unknown', () => {
  it('is recorded with each unknown batch, and the job lists the causes', () => {
    const small = new OutboxJournal(app, { batchSize: 1 });
    const job = small.createJob(numbers(5), TEXT);
    const [a, b, c, d, e] = small.batches(job.id).map((x) => x.id);
    for (const id of [a, b, c, d, e]) small.markSending(id!);
    expect(small.markUnknown(a!, 'socket hang up', 'connection-lost').unknownCause).toBe('connection-lost');
    small.markUnknown(b!, 'headers timeout', 'timed-out');
    small.markUnknown(c!, 'socket reset', 'connection-lost');
    // The gateway answered, but gave no result for the recipient.
    small.recordResults(d!, [{ text: 'no result' }]);
    expect(small.batch(d!)).toMatchObject({ state: 'unknown', unknownCause: 'no-result' });
    // Left 'sending' by a run that died: recovered at start as the app having stopped.
    app.db.prepare('UPDATE outbox_batches SET owner = ? WHERE id = ?').run('4343:gone', e!);
    const recovered = small.recoverAfterCrash({ isProcessAlive: () => false, isRunAlive: () => false });
    expect(recovered.map((x) => [x.id, x.unknownCause])).toEqual([[e, 'app-stopped']]);

    expect(small.job(job.id)?.unknownCauses).toEqual([
      'connection-lost',
      'app-stopped',
      'no-result',
      'timed-out',
    ]);
    expect(small.unknownBatches().map((x) => x.unknownCause)).toEqual([
      'connection-lost',
      'timed-out',
      'connection-lost',
      'no-result',
      'app-stopped',
    ]);
  });

  it('is null for a batch whose outcome is known, and no cause for a job without unknowns', () => {
    const job = journal.createJob(numbers(1), TEXT);
    const b = journal.markSending(journal.nextBatch()!.id);
    journal.recordResults(b.id, [{ report: '-3', messageIdentifier: 'M1' }]);
    expect(journal.batch(b.id)?.unknownCause).toBeNull();
    expect(journal.job(job.id)?.unknownCauses).toEqual([]);
  });

  it('is read from the reason for batches made unknown before migration 046', () => {
    const t = tempDbFile();
    try {
      const all = fileURLToPath(new URL('../../../main/store/migrations/', import.meta.url));
      const older = join(t.dir, 'migrations-045');
      cpSync(all, older, { recursive: true });
      for (const f of readdirSync(older)) if (Number(f.slice(0, 3)) >= 46) rmSync(join(older, f));
      const before = openAppDb(t.file, { migrationsDir: older });
      // Written as that schema's journal wrote a job of three batches (the journal of today writes
      // columns of later migrations: outbox_jobs.label, 055).
      const job = before.db
        .prepare(
          "INSERT INTO outbox_jobs (created_at, kind, text, content) VALUES (?, 'text', ?, ?) RETURNING id",
        )
        .get(Date.now(), TEXT.text, JSON.stringify(TEXT)) as { id: number };
      for (const seq of [1, 2, 3])
        before.db
          .prepare("INSERT INTO outbox_batches (job_id, seq, state, created_at) VALUES (?, ?, 'pending', ?)")
          .run(job.id, seq, Date.now());
      const set = before.db.prepare("UPDATE outbox_batches SET state = 'unknown', reason = ? WHERE id = ?");
      const ids = (
        before.db.prepare('SELECT id FROM outbox_batches ORDER BY id').all() as { id: number }[]
      ).map((r) => r.id);
      set.run(CRASH_REASON, ids[0]!);
      set.run(
        'connection to http://127.0.0.1:1 failed after the request may have been sent (UND_ERR_SOCKET); it was not sent again',
        ids[1]!,
      );
      before.close();
      const after = openAppDb(t.file);
      const journal = new OutboxJournal(after);
      expect(journal.batches(job.id).map((b) => b.unknownCause)).toEqual([
        'app-stopped',
        'connection-lost',
        null,
      ]);
      after.close();
    } finally {
      t.cleanup();
    }
  });
});
