import { afterEach, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openAppDb } from '../../../main/store/db.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';

const CHILD = fileURLToPath(new URL('./claim-child.ts', import.meta.url));
const run = promisify(execFile);
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('outbox journal shared by processes', () => {
  it('hands every batch of a 1,000-recipient send to exactly one of three racing processes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'messenger-claim-'));
    dirs.push(dir);
    const file = join(dir, 'app.sqlite');
    const app = openAppDb(file);
    const journal = new OutboxJournal(app, { batchSize: 5 });
    const recipients = Array.from({ length: 1000 }, (_, i) => `447700900${String(i).padStart(3, '0')}`);
    const job = journal.createJob(recipients, { kind: 'text', text: 'race' });
    expect(job.batchCount).toBe(200);

    const outputs = await Promise.all([1, 2, 3].map(() => run(process.execPath, [CHILD, file])));
    const claims = outputs.map((o) => JSON.parse(o.stdout) as number[]);
    const all = claims.flat();
    expect(all).toHaveLength(200);
    expect(new Set(all).size).toBe(200);

    const after = journal.job(job.id);
    expect(after?.counts).toMatchObject({ accepted: 1000, pending: 0, sending: 0, unknown: 0 });
    const ids = new Set(journal.recipients(job.id).map((r) => r.messageIdentifier));
    expect(ids.size).toBe(1000);
    app.close();
  });
});
