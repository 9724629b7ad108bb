// Issue 27 item 6: the Inbox's export of all messages or of a date range (main/store/inbox-export.ts)
// includes what a send to many sent to numbers with no listed conversation (the journal's lean rows,
// in no conversation), with its send's time, as it included their campaign-only conversations' rows
// before; an export of a search is what search finds (not them); never another account's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppStore } from '../../../main/store/app-store.ts';
import type { OpenedAppStore } from '../../../main/store/app-store.ts';

const opened: Array<{ store: OpenedAppStore; dir: string }> = [];
afterEach(() => {
  for (const { store, dir } of opened.splice(0)) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const TO = ['447700900001', '447700900002', '447700900003'];

describe('Inbox export: a campaign’s lean recipients', () => {
  it('in the export of all messages and of a date range, not in a search’s, not another account’s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-export-lean-'));
    const store = openAppStore(join(dir, 'messenger.db'));
    opened.push({ store, dir });
    const account = store.accounts.save({ username: 'demo', primaryUrl: 'https://gw.example.com' }).id;
    const other = store.accounts.save({ username: 'demo2', primaryUrl: 'https://gw.example.com' }).id;
    const journal = store.outbox;
    // (the journal's clock is the real one: the send's time is read back from its job)
    const job = journal.createJob(TO, { kind: 'text', text: 'Spring sale' }, { accountId: account });
    journal.createJob(TO, { kind: 'text', text: 'Other account sale' }, { accountId: other });
    // (pending: one value on the batch, migration 059)
    const lean = store.app.db.prepare('SELECT count(*) AS n FROM outbox_lean_pending WHERE job_id = ?');
    expect(lean.get(job.id)).toEqual({ n: 3 });
    const now = job.createdAt + 1000;
    store.conversations.storeInbound(account, {
      from: TO[1]!,
      to: '447700999000',
      text: 'Is the sale on Sunday?',
      timestamp: '270115080000',
      receivedAt: now,
    });
    expect(lean.get(job.id)).toEqual({ n: 2 });
    const rows = (csv: string) =>
      Papa.parse<string[]>(csv.trim(), { skipEmptyLines: true })
        .data.slice(1)
        .map((r) => [r[0], r[1], r[3], r[4], r[5]]);
    const at = new Date(job.createdAt).toISOString();
    const all = rows(store.conversations.exportMessages(account, {}));
    expect(all).toEqual([
      [at, 'sent', TO[1], 'Spring sale', 'pending'],
      [at, 'sent', TO[0], 'Spring sale', 'pending'],
      [at, 'sent', TO[2], 'Spring sale', 'pending'],
      [new Date(now).toISOString(), 'received', '447700999000', 'Is the sale on Sunday?', 'received'],
    ]);
    expect(
      rows(store.conversations.exportMessages(account, { from: job.createdAt, to: job.createdAt + 1 })),
    ).toEqual(all.slice(0, 3));
    expect(rows(store.conversations.exportMessages(account, { from: job.createdAt + 1 }))).toEqual(
      all.slice(3),
    );
    // a search's export: what search finds (the thread's rows), not the lean ones
    expect(rows(store.conversations.exportMessages(account, { query: 'spring' }))).toEqual([all[0]]);
    expect(store.search.search(account, 'spring').messages.map((h) => h.message.peer)).toEqual([TO[1]]);
  });
});
